#!/usr/bin/env bash
# Fuzzes the JPEG and PNG decoders with libFuzzer (clang from the Swift toolchain), with
# AddressSanitizer and UndefinedBehaviorSanitizer on the project's C code, and the Swift EXIF
# orientation reader (swiftc -sanitize=fuzzer,address, Fuzz/exif_fuzzer.swift).
#
#   Fuzz/run.sh [SECONDS_PER_TARGET]        (default 300)
#
# Seeds: the JPEGs of SampleFrames, the PNGs in Fuzz/seeds/png, and for the EXIF reader those
# JPEGs with the tagged images in Fuzz/seeds/exif. New inputs that reach new code collect in
# .build/fuzz/corpus-*; crashes are written to .build/fuzz/crash-* and the run stops. Keep
# every crasher in Fuzz/regressions, which the tests decode.
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
# The EXIF reader with the kernel module it turns images with, and nothing of the C codecs.
mkdir -p "$out/kernels" "$out/corpus-exif"
swiftc -O -parse-as-library -emit-module -emit-library -static -module-name TrafficLightKernels \
  Sources/TrafficLightKernels/*.swift -emit-module-path "$out/kernels/TrafficLightKernels.swiftmodule" \
  -o "$out/kernels/libTrafficLightKernels.a"
swiftc -O -g -sanitize=fuzzer,address -use-ld=lld -parse-as-library -module-name ExifFuzz \
  Fuzz/exif_fuzzer.swift Sources/TrafficLight/ExifOrientation.swift Sources/TrafficLight/ImageFormat.swift \
  -I "$out/kernels" -L "$out/kernels" -lTrafficLightKernels -o "$out/exif-fuzzer"
find SampleFrames -name '*.jpg' -exec cp {} "$out/corpus-jpeg/" \;
find SampleFrames -name '*.jpg' -exec cp {} "$out/corpus-exif/" \;
cp Fuzz/seeds/png/*.png "$out/corpus-png/"
cp Fuzz/seeds/exif/* "$out/corpus-exif/"
for format in jpeg png exif; do
  echo "== fuzzing the $format reader for $seconds s"
  (cd "$out" && "./$format-fuzzer" -max_total_time="$seconds" -max_len=200000 -rss_limit_mb=2048 \
    -print_final_stats=1 "corpus-$format") 2>&1 | grep -E "^#[0-9]+ +DONE|stat::|ERROR|SUMMARY|Test unit written" || true
done
