import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight
@testable import TrafficLightStudy

@Suite struct HousingSearchTests {
  /// A search whose model is the prior itself: what stands out most like a housing wins.
  static let byPrior = HousingSearch(
    bias: -2, weights: [10, 0, 0, -10, 0, 10, 0, 0, 0, 0, 0], minimumConfidence: 0.6)

  @Test(arguments: [SignalColor.red, .yellow, .green])
  func find_placesTheHousing_andReadsItsLitLampsPlace(lit: SignalColor) throws {
    let housing = blownOutHousing(lit: lit, diameter: 16)
    let frame = carParkScene(housing: housing, x: 90, y: 30, seed: 1)
    let light = try #require(Self.byPrior.find(in: frame))
    #expect(light.color == lit)
    #expect(light.orientation == .vertical)
    let centre = (light.box.x + light.box.width / 2, light.box.y + light.box.height / 2)
    #expect(abs(centre.0 - (90 + housing.width / 2)) <= 4 && abs(centre.1 - (30 + housing.height / 2)) <= 6)
    #expect(light.confidence >= 0.6)
    // The lamp finder alone finds nothing there: the lamps have no colour.
    #expect(LampFinder().find(in: frame).isEmpty)
    var finder = LampFinder()
    finder.housings = Self.byPrior
    #expect(finder.find(in: frame).map(\.color) == [lit])
  }

  /// The windows read are the `kept` most like a light by the prior, in that order.
  @Test func windows_areTheKeptBestByThePrior() {
    var search = Self.byPrior
    search.kept = 25
    let frame = carParkScene(housing: blownOutHousing(lit: .green, diameter: 12), x: 60, y: 20, seed: 3)
    var all: [Double] = []
    search.scan(frame) { prior, _ in all.append(prior) }
    let kept = search.windows(in: frame)
    #expect(kept.count == 25)
    let priors = kept.map { $0.measurements[0] + $0.measurements[5] - $0.measurements[3] }
    #expect(priors == priors.sorted(by: >))
    #expect(priors.first == all.max())
    #expect(priors.last! >= all.sorted(by: >)[24])
  }

  /// Weak labels: frames of a recording whose housing moves and changes size, labelled only
  /// with their state (dark frames have none). Fitted on one recording, the search reads
  /// another recording's frames, housings placed elsewhere, and its dark frames `unknown`.
  @Test func fit_fromWeakLabels_readsAnotherRecording() {
    func recording(seed: UInt64) -> [(RGBImage, SignalColor)] {
      var generator = SeededGenerator(seed: seed)
      let states: [SignalColor] = [
        .red, .red, .green, .green, .green, .yellow, .red, .unknown, .unknown, .green,
      ]
      return (0..<30).map { k in
        let state = states[k % states.count]
        let diameter = 10 + Int(generator.next() % 8)
        let housing = state == .unknown ? nil : blownOutHousing(lit: state, diameter: diameter)
        let x = 50 + Int(generator.next() % 90)
        let y = 5 + Int(generator.next() % 30)
        return (carParkScene(housing: housing, x: x, y: y, seed: seed &+ UInt64(k)), state)
      }
    }
    var fit = HousingFit(minimumConfidence: 0.6)
    fit.search.kept = 60
    (fit.rounds, fit.steps) = (4, 150)
    let training = recording(seed: 10).map { fit.measure($0.0, truth: $0.1) }
    let search = fit.fit(training)
    #expect(search.problem == nil)
    #expect(search.minimumConfidence == 0.6)
    let heldOut = recording(seed: 99).map { fit.measure($0.0, truth: $0.1) }
    let confusion = fit.confusion(search, on: heldOut)
    #expect(confusion.redCalledGreen == 0)
    #expect(confusion.correct >= 22, "\(confusion.counts)")  // of 24 lit frames
    #expect(confusion.count(truth: .unknown, read: .unknown) >= 5)  // of 6 dark ones
    // The search fitted reads a frame as `find` does.
    for (frame, state) in recording(seed: 99).prefix(10) where state != .unknown {
      #expect(search.find(in: frame)?.color == state)
    }
  }

  @Test func profile_withHousings_roundTripsThroughJSON_andBadModelsAreRefused() throws {
    var profile = Profile.default
    var locator = try #require(profile.locator as? LitLampRegion)
    locator.finder.housings = Self.byPrior
    profile.locator = locator
    let back = try JSONDecoder().decode(Profile.self, from: profile.json())
    #expect(back == profile)
    #expect((back.locator as? LitLampRegion)?.finder.housings == Self.byPrior)
    #expect(!String(decoding: Profile.default.json(), as: UTF8.self).contains("housings"))
    var short = Self.byPrior
    short.weights.removeLast()
    #expect(short.problem?.contains("11 weights") == true)
    var sure = Self.byPrior
    sure.minimumConfidence = 1
    #expect(sure.problem?.contains("minimumConfidence") == true)
    locator.finder.housings = short
    profile.locator = locator
    #expect(profile.problem?.contains("housings") == true)
  }

}

/// The housing search on the shared car-park recordings. Unoptimised, searching their 120
/// frames and fitting takes minutes: this suite runs in `.ci/run`'s release pass.
@Suite struct SharedRecordingsTests {
  /// The shared car-park recordings (a real roof camera, a yellow housing, lamps blown out
  /// to white), each read by a search fitted to the other alone: most lit frames right, no
  /// red read green (CALIBRATION.md gives the figures through `sequence`, lamps' lights and
  /// smoothing included).
  @Test(
    .enabled(if: TestPaths.sharedSequences != nil, "needs ../shared/sequences beside the repository"),
    .enabled(if: TestBuild.optimised, "run by .ci/run's release pass: unoptimised it takes minutes"))
  func sharedCarParkRecordings_eachReadByAFitToTheOther() throws {
    let fit = HousingFit(minimumConfidence: LampFinder().minimumConfidence)
    let recordings = try ["carpark-a", "carpark-b"].map { name in
      let prepared = fit.prepare(try LabelledRecording.load(TestPaths.sharedSequences! + "/" + name), jobs: 2)
      #expect(prepared.unreadable.isEmpty)
      return prepared.frames
    }
    for (held, other) in [(0, 1), (1, 0)] {
      let confusion = fit.confusion(fit.fit(recordings[other]), on: recordings[held])
      let lit = recordings[held].filter { $0.truth != .unknown }.count
      #expect(confusion.redCalledGreen == 0)
      #expect(Double(confusion.correct) >= 0.9 * Double(lit), "\(held): \(confusion.correct) of \(lit)")
    }
  }
}
