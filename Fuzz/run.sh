#!/usr/bin/env bash
# Fuzzes the JPEG and PNG decoders with libFuzzer (clang from the Swift toolchain), with
# AddressSanitizer and UndefinedBehaviorSanitizer on the project's C code.
#
#   Fuzz/run.sh [SECONDS_PER_DECODER]        (default 300)
#
# Seeds: the JPEGs of SampleFrames and the PNGs in Fuzz/seeds/png. New inputs that reach new
# code collect in .build/fuzz/corpus-*; crashes are written to .build/fuzz/crash-* and the
# run stops. Keep every crasher in Fuzz/regressions, which the tests decode.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
clang="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"
out=.build/fuzz
mkdir -p "$out/corpus-jpeg" "$out/corpus-png"
for format in jpeg png; do
  flag=$(echo "$format" | tr a-z A-Z)
  "$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fuse-ld=lld \
    -DFUZZ_"$flag" -I Sources/CImageCodecs/include $(pkg-config --cflags libpng) \
    Fuzz/decode_fuzzer.c Sources/CImageCodecs/jpeg_codec.c Sources/CImageCodecs/png_codec.c \
    $(pkg-config --libs libjpeg libpng) -o "$out/$format-fuzzer"
done
find SampleFrames -name '*.jpg' -exec cp {} "$out/corpus-jpeg/" \;
cp Fuzz/seeds/png/*.png "$out/corpus-png/"
for format in jpeg png; do
  echo "== fuzzing the $format decoder for $seconds s"
  (cd "$out" && "./$format-fuzzer" -max_total_time="$seconds" -max_len=200000 -rss_limit_mb=2048 \
    -print_final_stats=1 "corpus-$format") 2>&1 | grep -E "^#[0-9]+ +DONE|stat::|ERROR|SUMMARY|Test unit written" || true
done
