// swift-tools-version:6.0
import Foundation
import PackageDescription

// Release builds compile the hot loops for the CPU they are built on: the blur runs
// several times faster with AVX2 or AVX-512 than with the baseline x86-64 target (see
// BENCHMARKS.md). Set TRAFFIC_LIGHT_PORTABLE=1 to build for the baseline instead, for a binary
// that must run on other machines, or to use this package as a dependency (which cannot
// carry unsafe flags).
let portable = ProcessInfo.processInfo.environment["TRAFFIC_LIGHT_PORTABLE"] != nil
let hostCPU: [SwiftSetting] =
  portable
  ? []
  : [
    .unsafeFlags(["-target-cpu", "native"], .when(configuration: .release)),
    .define("HOST_CPU", .when(configuration: .release)),
  ]

let package = Package(
  name: "traffic-light",
  products: [
    .library(name: "TrafficLight", targets: ["TrafficLight", "TrafficLightKernels"]),
    .executable(name: "traffic-light", targets: ["TrafficLightCLI"]),
  ],
  targets: [
    .systemLibrary(
      name: "CJPEG", pkgConfig: "libjpeg",
      providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
    // The libjpeg and libpng calls, including the setjmp recovery Swift cannot express.
    .target(name: "CImageCodecs", dependencies: ["CJPEG", "CPNG"]),
    // Pixel buffers, the blur and the per-pixel classifier: pure Swift, no Foundation.
    .target(name: "TrafficLightKernels", swiftSettings: hostCPU),
    // Decoding, sampling, voting, profiles and the frame pipeline.
    .target(
      name: "TrafficLight", dependencies: ["CImageCodecs", "TrafficLightKernels"], swiftSettings: hostCPU),
    // The `traffic-light` command: parses arguments, calls the library, formats results.
    .executableTarget(name: "TrafficLightCLI", dependencies: ["TrafficLight", "TrafficLightKernels"]),
    // Per-stage timings on 1080p, 480p and crop-sized frames: swift run -c release PipelineBenchmarks
    .executableTarget(
      name: "PipelineBenchmarks", dependencies: ["TrafficLight", "TrafficLightKernels"],
      path: "Benchmarks/PipelineBenchmarks",
      swiftSettings: hostCPU),
    // Synthetic images and helpers shared by the test targets.
    .target(
      name: "TrafficLightTestSupport", dependencies: ["TrafficLight", "TrafficLightKernels"],
      path: "Tests/TrafficLightTestSupport"),
    .testTarget(
      name: "TrafficLightKernelsTests", dependencies: ["TrafficLightKernels", "TrafficLight"]),
    .testTarget(
      name: "TrafficLightTests",
      dependencies: ["TrafficLight", "TrafficLightKernels", "TrafficLightTestSupport"]),
    .testTarget(
      name: "TrafficLightCLITests",
      dependencies: ["TrafficLight", "TrafficLightKernels", "TrafficLightTestSupport"],
      // Recorded outputs, read through #filePath.
      exclude: ["Expected"]),
  ]
)
