#!/usr/bin/env bash
# Builds the README's library example as a package that depends on this one by version, as a
# user's package would (no environment variable, no unsafe flags: SwiftPM refuses them in a
# versioned dependency, while a dependency by path would take them), and checks that it reads
# SampleFrames and a 1080p frame as `classify` does and smooths them as `sequence` does.
#
#   scripts/dependency_check.sh     (about two minutes: a debug build of both)
#
# TRAFFIC_LIGHT_TOOL names a `traffic-light` already built from this tree (CI's release
# build) to compare against; without it, the release product is built first.
#
# The dependency is a copy of this working tree committed and tagged 1.0.0 in a temporary git
# repository, reached by a file URL (SwiftPM resolves versions of local repositories as it
# does remote ones).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/traffic-light-dependent-XXXXXX")"
trap 'rm -rf "$work"' EXIT

mkdir "$work/traffic-light"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  tar --null -T - -cf -) | tar -xf - -C "$work/traffic-light"
(
  cd "$work/traffic-light"
  git init -q
  git add -A
  git -c user.name=check -c user.email=check@localhost commit -qm "the package as a dependency"
  git tag 1.0.0
)

# The README's example, word for word: the swift block that begins `import TrafficLight`.
mkdir -p "$work/dependent/Sources/my-tool"
awk '/^```swift$/ { block = 1; text = ""; next }
     /^```$/ { if (block && text ~ /^import TrafficLight\n/) { printf "%s", text; exit } block = 0; next }
     block { text = text $0 "\n" }' "$root/README.md" > "$work/dependent/Sources/my-tool/main.swift"
grep -q "ImageReader" "$work/dependent/Sources/my-tool/main.swift" || {
  echo "dependency_check: no example beginning 'import TrafficLight' in README.md" >&2
  exit 1
}

# SampleFrames, and a 1080p frame: a car-park crop on a grey frame, so that it is searched.
frames="$work/frames"
mkdir "$frames"
cp "$root"/SampleFrames/carpark-sequence/*.jpg "$frames/"
images=("$frames"/*.jpg "$root"/SampleFrames/stills/*/*.jpg)
if command -v ffmpeg >/dev/null; then
  ffmpeg -loglevel error -f lavfi -i color=c=0x505a64:s=1920x1080 \
    -i "$root/SampleFrames/carpark-sequence/real_400_2.jpg" \
    -filter_complex "[1]scale=96:276[light];[0][light]overlay=900:300" -frames:v 1 -q:v 2 "$frames/zz-1080p.jpg"
  images+=("$frames/zz-1080p.jpg")
else
  echo "dependency_check: ffmpeg is not installed: no 1080p frame is checked" >&2
fi

cd "$root"
tool="${TRAFFIC_LIGHT_TOOL:-}"
if [ -z "$tool" ]; then
  swift build -c release --product traffic-light 2>&1 | tail -n 1
  tool="$root/.build/release/traffic-light"
fi
"$tool" classify --format jsonl "${images[@]}" |
  python3 -c 'import json, sys; [print(r["path"] + "," + r["color"]) for r in map(json.loads, sys.stdin)]' \
  > "$work/cli-colours"
"$tool" sequence --format jsonl "$frames" |
  python3 -c 'import json, sys; [print(r["color"] + "," + r["smoothed"]) for r in map(json.loads, sys.stdin) if "frame" in r]' \
  > "$work/cli-sequence"

# The package as a user's would have it: by version from a tagged repository (which refuses
# unsafe flags), then by path.
check() {
  local how="$1"
  cd "$work/dependent"
  env -u TRAFFIC_LIGHT_KERNELS swift build 2>&1 | tail -n 3
  env -u TRAFFIC_LIGHT_KERNELS .build/debug/my-tool "${images[@]}" > "$work/example-out"
  local n=${#images[@]}
  head -n "$n" "$work/example-out" | awk '{ print $1 "," $2 }' > "$work/example-colours"
  if ! diff "$work/cli-colours" "$work/example-colours"; then
    echo "dependency_check ($how): the README's example reads the images differently from classify" >&2
    exit 1
  fi
  # The recording: the frames of $frames, in the CLI's order (by name).
  local frames_n
  frames_n=$(find "$frames" -name '*.jpg' | wc -l)
  env -u TRAFFIC_LIGHT_KERNELS .build/debug/my-tool "$frames"/*.jpg | tail -n +"$((frames_n + 1))" |
    awk '{ print $2 "," $3 }' > "$work/example-sequence"
  if ! diff "$work/cli-sequence" "$work/example-sequence"; then
    echo "dependency_check ($how): the README's example smooths the recording differently from sequence" >&2
    exit 1
  fi
  echo "dependency_check ($how): the README's example reads ${n} images as classify does, and smooths as sequence does"
  rm -rf "$work/dependent/.build" "$work/dependent/Package.resolved"
}

write_package() {
  cat > "$work/dependent/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "my-tool",
  dependencies: [$1],
  targets: [
    .executableTarget(
      name: "my-tool", dependencies: [.product(name: "TrafficLight", package: "traffic-light")])
  ]
)
SWIFT
}
write_package '.package(url: "file://'"$work"'/traffic-light", from: "1.0.0")'
check "by version"
