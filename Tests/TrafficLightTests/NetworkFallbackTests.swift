import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight

/// `fitted` with a readout that names `color` whatever the light, `sure` probable (every
/// weight 0, the class's bias above the other three's 0 by log(3 sure / (1 - sure)); nil:
/// 10, near certain).
func readerNaming(_ color: SignalColor, sure: Double? = nil) -> Profile {
  var reader = Profile.fitted
  var decider = reader.decider as! LightNetworkDecider
  let classes = decider.network.classes
  let features = decider.network.featureCount
  let lead = sure.map { Float(log(3 * $0 / (1 - $0))) } ?? 10
  decider.network.readout = LightNetwork.Readout(
    weights: classes.map { _ in [Float](repeating: 0, count: features) },
    bias: classes.map { $0 == color ? lead : 0 })
  reader.decider = decider
  return reader
}

/// A grey image of 20x40 (800 pixels) with `lit` pixels of `color` in its top rows.
func greyImage(with lit: Int, of color: (UInt8, UInt8, UInt8)) -> RGBImage {
  var image = RGBImage(width: 20, height: 40)
  for y in 0..<40 {
    for x in 0..<20 { image[x, y] = y * 20 + x < lit ? color : (90, 90, 90) }
  }
  return image
}

@Suite struct NetworkFallbackTests {
  let fallback = NetworkFallback(leastShare: 0.002)
  let classifier = HSVClassifier(thresholds: Profile.default.thresholds)
  let unknown = LightDecision(samples: [], counts: ColorCounts(), color: .unknown)

  /// In place of no colour, the network's green stands only where at least `leastShare` of
  /// the region's pixels are green as the profile's thresholds class them (0.002 of 800
  /// pixels: 1.6); its red and yellow stand whatever the pixels show (`readsBelow` 0: any
  /// sureness is enough).
  @Test func theNetworksGreen_standsOnlyWhereTheRegionShowsIt_redAndYellowOnTheirOwn() {
    let green = readerNaming(.green)
    func read(_ image: RGBImage, after first: LightDecision? = nil, by reader: Profile) -> LightDecision {
      fallback.decide(after: first ?? unknown, region: image, reader: reader, classifier: classifier)
    }
    let twoGreen = read(greyImage(with: 2, of: (0, 200, 0)), by: green)
    #expect(twoGreen.color == .green)
    #expect(twoGreen.decidedBy == LightNetworkDecider.decidedBy)
    #expect(read(greyImage(with: 1, of: (0, 200, 0)), by: green).color == .unknown)
    #expect(read(greyImage(with: 0, of: (0, 200, 0)), by: green).color == .unknown)
    // Green pixels too dull for the thresholds' saturation floor are not green.
    #expect(read(greyImage(with: 40, of: (80, 100, 80)), by: green).color == .unknown)
    // Red pixels do not let the network name green.
    #expect(read(greyImage(with: 40, of: (220, 20, 20)), by: green).color == .unknown)
    // Red and yellow fill a reading of no colour on the network's word: no pixels of theirs
    // are asked for (a dim lamp shows none), and neither is a red read as green.
    for color in [SignalColor.red, .yellow] {
      for image in [greyImage(with: 0, of: (0, 0, 0)), greyImage(with: 40, of: (0, 200, 0))] {
        let filled = read(image, by: readerNaming(color))
        #expect(filled.color == color)
        #expect(filled.decidedBy == LightNetworkDecider.decidedBy)
      }
    }
    // A colour the first reading named stands; the network is not asked.
    let red = LightDecision(samples: [], counts: ColorCounts(), color: .red)
    #expect(read(greyImage(with: 40, of: (0, 200, 0)), after: red, by: green) == red)
    // The network sure of no colour leaves the first reading's unknown.
    #expect(read(greyImage(with: 40, of: (0, 200, 0)), by: readerNaming(.unknown)) == unknown)
  }

  /// With `readsBelow`, the network also reads where the first reading names a colour less
  /// sure than that: its other colour, shown in the region, stands in place of the first's;
  /// green against a first red is `unknown`, and green never undoes red evidence's `unknown`;
  /// a reading that sure or surer is not asked.
  @Test func anUnsureReading_givesWayToTheNetworksColourShown() {
    let fallback = NetworkFallback(leastShare: 0.002, readsBelow: 0.7)
    func first(_ color: SignalColor, _ confidence: Double) -> LightDecision {
      LightDecision(
        samples: [], counts: ColorCounts(), color: color, decidedBy: "faintLamp", confidence: confidence)
    }
    func read(_ decision: LightDecision, by reader: Profile, lit: Int = 40) -> LightDecision {
      fallback.decide(
        after: decision, region: greyImage(with: lit, of: (0, 200, 0)), reader: reader, classifier: classifier
      )
    }
    let green = readerNaming(.green)
    let replaced = read(first(.yellow, 0.5), by: green)
    #expect(replaced.color == .green)
    #expect(replaced.decidedBy == LightNetworkDecider.decidedBy)
    // As sure as `readsBelow`, or surer: the first reading stands.
    #expect(read(first(.yellow, 0.7), by: green) == first(.yellow, 0.7))
    #expect(read(first(.yellow, 0.95), by: green) == first(.yellow, 0.95))
    // Not shown in the region, or the same colour, or no colour: the first reading stands.
    // In place of a colour named, red and yellow too need pixels of theirs.
    #expect(read(first(.yellow, 0.5), by: green, lit: 1) == first(.yellow, 0.5))
    #expect(read(first(.yellow, 0.5), by: readerNaming(.red)) == first(.yellow, 0.5))
    #expect(read(first(.red, 0.5), by: readerNaming(.yellow)) == first(.red, 0.5))
    // In place of no colour, red and yellow need no pixels where the network is at least
    // `readsBelow` sure; less sure, they need them as any colour does.
    for color in [SignalColor.red, .yellow] {
      #expect(read(unknown, by: readerNaming(color, sure: 0.75)).color == color)
      #expect(read(unknown, by: readerNaming(color, sure: 0.6)) == unknown)
    }
    let unsureRed = fallback.decide(
      after: unknown, region: greyImage(with: 40, of: (220, 20, 20)), reader: readerNaming(.red, sure: 0.6),
      classifier: classifier)
    #expect(unsureRed.color == .red)
    #expect(read(first(.green, 0.5), by: green) == first(.green, 0.5))
    #expect(read(first(.yellow, 0.5), by: readerNaming(.unknown)) == first(.yellow, 0.5))
    // Green against red: neither.
    let vetoed = read(first(.red, 0.5), by: green)
    #expect(vetoed.color == .unknown)
    #expect(vetoed.decidedBy == LightNetworkDecider.vetoedByRed)
    #expect(vetoed.whyUnknown == "red evidence beside green")
    // Nor does green undo an `unknown` that red evidence beside green made; red may.
    for reason in [RedVetoesGreen.kind, LightDecision.litRedLamp] {
      let redEvidence = LightDecision(samples: [], counts: ColorCounts(), color: .unknown, decidedBy: reason)
      #expect(read(redEvidence, by: green) == redEvidence)
      let red = fallback.decide(
        after: redEvidence, region: greyImage(with: 40, of: (220, 20, 20)), reader: readerNaming(.red),
        classifier: classifier)
      #expect(red.color == .red)
    }
    // Without `readsBelow` (0), only a reading that names no colour is read again.
    let onlyUnknown = NetworkFallback(leastShare: 0.002)
    #expect(
      onlyUnknown.decide(
        after: first(.yellow, 0.1), region: greyImage(with: 40, of: (0, 200, 0)), reader: green,
        classifier: classifier) == first(.yellow, 0.1))
  }

  /// The fallback classifies the region first and has the network read it only where some
  /// colour could stand; its answers are those of the plain order: the network's reading,
  /// then red evidence against its green, then red or yellow in place of no colour, then the
  /// region's share of its colour, then the first reading's red against its green.
  @Test func classifyingFirst_answersAsThePlainOrder() {
    let fallback = NetworkFallback(leastShare: 0.002, readsBelow: 0.7)
    func plain(_ decision: LightDecision, _ region: RGBImage, _ reader: Profile) -> LightDecision {
      guard decision.color == .unknown || decision.confidence < 0.7 else { return decision }
      let second = reader.decide(
        pixelsOf: PixelRegion(x: 0, y: 0, width: region.width, height: region.height), in: region)
      guard second.color != .unknown, second.color != decision.color else { return decision }
      if second.color == .green && RedEvidence(behind: decision) != nil { return decision }
      if decision.color == .unknown && second.color != .green && second.confidence >= 0.7 { return second }
      let shown = classifier.classify(region).classes.filter { $0 == PixelClass(second.color) }.count
      guard shown > 0, Double(shown) >= 0.002 * Double(region.width * region.height) else { return decision }
      guard decision.color == .red, second.color == .green else { return second }
      return LightDecision(
        samples: decision.samples, counts: decision.counts, color: .unknown,
        decidedBy: RedEvidence.anotherReading.decidedBy)
    }
    /// 20x40 grey with `red`, `yellow` and `green` pixels in turn from the top.
    func region(red: Int, yellow: Int, green: Int) -> RGBImage {
      var image = greyImage(with: 0, of: (0, 0, 0))
      let colours: [(UInt8, UInt8, UInt8)] =
        Array(repeating: (220, 20, 20), count: red) + Array(repeating: (230, 200, 0), count: yellow)
        + Array(repeating: (0, 200, 0), count: green)
      for (i, colour) in colours.enumerated() { image[i % 20, i / 20] = colour }
      return image
    }
    let regions = [
      region(red: 0, yellow: 0, green: 0), region(red: 40, yellow: 0, green: 0),
      region(red: 0, yellow: 1, green: 0), region(red: 0, yellow: 40, green: 0),
      region(red: 0, yellow: 0, green: 2), region(red: 20, yellow: 0, green: 20),
      region(red: 10, yellow: 10, green: 10),
    ]
    let counts = ColorCounts(red: 2, yellow: 0, green: 5)
    let firsts =
      [
        LightDecision(samples: [], counts: counts, color: .unknown),
        RedEvidence.redPoints.veto(LightDecision(samples: [], counts: counts, color: .green)),
        RedEvidence.litRedLamp.veto(LightDecision(samples: [], counts: counts, color: .green)),
        RedEvidence.anotherReading.veto(LightDecision(samples: [], counts: counts, color: .green)),
        LightDecision(samples: [], counts: counts, color: .unknown, decidedBy: LightDecision.lowConfidence),
      ]
      + [SignalColor.red, .yellow, .green].flatMap { color in
        [0.5, 0.9].map { LightDecision(samples: [], counts: counts, color: color, confidence: $0) }
      }
    var replaced = 0
    let readers =
      SignalColor.allCases.map { readerNaming($0) }
      + [SignalColor.red, .yellow].map { readerNaming($0, sure: 0.6) }
    for reader in readers {
      for first in firsts {
        for image in regions {
          let answer = fallback.decide(after: first, region: image, reader: reader, classifier: classifier)
          #expect(answer == plain(first, image, reader), "\(first.color) \(first.decidedBy)")
          if answer != first { replaced += 1 }
        }
      }
    }
    #expect(replaced > 10, "the cases reach the network's colour standing")
  }

  /// The network fallback is profile data: `default` has one, it round-trips through JSON, and a
  /// fallback that cannot read is refused with the reason.
  @Test func fallback_isProfileData_andRefusedWhenItCannotRead() throws {
    #expect(
      Profile.default.networkFallback
        == NetworkFallback(profile: "fitted", leastShare: 0.002, readsBelow: 0.7))
    let json = try JSONEncoder().encode(Profile.default)
    #expect(try Profile.decode(json, path: "default.json") == Profile.default)
    func reason(_ fallback: String, decider: String = "") -> String? {
      let text =
        #"{"thresholds":{"saturationFloor":0.5,"green":{"lower":140,"upper":220},"yellow":{"lower":5,"upper":60},"red":{"lower":340,"upper":5}},"networkFallback":\#(fallback)\#(decider)}"#
      do {
        _ = try Profile.decode(Data(text.utf8), path: "p.json")
        return nil
      } catch {
        return "\(error)"
      }
    }
    #expect(reason(#"{"profile":"fitted","leastShare":0.01}"#) == nil)
    #expect(reason(#"{"profile":"fitted","leastShar":0.01}"#)?.contains("missing key 'leastShare'") == true)
    #expect(
      reason(#"{"profile":"fitted","leastShare":0.01,"leastShar":0.01}"#)?.contains(
        "unknown key 'networkFallback.leastShar'") == true)
    #expect(reason(#"{"profile":"default","leastShare":0.01}"#)?.contains("reads pixels") == true)
    #expect(reason(#"{"profile":"seed","leastShare":0.01}"#)?.contains("reads pixels") == true)
    #expect(reason(#"{"profile":"nosuch.json","leastShare":0.01}"#)?.contains("'nosuch.json'") == true)
    #expect(reason(#"{"profile":"fitted","leastShare":1.5}"#)?.contains("leastShare") == true)
    #expect(reason(#"{"profile":"fitted","leastShare":0.01,"readsBelow":0.5}"#) == nil)
    #expect(
      reason(#"{"profile":"fitted","leastShare":0.01,"readsBelow":1.5}"#)?.contains("readsBelow") == true)
    #expect(
      reason(#"{"profile":"fitted","leastShare":0.01,"readsBelow":-0.1}"#)?.contains("readsBelow") == true)
    let leftOut = try JSONDecoder().decode(
      NetworkFallback.self, from: Data(#"{"profile":"fitted","leastShare":0.01}"#.utf8))
    #expect(leftOut.readsBelow == 0)
    var network = Profile.fitted
    network.networkFallback = NetworkFallback(leastShare: 0.01)
    #expect(network.problem?.contains("reads points") == true)
  }

  /// In the pipeline: a crop the cascade reads as no colour, or unsure, is read by the network,
  /// and the same light read as a box of a larger frame gets the same colour (the fallback
  /// reads the region asked for, crop or box). What the network changes is the crop's own
  /// colour (`fitted` was trained on these folders), or `unknown` where it is green against
  /// the cascade's red.
  @Test(.enabled(if: TestPaths.sharedDatasets != nil, "needs ../shared/datasets"))
  func aCropAndTheSameBoxInAFrame_fallBackAlike() throws {
    var plain = Profile.default
    plain.networkFallback = nil
    let readsBelow = try #require(Profile.default.networkFallback).readsBelow
    let (withFallback, without) = (FramePipeline(profile: .default), FramePipeline(profile: plain))
    var (fellBack, unsure) = (0, 0)
    func readAlike(_ name: String, color: SignalColor) throws {
      let crop = try ImageDecoder().decode(FileReader.readAll(name, maxBytes: 1 << 24), name: name)
        .pixels
      let alone = withFallback.classify(crop).decision
      let first = without.classify(crop).decision
      guard first.color == .unknown || first.confidence < readsBelow else {
        #expect(alone == first, "\(name): the fallback changed a reading it was not to read again")
        return
      }
      guard alone != first else { return }
      fellBack += 1
      if first.color != .unknown { unsure += 1 }
      if first.color == .red {
        #expect(alone.color == .unknown && alone.decidedBy == LightNetworkDecider.vetoedByRed, "\(name)")
      } else {
        #expect(alone.decidedBy == LightNetworkDecider.decidedBy)
        #expect(alone.color == color, "\(name)")
      }
      var frame = RGBImage(width: crop.width + 60, height: crop.height + 40)
      paste(crop, into: &frame, x: 30, y: 20)
      let box = PixelRegion(x: 30, y: 20, width: crop.width, height: crop.height)
      #expect(withFallback.classify(frame, region: box).decision == alone, "\(name)")
    }
    let folders: [(String, SignalColor, Int)] = [
      ("mit-crops/green", .green, 400), ("cinta-crops/red", .red, 200), ("cinta-crops/yellow", .yellow, 200),
      ("cinta-crops/green", .green, 200),
    ]
    for (name, color, count) in folders {
      let folder = TestPaths.sharedDatasets! + "/" + name
      let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
      for name in names.prefix(count) {
        try readAlike(folder + "/" + name, color: color)
      }
    }
    #expect(fellBack >= 2)
    #expect(unsure >= 1)
  }
}
