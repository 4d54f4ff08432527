#!/usr/bin/env bash
# Fuzzes, with libFuzzer (clang and swiftc from the Swift toolchain) and AddressSanitizer:
#   jpeg, png     the decoders (Sources/CImageCodecs, UndefinedBehaviorSanitizer too), images up
#                 to 4 megapixels, each input given 2 s (-timeout) so that a slow one fails;
#   jpeg-large    the JPEG decoder at the tool's own limit (100 megapixels): slow inputs, each
#                 given 20 s (a 100-megapixel decode takes about 3 s under the sanitizers);
#   exif          the EXIF orientation reader;
#   profile       the profile loader, and a pipeline over what it accepts;
#   arguments     the command-line parsers of every subcommand (nothing is run).
#
#   Fuzz/run.sh [SECONDS_PER_TARGET [TARGET...]]      (default 300 s, every target)
#
# Seeds: the JPEGs of SampleFrames, Fuzz/seeds/png, Fuzz/seeds/exif (with the JPEGs),
# Fuzz/seeds/profile and Fuzz/seeds/arguments (arguments split at NUL bytes). New inputs that
# reach new code collect in .build/fuzz/corpus-*; crashes and slow inputs are written to
# .build/fuzz/crash-* or timeout-* and the target's run stops. Keep every one in
# Fuzz/regressions (decoder inputs, which the tests decode) or as a test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(jpeg png jpeg-large exif profile arguments)
clang="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"
out=.build/fuzz
mkdir -p "$out"

# The C decoders, three ways.
build_decoder() {  # name, define, pixel cap
  "$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fuse-ld=lld \
    -D"$2" -DFUZZ_MAX_PIXELS="$3" -I Sources/CImageCodecs/include $(pkg-config --cflags libpng) \
    Fuzz/decode_fuzzer.c Sources/CImageCodecs/jpeg_codec.c Sources/CImageCodecs/png_codec.c \
    $(pkg-config --libs libjpeg libpng) -o "$out/$1-fuzzer"
}
build_decoder jpeg FUZZ_JPEG 4000000
build_decoder png FUZZ_PNG 4000000
build_decoder jpeg-large FUZZ_JPEG 100000000

# The Swift targets link the library as SwiftPM builds it with the fuzzer's instrumentation
# (the arguments target compiles the command's sources, all but main.swift, beside its entry).
swift build --build-path .build/fuzz-swift --sanitize fuzzer --sanitize address --target TrafficLight
bin="$(swift build --build-path .build/fuzz-swift --sanitize fuzzer --sanitize address --show-bin-path)"
objects=$(ls "$bin"/{TrafficLight,TrafficLightKernels,CKernels,CImageCodecs}.build/*.o)
# The package's name as SwiftPM passed it (its folder's), for the CLI's `package` declarations.
package=$(grep -o '"-package-name","[^"]*"' .build/fuzz-swift/debug.yaml | head -n 1 | cut -d'"' -f4)
imports=(-I "$bin/Modules" -I Sources/CImageCodecs/include -I Sources/CKernels/include
  -Xcc -fmodule-map-file="$bin/CImageCodecs.build/module.modulemap"
  -Xcc -fmodule-map-file="$bin/CKernels.build/module.modulemap"
  -Xcc -fmodule-map-file=Sources/CJPEG/module.modulemap -Xcc -fmodule-map-file=Sources/CPNG/module.modulemap)
swift_fuzzer() {  # name, sources...
  local name="$1"
  shift
  swiftc -g -sanitize=fuzzer,address -use-ld=lld -parse-as-library -package-name "$package" \
    -module-name "Fuzz_${name//-/_}" "$@" "${imports[@]}" \
    $objects $(pkg-config --libs libjpeg libpng) -o "$out/$name-fuzzer"
}
swift_fuzzer exif Fuzz/exif_fuzzer.swift
swift_fuzzer profile Fuzz/profile_fuzzer.swift
swift_fuzzer arguments Fuzz/arguments_fuzzer.swift $(ls Sources/TrafficLightCLI/*.swift | grep -v '/main.swift$')

for target in jpeg png jpeg-large exif profile arguments; do mkdir -p "$out/corpus-$target"; done
find SampleFrames -name '*.jpg' -exec cp {} "$out/corpus-jpeg/" \; -exec cp {} "$out/corpus-jpeg-large/" \; \
  -exec cp {} "$out/corpus-exif/" \;
cp Fuzz/seeds/png/*.png "$out/corpus-png/"
cp Fuzz/seeds/exif/* "$out/corpus-exif/"
cp Fuzz/seeds/profile/* "$out/corpus-profile/"
cp Fuzz/seeds/arguments/* "$out/corpus-arguments/"

for target in "${targets[@]}"; do
  case "$target" in
    jpeg-large) timeout=20 ;;
    *) timeout=2 ;;
  esac
  echo "== fuzzing $target for $seconds s (a unit slower than $timeout s fails)"
  (cd "$out" && "./$target-fuzzer" -max_total_time="$seconds" -timeout="$timeout" -max_len=200000 \
    -rss_limit_mb=2560 -print_final_stats=1 "corpus-$target") 2>&1 |
    grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Test unit written|ALARM|timeout" || true
done
