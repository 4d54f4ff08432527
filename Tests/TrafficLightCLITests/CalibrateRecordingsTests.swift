import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightTestSupport

/// `calibrate` on labelled recordings: the frame finder's housing search fitted to a camera
/// from each frame's state alone, written into the profile that `sequence` then reads with.
@Suite struct CalibrateRecordingsTests {
  static let states: [SignalColor] = [
    .red, .red, .green, .green, .green, .yellow, .red, .unknown, .green, .red,
  ]

  /// A recording of car-park-like frames (`carParkScene`): a blown-out housing that moves
  /// and changes size, lit as `states` say (none on dark frames).
  static func recording(seed: UInt64, count: Int = 20) throws -> String {
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
    var rows = ["index,file,state"]
    var state = seed
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    for k in 0..<count {
      let truth = states[k % states.count]
      let housing = truth == .unknown ? nil : blownOutHousing(lit: truth, diameter: 10 + next() % 8)
      let frame = carParkScene(
        housing: housing, x: 50 + next() % 90, y: 5 + next() % 30, seed: seed &+ UInt64(k))
      try writePNG(frame, to: folder + "/frames/f\(k).png")
      rows.append("\(k),f\(k).png,\(truth.rawValue)")
    }
    try (rows.joined(separator: "\n") + "\n").write(
      toFile: folder + "/labels.csv", atomically: true, encoding: .utf8)
    return folder
  }

  /// `default` with a housing search of few windows a frame, so the fit is quick unoptimised.
  static func start(in folder: String) throws -> String {
    var profile = Profile.default
    var locator = try #require(profile.locator as? LitLampRegion)
    var geometry = HousingSearch(
      bias: 0, weights: [Double](repeating: 0, count: HousingSearch.names.count), minimumConfidence: 0.6)
    geometry.kept = 40
    locator.finder.housings = geometry
    profile.locator = locator
    let path = folder + "/start.json"
    try profile.json().write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func calibrate_fitsTheHousingSearch_andSequenceReadsTheCameraWithIt() throws {
    let (a, b) = (try Self.recording(seed: 10), try Self.recording(seed: 20))
    let out = try temporaryFolder()
    let start = try Self.start(in: out)
    // Three housing fits: minutes under AddressSanitizer on a slow shared machine, so a
    // longer limit than the runner's two minutes.
    let run = try traffic(
      ["calibrate", "--from", start, "--split", "folders", a, b, "-o", out + "/camera.json"], timeout: 600)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Each recording read by a fit to the others:\n\(a): profile camera without "))
    #expect(run.stdout.contains("The fit on every recording, read on them (the frames it was fitted to):"))
    #expect(run.stdout.contains("Wrote \(out)/camera.json"))
    let profile = try Profile.named(out + "/camera.json")
    let housings = try #require((profile.locator as? LitLampRegion)?.finder.housings)
    #expect(housings.kept == 40 && housings.minimumConfidence == 0.6)
    #expect(housings.weights != [Double](repeating: 0, count: HousingSearch.names.count))
    // The default profile reads none of these lamps; the camera's profile reads them.
    let recording = try Self.recording(seed: 30)
    for (name, least) in [("default", 0), (out + "/camera.json", 15)] {
      // These frames are small: --find-lights searches them as frames, as larger ones are.
      let sequence = try traffic(
        "sequence", "--find-lights", "--profile", name, "--format", "jsonl", recording + "/frames")
      #expect(sequence.status == 0, "\(sequence.stderr)")
      var (right, redGreen) = (0, 0)
      for (k, line) in sequence.stdout.split(separator: "\n").enumerated() {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let (truth, read) = (Self.states[k % Self.states.count].rawValue, object["color"] as? String)
        if truth != "unknown" && read == truth { right += 1 }
        if truth == "red" && read == "green" { redGreen += 1 }
      }
      #expect(right >= least && redGreen == 0, "\(name): \(right) of 18 lit frames right")
      if name == "default" { #expect(right <= 2) }
    }
  }

  @Test func calibrate_onRecordings_refusesWhatItCannotFit() throws {
    let recording = try Self.recording(seed: 40, count: 4)
    let crops = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: crops + "/red", withIntermediateDirectories: true)
    try writePNG(syntheticLight(lit: .red), to: crops + "/red/a.png")
    let out = try temporaryFolder() + "/p.json"
    let mixed = try traffic("calibrate", recording, crops, "-o", out)
    #expect(mixed.status == 64 && mixed.stderr.contains("not both at once"))
    let folds = try traffic("calibrate", "--folds", "2", recording, "-o", out)
    #expect(folds.status == 64 && folds.stderr.contains("use --split folders, not --folds"))
    let seed = try traffic("calibrate", "--from", "seed", recording, "-o", out)
    #expect(seed.status == 64 && seed.stderr.contains("whose locator finds lamps"), "\(seed.stderr)")
    let alone = try traffic("calibrate", "--split", "folders", recording, "-o", out)
    #expect(alone.status == 64)
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
