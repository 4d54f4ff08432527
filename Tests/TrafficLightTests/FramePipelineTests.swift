import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight

@Suite struct FramePipelineTests {
  let seed = FramePipeline(profile: .seed)

  @Test(arguments: [SignalColor.red, .yellow, .green])
  func pipeline_syntheticLight_readsTheLitLamp(color: SignalColor) {
    let result = seed.classify(syntheticLight(lit: color))
    #expect(result.color == color)
    #expect(result.decision.samples.count == 7)
    #expect(result.counts[color] >= 2)
  }

  @Test func pipeline_reportsEachSampledPointAndItsClass() {
    let result = seed.classify(syntheticLight(lit: .red))
    #expect(result.decision.samples.map(\.y) == [11, 22, 33, 45, 56, 67, 78])
    #expect(result.decision.samples.map(\.pixelClass) == [.red, .red, .none, .none, .none, .none, .none])
    #expect(result.region == PixelRegion(x: 0, y: 0, width: 30, height: 90))
  }

  @Test func pipeline_regionOfInterest_readsOnlyThatPart() {
    // A green light pasted into the right half of a wider red-lit frame.
    var frame = RGBImage(width: 60, height: 90)
    let red = syntheticLight(lit: .red)
    let green = syntheticLight(lit: .green)
    for y in 0..<90 {
      for x in 0..<30 {
        frame[x, y] = red[x, y]
        frame[x + 30, y] = green[x, y]
      }
    }
    #expect(seed.classify(frame, region: PixelRegion(x: 0, y: 0, width: 30, height: 90)).color == .red)
    let right = seed.classify(frame, region: PixelRegion(x: 30, y: 0, width: 30, height: 90))
    #expect(right.color == .green)
    #expect(right.decision.samples.first?.x == 15)  // crop coordinates
    // Clipped to the image, and nothing left at all.
    let clipped = seed.classify(frame, region: PixelRegion(x: 30, y: -10, width: 100, height: 200))
    #expect(clipped.region == PixelRegion(x: 30, y: 0, width: 30, height: 90))
    #expect(clipped.color == .green)
    let outside = seed.classify(frame, region: PixelRegion(x: 100, y: 0, width: 10, height: 10))
    #expect(outside.region == nil)
    #expect(outside.color == .unknown)
  }

  @Test func pipeline_sampleFrames_readWithoutErrorAndGreenStillsAreNotRed() throws {
    let items = InputCollector.collect([TestPaths.sampleFrames])
    let images = items.compactMap { item -> String? in
      if case .image(let path) = item { path } else { nil }
    }
    #expect(images.count == 24)
    for path in images {
      let result = try seed.classify(fileAt: path)
      #expect(result.decision.samples.count == 7, "\(path)")
      if path.contains("/stills/green/") { #expect(result.color != .red, "\(path)") }
    }
  }

  @Test func pipeline_missingFile_isADecodeErrorNamingIt() {
    #expect(throws: DecodeError.self) { try seed.classify(fileAt: "/nonexistent.jpg") }
  }

  @Test func sequence_feedsFramesThroughTheVote() {
    var sequence = SequenceClassifier(pipeline: seed, window: 3)
    let frames: [SignalColor] = [.red, .red, .green, .green, .green]
    let steps = frames.map { sequence.feed(.success(seed.classify(syntheticLight(lit: $0)))) }
    #expect(steps.map(\.frame) == [0, 1, 2, 3, 4])
    #expect(steps.map(\.color) == frames)
    #expect(steps.map(\.smoothed) == [.red, .red, .red, .green, .green])
  }

  @Test func sequence_unreadableFrame_votesUnknown() {
    var sequence = SequenceClassifier(pipeline: seed)
    _ = sequence.feed(.success(seed.classify(syntheticLight(lit: .green))))
    let step = sequence.feed(fileAt: "/nonexistent/frame.jpg")
    #expect(step.color == .unknown)
    #expect(step.smoothed == .green)
    #expect(sequence.vote.recent == [.green, .unknown])
    guard case .failure(let error) = step.outcome else {
      Issue.record("a missing frame was read")
      return
    }
    #expect(error.path == "/nonexistent/frame.jpg")
  }
}

@Suite struct ProfileTests {
  @Test func profile_builtIns_areFoundByName() throws {
    #expect(try Profile.named("seed") == .seed)
    #expect(try Profile.named("default").name == "default")
    #expect(Profile.seed.thresholds == .seed)
    #expect(Profile.seed.sigma == 2 && Profile.seed.sampler == SevenPointSampler())
  }

  @Test func profile_jsonFile_roundTrips() throws {
    var custom = Profile.seed
    custom.name = "night"
    custom.sigma = 1.5
    custom.sampler.orientation = .horizontal
    custom.thresholds.valueFloor = 0.25
    custom.thresholds.green = HueRange(100, 200)
    let folder = try temporaryFolder()
    let path = folder + "/night.json"
    try custom.json().write(to: URL(fileURLWithPath: path))
    #expect(try Profile.named(path) == custom)
  }

  @Test func profile_default_roundTripsThroughJSON_splitAndFaintLampIncluded() throws {
    let decoded = try Profile.decode(Profile.default.json(), path: "default.json")
    #expect(decoded == Profile.default)
    #expect(decoded.sampler.warmSplit != nil && decoded.sampler.faintLamp != nil)
    let seedJSON = String(decoding: Profile.seed.json(), as: UTF8.self)
    #expect(!seedJSON.contains("warmSplit") && !seedJSON.contains("faintLamp"))
  }

  /// A profile whose warm split or faint lamp has an impossible value, and what is said of it.
  static let badSamplerRules: [(rule: String, reason: String)] = [
    (
      #""warmSplit": {"hue": 200, "lower": 335, "upper": 65, "saturationFloor": 0.1, "valueFloor": 0.3}"#,
      "warmSplit hue must be between -180 and 180 degrees, not 200.0"
    ),
    (
      #""warmSplit": {"hue": 10, "lower": 335, "upper": 65, "saturationFloor": 0.1, "valueFloor": 1.5}"#,
      "warmSplit saturationFloor and valueFloor must be in 0..<1"
    ),
    (
      #""faintLamp": {"color": "unknown", "lower": 90, "upper": 200, "saturationFloor": 0.06, "valueFloor": 0.35, "points": 3}"#,
      "faintLamp color must be red, yellow or green"
    ),
    (
      #""faintLamp": {"color": "green", "lower": 90, "upper": 200, "saturationFloor": 0.06, "valueFloor": 0.35, "points": 0}"#,
      "faintLamp points must be between 1 and 1000, not 0"
    ),
    (
      #""faintLamp": {"color": "red", "lower": 335, "upper": 5, "saturationFloor": 0.06, "valueFloor": 0.35, "points": 3, "redVeto": {"lower": 335, "upper": 5}}"#,
      "faintLamp redVeto cannot keep a red faint lamp off"
    ),
    (
      #""faintLamp": {"color": "green", "lower": 90, "upper": 200, "saturationFloor": 0.06, "valueFloor": 0.35, "points": 3, "redVeto": {"lower": 335, "upper": 400}}"#,
      "faintLamp redVeto lower and upper must be in 0...360 degrees, not 400.0"
    ),
    (
      #""faintLamp": {"color": "green", "lower": 90, "upper": 200, "saturationFloor": 0.06, "valueFloor": 0.35, "points": 3, "redVeto": {"lower": 335, "upper": 5, "saturationFloor": 1}}"#,
      "faintLamp redVeto saturationFloor must be in 0..<1, not 1.0"
    ),
  ]

  @Test(arguments: badSamplerRules)
  func profile_badWarmSplitOrFaintLamp_isReported(rule: String, reason: String) {
    let json = """
      {\(rule),
       "thresholds": {"saturationFloor": 0.5, "green": {"lower": 100, "upper": 200},
       "yellow": {"lower": 5, "upper": 60}, "red": {"lower": 340, "upper": 5}}}
      """
    #expect(throws: ProfileError.invalid(path: "p.json", reason: reason)) {
      try Profile.decode(Data(json.utf8), path: "p.json")
    }
  }

  @Test func profile_missingKeysTakeTheSeedValues() throws {
    let json = """
      {"thresholds": {"saturationFloor": 0.5, "green": {"lower": 100, "upper": 200},
       "yellow": {"lower": 5, "upper": 60}, "red": {"lower": 340, "upper": 5}}}
      """
    let profile = try Profile.decode(Data(json.utf8), path: "p.json")
    #expect(profile.sigma == 2 && profile.sampler.points == 7 && profile.thresholds.valueFloor == 0)
    #expect(profile.thresholds.saturationFloor == 0.5)
  }

  @Test func profile_errors_sayWhatIsWrong() {
    #expect(throws: ProfileError.notFound("no-such-profile")) { try Profile.named("no-such-profile") }
    #expect(throws: ProfileError.invalid(path: "p.json", reason: "not valid JSON")) {
      try Profile.decode(Data("{".utf8), path: "p.json")
    }
    #expect(throws: ProfileError.invalid(path: "p.json", reason: "missing key 'thresholds' in the top level"))
    {
      try Profile.decode(Data("{}".utf8), path: "p.json")
    }
    let badSigma = """
      {"sigma": -1, "thresholds": {"saturationFloor": 0.5, "green": {"lower": 100, "upper": 200},
       "yellow": {"lower": 5, "upper": 60}, "red": {"lower": 340, "upper": 5}}}
      """
    #expect(throws: ProfileError.invalid(path: "p.json", reason: "sigma must be between 0 and 50, not -1.0"))
    {
      try Profile.decode(Data(badSigma.utf8), path: "p.json")
    }
    // Impossible sampler values are reported, not trapped on.
    let noPoints = badSigma.replacingOccurrences(
      of: #""sigma": -1"#, with: #""points": 0, "lampOrder": ["red"]"#)
    #expect(throws: ProfileError.invalid(path: "p.json", reason: "points must be between 1 and 1000, not 0"))
    {
      try Profile.decode(Data(noPoints.utf8), path: "p.json")
    }
  }
}

@Suite struct InputCollectorTests {
  @Test func naturalOrder_numbersCompareAsNumbers() {
    let names = ["frame_10.jpg", "frame_2.jpg", "frame_1.jpg", "real_100_2.jpg", "real_20_0.jpg", "a.jpg"]
    #expect(
      NaturalOrder.sorted(names) == [
        "a.jpg", "frame_1.jpg", "frame_2.jpg", "frame_10.jpg", "real_20_0.jpg", "real_100_2.jpg",
      ])
    #expect(NaturalOrder.precedes("x007", "x8"))
    #expect(NaturalOrder.precedes("x7", "x007"))  // equal numbers: fewer zeros first
    #expect(!NaturalOrder.precedes("x8", "x8"))
  }

  @Test func collect_folder_walksInNaturalOrder_andSkipsOtherFiles() throws {
    let folder = try temporaryFolder()
    let files = FileManager.default
    for name in ["frame_10.jpg", "frame_2.PNG", "frame_1.jpeg", "notes.txt", ".hidden.jpg"] {
      _ = files.createFile(atPath: folder + "/" + name, contents: Data())
    }
    try files.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
    _ = files.createFile(atPath: folder + "/sub/frame_3.jpg", contents: Data())
    // A symbolic link back to the top: the walk must end.
    try files.createSymbolicLink(atPath: folder + "/sub/loop", withDestinationPath: folder)
    let items = InputCollector.collect([folder])
    #expect(
      items == [
        .skipped(path: folder + "/.hidden.jpg", reason: "hidden"),
        .image(path: folder + "/frame_1.jpeg"),
        .image(path: folder + "/frame_2.PNG"),
        .image(path: folder + "/frame_10.jpg"),
        .skipped(path: folder + "/notes.txt", reason: "not named like an image (.jpg, .jpeg, .png)"),
        .image(path: folder + "/sub/frame_3.jpg"),
        .skipped(path: folder + "/sub/loop", reason: "folder already visited (symbolic link loop?)"),
      ])
  }

  @Test func collect_folderWithNoImage_isReportedOnce_afterWhatItSkipped() throws {
    let files = FileManager.default
    let empty = try temporaryFolder()
    _ = files.createFile(atPath: empty + "/notes.txt", contents: Data())
    try files.createDirectory(atPath: empty + "/sub", withIntermediateDirectories: false)
    _ = files.createFile(atPath: empty + "/sub/frame.bmp", contents: Data())
    let full = try temporaryFolder()
    try files.createDirectory(atPath: full + "/sub", withIntermediateDirectories: false)
    _ = files.createFile(atPath: full + "/sub/frame.jpg", contents: Data())
    // The empty folder again by another name: entered once, reported once.
    try files.createSymbolicLink(atPath: full + "/again", withDestinationPath: empty)
    let items = InputCollector.collect([empty, full, full + "/again"])
    #expect(
      items == [
        .skipped(path: empty + "/notes.txt", reason: "not named like an image (.jpg, .jpeg, .png)"),
        .skipped(path: empty + "/sub/frame.bmp", reason: "not named like an image (.jpg, .jpeg, .png)"),
        .emptyFolder(path: empty),
        .skipped(path: full + "/again", reason: "folder already visited (symbolic link loop?)"),
        .image(path: full + "/sub/frame.jpg"),
        .skipped(path: full + "/again", reason: "folder already visited (symbolic link loop?)"),
      ])
    // Not walking subfolders, the second folder has no image either.
    #expect(InputCollector.collect([full], recursive: false).last == .emptyFolder(path: full))
  }

  @Test func collect_filePaths_areTakenAsGiven() {
    #expect(
      InputCollector.collect(["b.txt", "/nonexistent/a.jpg"]) == [
        .image(path: "b.txt"), .image(path: "/nonexistent/a.jpg"),
      ])
  }
}

@Suite struct SparsePathTests {
  /// SampleFrames, and the shared datasets when they sit beside the repository (CI sets
  /// REQUIRE_SHARED_DATASETS=1 so that their absence fails instead of shrinking the test).
  static func images() -> [String] {
    var folders = [TestPaths.sampleFrames]
    let shared = TestPaths.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets")
      .path
    if FileManager.default.fileExists(atPath: shared) {
      folders.append(shared)
    } else if ProcessInfo.processInfo.environment["REQUIRE_SHARED_DATASETS"] != nil {
      Issue.record("REQUIRE_SHARED_DATASETS is set but \(shared) is missing")
    }
    return InputCollector.collect(folders).compactMap { item in
      if case .image(let path) = item { path } else { nil }
    }
  }

  @Test(arguments: [Profile.seed, Profile.default])
  func sparseAndFullPaths_decideAlike_onEveryImage(profile: Profile) throws {
    let sparse = FramePipeline(profile: profile)
    var full = sparse
    full.usesFullFrame = true
    let images = Self.images()
    #expect(images.count >= 24)
    for path in images {
      let image = try sparse.decoder.decode(fileAt: path)
      let a = sparse.classify(image)
      let b = full.classify(image)
      #expect(a.decision == b.decision, "\(path)")
    }
  }
}

@Suite struct VanishingInputTests {
  @Test func fileDeletedBetweenListingAndReading_isAnErrorNamingIt() throws {
    let folder = try temporaryFolder()
    try writePNG(syntheticLight(lit: .red), to: folder + "/a.png")
    try writePNG(syntheticLight(lit: .green), to: folder + "/b.png")
    let items = InputCollector.collect([folder])
    #expect(items.count == 2)
    try FileManager.default.removeItem(atPath: folder + "/b.png")
    let reader = ImageReader(pipeline: FramePipeline(profile: .seed))
    let readings = items.compactMap { item -> ImageReading? in
      if case .image(let path) = item { reader.read(path) } else { nil }
    }
    #expect(readings[0].frameColor == .red)
    #expect(
      readings[1].outcome
        == .failure(.decode(.unreadable(path: folder + "/b.png", reason: "No such file or directory"))))
  }
}
