import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightStudy
import TrafficLightTestSupport

/// A region's busyness, and the bound `default` puts on colours named where no lit lamp
/// placed the light (`Profile.maximumBusyness`).
@Suite struct BusynessTests {
  /// A `width` x `height` image of one-pixel checks, green `on` and `off` by turns.
  func checks(width: Int, height: Int, on: UInt8, off: UInt8) -> RGBImage {
    var bytes: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width { bytes += [0, (x + y) % 2 == 0 ? on : off, 0] }
    }
    return RGBImage(width: width, height: height, bytes: bytes)
  }

  /// The measure as its comment states it, in doubles, pixel by pixel.
  func referenceBusyness(_ image: RGBImage, _ region: PixelRegion) -> Double {
    guard let area = region.clipped(toWidth: image.width, height: image.height), area.width >= 3,
      area.height >= 3
    else { return 0 }
    let bytes = image.read { Array($0) }
    func v(_ x: Int, _ y: Int) -> Double {
      let i = ((area.y + y) * image.width + area.x + x) * 3
      return Double(max(bytes[i], bytes[i + 1], bytes[i + 2]))
    }
    var (laplacian, interior, total) = (0.0, 0.0, 0.0)
    for y in 0..<area.height {
      for x in 0..<area.width {
        total += v(x, y)
        guard x > 0, y > 0, x < area.width - 1, y < area.height - 1 else { continue }
        laplacian += abs(4 * v(x, y) - v(x - 1, y) - v(x + 1, y) - v(x, y - 1) - v(x, y + 1))
        interior += 1
      }
    }
    return (laplacian / interior) / max(total / Double(area.width * area.height), 0.05 * 255)
  }

  @Test func busyness_isTheReference_onRandomImagesAndRegions() {
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<40 {
      let (width, height) = (Int(generator.next() % 40) + 1, Int(generator.next() % 40) + 1)
      let bytes = (0..<(3 * width * height)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      let image = RGBImage(width: width, height: height, bytes: bytes)
      let region = PixelRegion(
        x: Int(generator.next() % 50) - 5, y: Int(generator.next() % 50) - 5,
        width: Int(generator.next() % 50), height: Int(generator.next() % 50))
      let (fast, plain) = (image.busyness(in: region), referenceBusyness(image, region))
      #expect(abs(fast - plain) < 1e-9, "\(width)x\(height) \(region): \(fast) against \(plain)")
    }
  }

  @Test func busyness_ofFlatAndRampedRegions_isZero_ofACheckerboard_eight() {
    let flat = RGBImage(width: 20, height: 30, fill: (40, 200, 90))
    let whole = PixelRegion(x: 0, y: 0, width: 20, height: 30)
    #expect(flat.busyness(in: whole) == 0)
    // A linear ramp has no second difference: a sky brightening down the crop is not busy.
    let ramp = RGBImage(
      width: 20, height: 30, bytes: (0..<600).flatMap { (i: Int) -> [UInt8] in [UInt8(4 * (i / 20)), 0, 0] })
    #expect(ramp.busyness(in: whole) == 0)
    // 0 and 200 alternating: every inner pixel differs from its four neighbours by 800 in
    // all, and the mean value is 100.
    let checkers = checks(width: 20, height: 30, on: 200, off: 0)
    #expect(checkers.busyness(in: whole) == 8)
    // Narrower than 3 pixels: nothing inside to measure.
    #expect(checkers.busyness(in: PixelRegion(x: 0, y: 0, width: 2, height: 30)) == 0)
    // A dark region's mean counts as at least 5% of full scale.
    let speck = RGBImage(
      width: 3, height: 3, bytes: (0..<9).flatMap { (i: Int) -> [UInt8] in [i == 4 ? 51 : 0, 0, 0] })
    #expect(abs(speck.busyness(in: PixelRegion(x: 0, y: 0, width: 3, height: 3)) - 204 / 12.75) < 1e-12)
  }

  @Test func inRegion_turnsAColourUnknown_onlyAboveTheBound() {
    let decision = { (color: SignalColor) in
      LightDecision(samples: [], counts: ColorCounts(), color: color, decidedBy: "vote", confidence: 0.5)
    }
    let busy = decision(.green).inRegion(ofBusyness: 0.6, atMost: 0.55)
    #expect(busy.color == .unknown && busy.decidedBy == LightDecision.busyRegion && busy.confidence == 0)
    #expect(decision(.red).inRegion(ofBusyness: 0.55, atMost: 0.55) == decision(.red))
    #expect(decision(.unknown).inRegion(ofBusyness: 9, atMost: 0.55) == decision(.unknown))
  }

  /// The bound asks for the busyness only where it can change the answer: a colour named
  /// with no lit lamp behind it.
  @Test func profileDecide_measuresTheRegion_onlyForAColourNamedWithoutALamp() {
    var profile = Profile(name: "green", thresholds: .seed, decider: GreenAlways())
    profile.maximumBusyness = 0.55
    let grid = SampleGrid()
    var measured = 0
    func busyness(_ value: Double) -> Double {
      measured += 1
      return value
    }
    let busy = profile.decide([], on: grid, busyness: busyness(0.6))
    #expect(busy.color == .unknown && busy.decidedBy == LightDecision.busyRegion && measured == 1)
    #expect(profile.decide([], on: grid, busyness: busyness(0.5)).color == .green && measured == 2)
    #expect(profile.decide([], on: grid, placedFrom: .green, busyness: busyness(0.6)).color == .green)
    #expect(measured == 2)
    profile.maximumBusyness = nil
    #expect(profile.decide([], on: grid, busyness: busyness(9)).color == .green && measured == 2)
  }

  /// Green and black checks as fine as foliage: the points read green all over, and no lamp
  /// is found in them. Read whole, they are named only without the bound.
  @Test func aBusyRegionWithoutALamp_isReadUnknown_inThePipelineAndTheCalibrator() throws {
    let foliage = checks(width: 30, height: 80, on: 220, off: 20)
    var unbounded = Profile.default
    unbounded.maximumBusyness = nil
    let plain = FramePipeline(profile: unbounded).classify(foliage)
    #expect(plain.light?.lampColor == nil && plain.color == .green)
    for keepingMap in [false, true] {
      let bounded = FramePipeline(profile: .default).classify(foliage, keepingMap: keepingMap)
      #expect(bounded.color == .unknown && bounded.decision.decidedBy == LightDecision.busyRegion)
    }

    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/green", withIntermediateDirectories: true)
    try writePNG(foliage, to: folder + "/green/foliage.png")
    let calibrator = Calibrator(start: .default)
    let set = calibrator.prepare(try LabelledSet.load(folder), name: "f")
    #expect(calibrator.confusion(.default, on: set).count(truth: .green, read: .unknown) == 1)
    #expect(calibrator.confusion(unbounded, on: set).correct == 1)
  }

  @Test func maximumBusyness_roundTripsInJSON_andIsChecked() throws {
    #expect(Profile.default.maximumBusyness == 0.55 && Profile.seed.maximumBusyness == nil)
    let decoded = try Profile.decode(Profile.default.json(), path: "default.json")
    #expect(decoded == .default)
    var json = try JSONSerialization.jsonObject(with: Profile.seed.json()) as! [String: Any]
    #expect(json["maximumBusyness"] == nil)
    json["maximumBusyness"] = -1
    #expect(throws: ProfileError.self) {
      try Profile.decode(try JSONSerialization.data(withJSONObject: json), path: "p.json")
    }
    json["maximumBusyness"] = 0.3
    let bounded = try Profile.decode(try JSONSerialization.data(withJSONObject: json), path: "p.json")
    #expect(bounded.maximumBusyness == 0.3 && bounded != .seed)
  }
}
