// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "traffic-light",
  products: [
    .library(name: "TrafficLight", targets: ["TrafficLight"]),
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
    .target(name: "TrafficLightKernels"),
    // Decoding, sampling, voting, profiles and the frame pipeline.
    .target(name: "TrafficLight", dependencies: ["CImageCodecs", "TrafficLightKernels"]),
    // The `traffic-light` command: parses arguments, calls the library, formats results.
    .executableTarget(name: "TrafficLightCLI", dependencies: ["TrafficLight"]),
    // Synthetic images and helpers shared by the test targets.
    .target(
      name: "TrafficLightTestSupport", dependencies: ["TrafficLight"], path: "Tests/TrafficLightTestSupport"),
    .testTarget(
      name: "TrafficLightKernelsTests", dependencies: ["TrafficLightKernels", "TrafficLight"]),
    .testTarget(name: "TrafficLightTests", dependencies: ["TrafficLight", "TrafficLightTestSupport"]),
    .testTarget(
      name: "TrafficLightCLITests", dependencies: ["TrafficLight", "TrafficLightTestSupport"],
      // Recorded outputs, read through #filePath.
      exclude: ["Expected"]),
  ]
)
