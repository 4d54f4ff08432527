// swift-tools-version:6.0
import PackageDescription

// No build flags: every target is built for its architecture's baseline, so that a package
// depending on this one by version builds as it is. The blur and the classifier choose their
// instruction set at run time instead (`KernelLevel`, Sources/CKernels).
let package = Package(
  name: "traffic-light",
  products: [
    .library(name: "TrafficLight", targets: ["TrafficLight", "TrafficLightKernels"]),
    .library(name: "TrafficLightStudy", targets: ["TrafficLightStudy"]),
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
    // The blur and the classifier in C, one copy per x86-64 instruction set (target
    // attributes), chosen at run time.
    .target(name: "CKernels"),
    // Pixel buffers, the blur and the per-pixel classifier (the Swift SIMD form, and the
    // choice of level): no Foundation.
    .target(name: "TrafficLightKernels", dependencies: ["CKernels"]),
    // Decoding, sampling, voting, profiles and the frame pipeline. The fitted numbers are
    // JSON (the `default` and `fitted` profiles, the lamp finder's evidence model) compiled
    // in as bytes, so the binary needs no file beside it.
    .target(
      name: "TrafficLight", dependencies: ["CImageCodecs", "TrafficLightKernels"],
      resources: [
        .embedInCode("Profiles/default.json"), .embedInCode("Profiles/fitted.json"),
        .embedInCode("Profiles/lamp-evidence.json"),
      ]),
    // The study of a profile beside the library: labelled folders and recordings, evaluation,
    // folds, and the calibrator with the values it searches (the search space is the study's,
    // not the deciders').
    .target(name: "TrafficLightStudy", dependencies: ["TrafficLight", "TrafficLightKernels"]),
    // The `traffic-light` command: parses arguments, calls the library, formats results.
    .executableTarget(
      name: "TrafficLightCLI", dependencies: ["TrafficLight", "TrafficLightKernels", "TrafficLightStudy"]),
    // Per-stage timings on 1080p, 480p and crop-sized frames: swift run -c release PipelineBenchmarks
    .executableTarget(
      name: "PipelineBenchmarks", dependencies: ["TrafficLight", "TrafficLightKernels", "TrafficLightStudy"],
      path: "Benchmarks/PipelineBenchmarks"),
    // Synthetic images and helpers shared by the test targets.
    .target(
      name: "TrafficLightTestSupport",
      dependencies: ["TrafficLight", "TrafficLightKernels", "TrafficLightStudy"],
      path: "Tests/TrafficLightTestSupport"),
    .testTarget(
      name: "TrafficLightKernelsTests",
      dependencies: ["TrafficLightKernels", "TrafficLight", "TrafficLightStudy", "TrafficLightTestSupport"]),
    .testTarget(
      name: "TrafficLightTests",
      dependencies: ["TrafficLight", "TrafficLightKernels", "TrafficLightStudy", "TrafficLightTestSupport"],
      // The training script's outputs for the network's tests, read through #filePath.
      exclude: ["Fixtures"]),
    .testTarget(
      name: "TrafficLightCLITests",
      dependencies: ["TrafficLight", "TrafficLightKernels", "TrafficLightStudy", "TrafficLightTestSupport"],
      // Recorded outputs, read through #filePath.
      exclude: ["Expected"]),
  ]
)
