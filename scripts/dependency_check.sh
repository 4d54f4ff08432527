#!/usr/bin/env bash
# Builds a tiny package that depends on this one by version, as a user's package would, and
# has it read SampleFrames: no environment variable, no unsafe flags.
#
#   scripts/dependency_check.sh            (about two minutes: a debug build of both)
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

mkdir -p "$work/dependent/Sources/dependent"
cat > "$work/dependent/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "dependent",
  dependencies: [.package(url: "file://$work/traffic-light", from: "1.0.0")],
  targets: [
    .executableTarget(
      name: "dependent", dependencies: [.product(name: "TrafficLight", package: "traffic-light")])
  ]
)
SWIFT
cat > "$work/dependent/Sources/dependent/main.swift" <<'SWIFT'
import Foundation
import TrafficLight
import TrafficLightKernels

// Reads every JPEG of the folder given and prints its colour; fails unless each was read.
let folder = CommandLine.arguments[1]
let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted()
let reader = ImageReader(pipeline: FramePipeline(profile: .default))
var colours: [String: Int] = [:]
for name in names {
  let reading = reader.read(folder + "/" + name)
  colours[reading.frameColor.rawValue, default: 0] += 1
}
print("kernel level \(KernelLevel.best.rawValue); \(names.count) frames:", colours.sorted { $0.key < $1.key })
exit(names.isEmpty || colours.values.reduce(0, +) != names.count ? 1 : 0)
SWIFT

cd "$work/dependent"
env -u TRAFFIC_LIGHT_KERNELS swift build 2>&1 | tail -n 3
env -u TRAFFIC_LIGHT_KERNELS .build/debug/dependent "$root/SampleFrames/carpark-sequence"
