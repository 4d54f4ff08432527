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

  /// `default`'s housing search is every camera's: every window read through the products of
  /// the measurements, several lights a frame, each confirmed by a network of its own (trained
  /// with the windows the search finds away from every light: not `fitted`'s), and only where
  /// the heads are known to run down.
  @Test func default_searchesHousingsOfEveryCamera_whereHeadsAreVertical() throws {
    let housings = try #require((Profile.default.locator as? LitLampRegion)?.finder.housings)
    #expect(housings.kept == 0 && housings.limit > 1 && housings.searchedWith == .vertical)
    #expect(housings.ranksBelowLamps && housings.longestSide > 0)
    #expect(housings.weights.count == HousingSearch.quadraticTermCount)
    let confirmation = try #require(housings.confirmation)
    let reader = try #require(confirmation.reader)
    #expect(confirmation.profile == nil)
    #expect(reader.network != (try #require(Profile.fitted.decider as? LightNetworkDecider)).network)
    #expect(housings.problem == nil)
  }

  /// The quadratic model adds each product of two measurements, i <= j in row order, to the
  /// linear part.
  @Test func score_quadratic_addsEveryProductOfTwoMeasurements() {
    var generator = SeededGenerator(seed: 9)
    func draw() -> Double { Double(generator.next() % 2001) / 1000 - 1 }
    let weights = (0..<HousingSearch.quadraticTermCount).map { _ in draw() }
    let search = HousingSearch(bias: 0.25, weights: weights, minimumConfidence: 0.5)
    let m = (0..<HousingSearch.names.count).map { _ in draw() }
    var expected = 0.25
    var k = m.count
    for i in m.indices {
      expected += weights[i] * m[i]
      for j in i..<m.count {
        expected += weights[k] * m[i] * m[j]
        k += 1
      }
    }
    #expect(abs(search.score(m) - expected) < 1e-12)
    #expect(HousingSearch.quadraticTermCount == 77)
  }

  /// Two housings lit in different lamps on a plain ground, a quadratic model: reading every
  /// window (the scan's own scoring) finds the same lights as reading them all by the
  /// prior's order (`score` of each window's array), each once, most sure first.
  @Test func lights_everyWindow_findsEachHousingOnce_asThePlainScoringDoes() throws {
    var frame = RGBImage(width: 200, height: 150, fill: (40, 50, 35))
    paste(blownOutHousing(lit: .red, diameter: 14), into: &frame, x: 30, y: 20)
    paste(blownOutHousing(lit: .green, diameter: 14), into: &frame, x: 120, y: 40)
    var search = Self.byPrior
    // The prior's weights, and a product that changes nothing where measurements are small.
    search.weights += [Double](repeating: 0, count: HousingSearch.quadraticTermCount - 11)
    search.weights[11] = 0.5
    search.kept = 0
    search.limit = 4
    // Beside each housing, windows astride its edge stand out less (about 0.82 sure).
    search.minimumConfidence = 0.9
    let lights = search.lights(in: frame)
    #expect(Set(lights.map(\.color)) == [.red, .green])
    #expect(lights.count == 2)
    #expect(lights.map(\.confidence) == lights.map(\.confidence).sorted(by: >))
    for light in lights {
      let x = light.color == .red ? 30 + 10 : 120 + 10
      #expect(abs(light.box.x + light.box.width / 2 - x) <= 4)
    }
    var plain = search
    plain.kept = 100_000
    #expect(plain.lights(in: frame) == lights)
    search.limit = 1
    #expect(search.lights(in: frame) == [lights[0]])
    #expect(search.find(in: frame) == lights[0])
  }

  /// A network's second look keeps only the windows it reads as their lit lamp's colour: a
  /// made-up network that reads everything red keeps red windows alone (the red housing among
  /// them); one that reads everything `unknown`, none.
  @Test(arguments: [(SignalColor.red, true), (.unknown, false)])
  func confirmation_keepsWhatTheNetworkReadsAsTheLampsColour(reads: SignalColor, findsLights: Bool) throws {
    var frame = RGBImage(width: 200, height: 150, fill: (40, 50, 35))
    paste(blownOutHousing(lit: .red, diameter: 14), into: &frame, x: 30, y: 20)
    paste(blownOutHousing(lit: .green, diameter: 14), into: &frame, x: 120, y: 40)
    var network = try #require(HousingConfirmation(profile: "fitted", least: 0.9).reader).network
    let features = network.featureCount
    network.readout = LightNetwork.Readout(
      weights: network.classes.map { _ in [Float](repeating: 0, count: features) },
      bias: network.classes.map { $0 == reads ? 20 : 0 })
    var search = Self.byPrior
    search.kept = 0
    search.limit = 4
    search.minimumConfidence = 0.9
    search.confirmation = HousingConfirmation(reader: LightNetworkDecider(network: network), least: 0.9)
    #expect(search.problem == nil)
    let lights = search.lights(in: frame)
    #expect(lights.allSatisfy { $0.color == reads })
    #expect(lights.isEmpty == !findsLights)
    if findsLights { #expect(lights.contains { abs($0.box.x + $0.box.width / 2 - 40) <= 4 }) }
    // The form with its own network round-trips through JSON.
    let back = try JSONDecoder().decode(HousingSearch.self, from: JSONEncoder().encode(search))
    #expect(back == search)
  }

  /// A search `searchedWith` vertical runs only where the finder looks for vertical heads
  /// alone; a crop's locator never runs it (a crop is the light already).
  @Test func searchedWithVertical_runsForVerticalHeadsOnly_andNeverInACrop() throws {
    let frame = carParkScene(housing: blownOutHousing(lit: .yellow, diameter: 16), x: 90, y: 30, seed: 1)
    var search = Self.byPrior
    search.searchedWith = .vertical
    var finder = LampFinder()
    finder.housings = search
    finder.heads = .auto
    #expect(finder.find(in: frame).isEmpty)
    finder.heads = .vertical
    #expect(finder.find(in: frame).map(\.color) == [.yellow])
    let region = PixelRegion(x: 0, y: 0, width: frame.width, height: frame.height)
    #expect(LitLampRegion(finder: finder).locate(in: frame, within: region) == [LocatedLight(box: region)])
    // Ranked below the lamps, its light is as sure as the finder's least.
    let sure = try #require(finder.find(in: frame).first).confidence
    finder.housings?.ranksBelowLamps = true
    #expect(sure > finder.minimumConfidence)
    #expect(finder.find(in: frame).map(\.confidence) == [finder.minimumConfidence])
  }

  /// A frame larger than `longestSide` is searched halved, its light read back at full size.
  @Test func longestSide_searchesALargeFrameHalved_andPlacesItsLightAtFullSize() throws {
    let frame = carParkScene(
      housing: blownOutHousing(lit: .green, diameter: 24), x: 180, y: 60, seed: 2, width: 400, height: 300)
    var search = Self.byPrior
    search.longestSide = 200
    let light = try #require(search.find(in: frame))
    #expect(light.color == .green)
    let housing = blownOutHousing(lit: .green, diameter: 24)
    #expect(abs(light.box.x + light.box.width / 2 - (180 + housing.width / 2)) <= 6)
    #expect(abs(light.box.y + light.box.height / 2 - (60 + housing.height / 2)) <= 8)
    #expect(light.box.width >= housing.width - 6)
  }

  /// Values out of range are refused, each with its name.
  @Test func housingSearch_badValuesAreRefused() {
    func problem(_ change: (inout HousingSearch) -> Void) -> String? {
      var search = Self.byPrior
      change(&search)
      return search.problem
    }
    #expect(problem { $0.kept = -1 }?.contains("kept") == true)
    #expect(problem { $0.limit = 0 }?.contains("limit") == true)
    #expect(problem { $0.searchedWith = .horizontal }?.contains("searchedWith") == true)
    #expect(
      problem { $0.confirmation = HousingConfirmation(profile: "seed", least: 0.9) }?.contains("fitted")
        == true)
    #expect(
      problem { $0.confirmation = HousingConfirmation(profile: "fitted", least: 2) }?.contains("least")
        == true)
    #expect(problem { $0.weights += [0] }?.contains("77") == true)
    #expect(problem { $0.longestSide = 10 }?.contains("longestSide") == true)
    #expect(problem { $0.kept = 0 } == nil)
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
