import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight

/// The reading's stages, decode -> locate -> measure -> decide: `classify` is `measure` then
/// `decide`, and a measurement decided under another profile's thresholds reads as that
/// profile reads the image (what a fit relies on when it measures each image once).
@Suite struct StagesTests {
  /// Synthetic lights of each colour and a few sizes, and every image of SampleFrames.
  static func crops() throws -> [RGBImage] {
    var crops = [SignalColor.red, .yellow, .green].flatMap { color in
      [(30, 80), (64, 160)].map { syntheticLight(lit: color, width: $0.0, height: $0.1) }
    }
    let samples = InputCollector.collect([TestPaths.sampleFrames]).compactMap { item in
      if case .image(let path) = item { path } else { nil }
    }
    crops += try samples.map { try ImageDecoder().decode(fileAt: $0).pixels }
    return crops
  }

  @Test(arguments: [Profile.seed, Profile.default, Profile.fitted])
  func measureThenDecide_isClassify(profile: Profile) throws {
    let pipeline = FramePipeline(profile: profile)
    let crops = try Self.crops()
    #expect(crops.count >= 26)
    for (k, crop) in crops.enumerated() {
      let measured = try #require(pipeline.measure(crop, measuringBusyness: true), "crop \(k)")
      let read = pipeline.classify(crop)
      #expect(pipeline.decide(measured) == read.decision, "crop \(k)")
      #expect(measured.light == read.light && measured.area == read.region, "crop \(k)")
      // A network measures its features of the pixels; the others, their grid's points.
      #expect(measured.features != nil || !measured.samples.isEmpty, "crop \(k)")
      #expect((measured.features == nil) == !profile.decider.readsPixels, "crop \(k)")
    }
  }

  /// The thresholds a fit moves do not move the light (the locator has its own), so a crop
  /// measured once under `default` and decided under other thresholds reads as a pipeline of
  /// those thresholds reads it whole; on some crops that differs from `default`'s reading.
  @Test func aMeasurement_decidedUnderOtherThresholds_readsAsThoseThresholdsRead() throws {
    var other = Profile.default
    other.thresholds.red.upper = 30
    other.thresholds.yellow.lower = 30
    other.thresholds.green.lower = 150
    other.thresholds.valueFloor = 0.6
    let measuring = FramePipeline(profile: .default)
    let deciding = FramePipeline(profile: other)
    var differ = 0
    for (k, crop) in try Self.crops().enumerated() {
      let measured = try #require(measuring.measure(crop, measuringBusyness: true))
      let decided = deciding.decide(measured)
      #expect(decided == deciding.classify(crop).decision, "crop \(k)")
      if decided != measuring.decide(measured) { differ += 1 }
    }
    #expect(differ > 0)
  }

  /// The pixels of a measurement are the full blur's, on whichever path measured them.
  @Test(arguments: [Profile.seed, Profile.default])
  func sparseAndFullMeasurements_holdTheSamePoints(profile: Profile) throws {
    let sparse = FramePipeline(profile: profile)
    var full = sparse
    full.usesFullFrame = true
    for (k, crop) in try Self.crops().enumerated() {
      #expect(sparse.measure(crop)?.samples == full.measure(crop)?.samples, "crop \(k)")
    }
  }
}
