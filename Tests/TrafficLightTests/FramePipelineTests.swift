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
      let result = seed.classify(try ImageDecoder().decode(fileAt: path))
      #expect(result.decision.samples.count == 7, "\(path)")
      if path.contains("/stills/green/") { #expect(result.color != .red, "\(path)") }
    }
  }

  @Test func reader_missingFile_isADecodeErrorNamingIt() {
    let reading = ImageReader(pipeline: seed).read("/nonexistent.jpg")
    guard case .failure(.decode(let error)) = reading.outcome else {
      Issue.record("a missing file was read")
      return
    }
    #expect(error.path == "/nonexistent.jpg")
  }

  /// A reading of a synthetic light, as the reader gives it for a file.
  func reading(_ color: SignalColor, name: String = "frame.png") -> ImageReading {
    ImageReading(
      path: name,
      outcome: .success([RegionReading(box: nil, result: seed.classify(syntheticLight(lit: color)))]))
  }

  @Test func sequence_feedsFramesThroughTheVote_andNamesTheChanges() {
    var sequence = SequenceClassifier(window: 3)
    let frames: [SignalColor] = [.red, .red, .green, .green, .green]
    let steps = frames.flatMap { sequence.feed(reading($0)) }
    #expect(steps.map(\.frame) == [0, 1, 2, 3, 4])
    #expect(steps.map(\.color) == frames)
    #expect(steps.map(\.smoothed) == [.red, .red, .red, .green, .green])
    #expect(
      steps.compactMap(\.change).map { [$0.frame, $0.from, $0.to] as [AnyHashable] } == [
        [0, SignalColor.unknown, SignalColor.red], [3, SignalColor.red, SignalColor.green],
      ])
    #expect(
      steps.compactMap(\.change).map { [$0.frame, $0.from, $0.to] as [AnyHashable] }
        == StateChange.changes(in: steps.map(\.smoothed)).map { [$0.frame, $0.from, $0.to] as [AnyHashable] })
    // The vote's confidence is the colour's share of the window.
    #expect(steps.compactMap(\.change).map(\.confidence) == [1, 2.0 / 3])
  }

  /// A colour shown on 2 or more frames in a row that the vote never took is reported when
  /// its run ends (or the stream does); a one-frame flicker, and a state the vote took, are not.
  @Test func sequence_reportsStatesTheVoteKeptOut() {
    var sequence = SequenceClassifier(window: 10)
    let frames: [SignalColor] = [
      .green, .green, .green, .yellow, .yellow, .red, .red, .red, .red, .red, .red, .green,
    ]
    let steps = frames.enumerated().flatMap { index, color in
      sequence.feed(reading(color, name: "f\(index).png"))
    }
    #expect(steps.map(\.smoothed).contains(.yellow) == false)
    #expect(
      steps.compactMap(\.suppressed) == [SuppressedState(color: .yellow, frames: 3...4, path: "f3.png")])
    #expect(steps[5].suppressed != nil)  // reported on the frame that ended the run
    #expect(sequence.finish().suppressed == nil)  // the last green is one frame: flicker
    var trailing = SequenceClassifier(window: 10)
    for color in [SignalColor.red, .red, .red, .red, .green, .green] { _ = trailing.feed(reading(color)) }
    #expect(trailing.finish().suppressed?.frames == 4...5)
  }

  @Test func sequence_unreadableFrame_votesUnknown() throws {
    var sequence = SequenceClassifier()
    _ = sequence.feed(reading(.green))
    let steps = sequence.feed(fileAt: "/nonexistent/frame.jpg", with: ImageReader(pipeline: seed))
    try #require(steps.count == 1)
    let step = steps[0]
    #expect(step.color == .unknown)
    #expect(step.smoothed == .green)
    #expect(step.change == nil)
    guard case .failure(.decode(let error)) = step.reading.outcome else {
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
    #expect(Profile.seed.sigma == 2 && Profile.seed.grid == SampleGrid())
    #expect(
      Profile.seed.decider.isEqual(to: CascadeDecider()) && Profile.seed.locator.isEqual(to: WholeRegion()))
  }

  @Test func profile_jsonFile_roundTrips() throws {
    var custom = Profile.seed
    custom.name = "night"
    custom.sigma = 1.5
    custom.grid.orientation = .horizontal
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
    let cascade = try #require(decoded.decider as? CascadeDecider)
    #expect(
      cascade.rules.map { type(of: $0).kind } == [
        "warmSplit", "warmPlace", "faintLamp", "brightnessFallback", "redVetoesGreen",
      ])
    let seedJSON = String(decoding: Profile.seed.json(), as: UTF8.self)
    #expect(
      !seedJSON.contains("warmSplit") && !seedJSON.contains("faintLamp") && seedJSON.contains("cascade"))
  }

  static let thresholdsJSON = """
    "thresholds": {"saturationFloor": 0.5, "green": {"lower": 100, "upper": 200},
     "yellow": {"lower": 5, "upper": 60}, "red": {"lower": 340, "upper": 5}}
    """

  @Test func profile_deciderWithRuleList_isReadInItsOrder_andTheFlatFormMeansTheSame() throws {
    let listed = try Profile.decode(
      Data(
        """
        {"decider": {"kind": "cascade", "positionWeight": 2, "rules": [
           {"kind": "brightnessFallback", "margin": 0.1, "floor": 0.5},
           {"kind": "warmSplit", "hue": 10, "lower": 335, "upper": 65, "saturationFloor": 0.1, "valueFloor": 0.3}]},
         \(Self.thresholdsJSON)}
        """.utf8), path: "p.json")
    let cascade = try #require(listed.decider as? CascadeDecider)
    #expect(cascade.positionWeight == 2)
    #expect(cascade.rules.map { type(of: $0).kind } == ["brightnessFallback", "warmSplit"])
    #expect(try Profile.decode(listed.json(), path: "again.json") == listed)
    let flat = try Profile.decode(
      Data(
        """
        {"positionWeight": 2, "brightnessFallback": {"margin": 0.1, "floor": 0.5}, \(Self.thresholdsJSON)}
        """.utf8), path: "flat.json")
    let flatCascade = try #require(flat.decider as? CascadeDecider)
    #expect(flatCascade.rule(BrightnessFallback.self) == BrightnessFallback(margin: 0.1, floor: 0.5))
    #expect(flatCascade.rule(WarmSplit.self) == nil)
  }

  @Test func profile_unknownKinds_andBothForms_areRefusedNamingTheProblem() {
    let cases = [
      (#"{"decider": {"kind": "oracle"}, "# + Self.thresholdsJSON + "}", "unknown kind 'oracle'"),
      (
        #"{"decider": {"kind": "cascade", "rules": [{"kind": "guess"}]}, "# + Self.thresholdsJSON + "}",
        "unknown kind 'guess'"
      ),
      (#"{"locator": {"kind": "radar"}, "# + Self.thresholdsJSON + "}", "unknown kind 'radar'"),
      (
        #"{"decider": {"kind": "cascade"}, "positionWeight": 2, "# + Self.thresholdsJSON + "}",
        "beside a 'decider'"
      ),
    ]
    for (json, reason) in cases {
      #expect {
        try Profile.decode(Data(json.utf8), path: "p.json")
      } throws: { error in
        guard case .invalid(path: "p.json", let said) = error as? ProfileError else { return false }
        return said.contains(reason)
      }
    }
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
    #expect(profile.sigma == 2 && profile.grid.points == 7 && profile.thresholds.valueFloor == 0)
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
    // Items sorted by their names: equal names keep the order given.
    let items = [("b2", 0), ("a", 1), ("b10", 2), ("a", 3)]
    #expect(NaturalOrder.sorted(items, by: \.0).map(\.1) == [1, 3, 0, 2])
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
        .skipped(
          path: folder + "/sub/loop", reason: "folder already read (named earlier, or a symbolic link loop)"),
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
        .skipped(
          path: full + "/again", reason: "folder already read (named earlier, or a symbolic link loop)"),
        .image(path: full + "/sub/frame.jpg"),
        .skipped(path: full + "/again", reason: "named twice, or inside a folder named before: read once"),
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
  /// Crops take the path that blurs the sampled rows only: it decides as the full blur does,
  /// on synthetic lights of each colour and size and on every image in SampleFrames.
  @Test(arguments: [Profile.seed, Profile.default])
  func rowsAndFullPaths_decideAlike_onCrops(profile: Profile) throws {
    let rows = FramePipeline(profile: profile)
    var full = rows
    full.usesFullFrame = true
    var crops = [SignalColor.red, .yellow, .green].flatMap { color in
      [(30, 80), (40, 90), (64, 160)].map { syntheticLight(lit: color, width: $0.0, height: $0.1) }
    }
    let samples = InputCollector.collect([TestPaths.sampleFrames]).compactMap { item in
      if case .image(let path) = item { path } else { nil }
    }
    #expect(samples.count >= 20)
    crops += try samples.map { try ImageDecoder().decode(fileAt: $0).pixels }
    for (k, crop) in crops.enumerated() {
      let light = try #require(rows.locate(in: crop)).light
      let grid = profile.grid.turned(light.orientation)
      let sampled = grid.rows(width: light.box.width, height: light.box.height).count
      #expect(!rows.sparsePathIsCheaper(for: light.box, grid: grid, rows: sampled), "crop \(k)")
      #expect(rows.classify(crop) == full.classify(crop), "crop \(k)")
    }
  }

  /// A whole street-sized frame with a light in it: wide enough that the pipeline blurs its
  /// sampled pixels only.
  static func frame() -> RGBImage {
    var frame = RGBImage(width: 1600, height: 480, fill: (90, 120, 170))
    for y in 0..<480 {
      for x in 0..<1600 where (x * 7 + y * 13) % 11 < 3 {
        frame[x, y] = (UInt8(60 + x % 90), 80, UInt8(120 + y % 100))
      }
    }
    paste(syntheticLight(lit: .red, width: 60, height: 180), into: &frame, x: 300, y: 100)
    return frame
  }

  /// The frame takes the sampled pixels, its regions the sampled pixels or rows (as their
  /// widths make cheaper): each decides as the full blur does.
  @Test(arguments: [Profile.seed, Profile.default])
  func sparseAndFullPaths_decideAlike_onALargeFrame_andItsRegions(profile: Profile) {
    let sparse = FramePipeline(profile: profile)
    var full = sparse
    full.usesFullFrame = true
    let frame = Self.frame()
    let whole = PixelRegion(x: 0, y: 0, width: 1600, height: 480)
    let rows = profile.grid.rows(width: whole.width, height: whole.height).count
    #expect(sparse.sparsePathIsCheaper(for: whole, grid: profile.grid, rows: rows))
    let regions: [PixelRegion?] = [
      nil, PixelRegion(x: 280, y: 80, width: 100, height: 220),
      PixelRegion(x: 0, y: 0, width: 400, height: 300),
      PixelRegion(x: 1520, y: 360, width: 100, height: 200),
    ]
    for region in regions {
      let a = sparse.classify(frame, region: region)
      let b = full.classify(frame, region: region)
      #expect(a.decision == b.decision, "\(String(describing: region))")
      #expect(a.region == b.region)
    }
  }

  @Test(
    .enabled(if: TestPaths.sharedFrames != nil, "needs ../shared/frames beside the repository"),
    arguments: [Profile.seed, Profile.default])
  func sparseAndFullPaths_decideAlike_onSharedFrames(profile: Profile) throws {
    let sparse = FramePipeline(profile: profile)
    var full = sparse
    full.usesFullFrame = true
    var read = 0
    for folder in ["sim", "cinta"] {
      let images = InputCollector.collect([TestPaths.sharedFrames! + "/" + folder]).compactMap { item in
        if case .image(let path) = item { path } else { nil }
      }
      // Every fortieth frame: the paths are the same on each, and a debug full blur is slow.
      for path in images.enumerated().filter({ $0.offset % 40 == 0 }).map(\.element) {
        let image = try ImageDecoder().decode(fileAt: path).pixels
        #expect(sparse.classify(image).decision == full.classify(image).decision, "\(path)")
        read += 1
      }
    }
    #expect(read >= 12)
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
