import Foundation
import Testing
import TrafficLightKernels

@testable import TrafficLight
@testable import TrafficLightStudy

/// How sure a reading is, the threshold below which it is `unknown`, and accuracy against
/// coverage.
@Suite struct ConfidenceTests {
  /// Points down one column, the classes given row by row from row 1, bright.
  static func column(_ classes: [PixelClass]) -> (Int, Int) -> (PixelClass, PixelColor) {
    { _, y in (y >= 1 && y <= classes.count ? classes[y - 1] : .none, PixelColor(gray: 200)) }
  }

  @Test func vote_confidence_isTheWinnersShare_timesHowMuchOfALampItCovers() {
    let seed = GridAndCascade()
    let allRed = seed.sample(width: 1, height: 8, probe: Self.column(Array(repeating: .red, count: 7)))
    #expect(allRed.color == .red && allRed.confidence == 1)
    let mixed = seed.sample(
      width: 1, height: 8, probe: Self.column([.red, .red, .red, .red, .red, .green, .green]))
    #expect(mixed.color == .red && abs(mixed.confidence - 5.0 / 7) < 1e-12)
    let none = seed.sample(width: 1, height: 8, probe: Self.column(Array(repeating: .none, count: 7)))
    #expect(none.color == .unknown && none.confidence == 0)
    // On 9 x 9 points a lamp covers about nine: three red points are a third of one.
    let grid = SampleGrid(points: 9, columns: 9)
    let samples = grid.sample(width: 90, height: 90) { x, y in
      (y < 30 && x > 40 && x < 55 ? .red : .none, PixelColor(gray: 200))
    }
    #expect(samples.filter { $0.pixelClass == .red }.count == 6)
    let partial = CascadeDecider().decide(samples, on: grid)
    #expect(partial.color == .red && abs(partial.confidence - 6.0 / 9) < 1e-12)
  }

  @Test func rulesWithoutAColouredPoint_sayAtMostAHalf() {
    // A bright top third and dark rest: the brightness fallback reads red.
    let fallback = GridAndCascade(points: 9, brightnessFallback: BrightnessFallback(margin: 0, floor: 0.3))
    let lit = fallback.sample(width: 1, height: 10) { _, y in (.none, PixelColor(gray: y <= 3 ? 250 : 40)) }
    #expect(lit.color == .red && lit.decidedBy == "brightnessFallback" && lit.confidence == 0.5)
    let dim = fallback.sample(width: 1, height: 10) { _, y in (.none, PixelColor(gray: y <= 3 ? 120 : 100)) }
    // A lead of 20 levels is 0.078 of full scale: under a third of the quarter a half needs.
    #expect(dim.color == .red && abs(dim.confidence - 0.5 * (20.0 / 255) / 0.25) < 1e-12)
  }

  @Test func minimumConfidence_answersUnknown_belowIt_andSaysWhy() throws {
    var profile = Profile.seed
    profile.minimumConfidence = 0.6
    let sure = Self.column([.red, .red, .red, .red, .red, .green, .green])
    let unsure = Self.column([.red, .red, .red, .red, .green, .green, .green])
    let grid = profile.grid
    let kept = profile.decide(grid.sample(width: 1, height: 8, probe: sure), on: grid)
    #expect(kept.color == .red && kept.decidedBy == LightDecision.vote)
    let dropped = profile.decide(grid.sample(width: 1, height: 8, probe: unsure), on: grid)
    #expect(dropped.color == .unknown && dropped.decidedBy == LightDecision.lowConfidence)
    #expect(abs(dropped.confidence - 4.0 / 7) < 1e-12)
    // Data, not code: it travels in the profile's JSON, and is checked.
    #expect(try Profile.decode(profile.json(), path: "p.json") == profile)
    #expect(!String(decoding: Profile.seed.json(), as: UTF8.self).contains("minimumConfidence"))
    profile.minimumConfidence = 1.5
    #expect(profile.problem == "minimumConfidence must be between 0 and 1, not 1.5")
  }

  @Test func coverage_answersOnlyConfidentReadings() {
    var report = Evaluator.Report()
    let outcomes: [(SignalColor, SignalColor, Double)] = [
      (.red, .red, 0.9), (.red, .green, 0.3), (.green, .green, 0.6), (.yellow, .unknown, 0),
      (.unknown, .red, 0.8),
    ]
    report.outcomes = outcomes.map { Evaluator.Report.Outcome(truth: $0.0, read: $0.1, confidence: $0.2) }
    let points = report.coverage(at: [0, 0.5, 0.95])
    #expect(points.map(\.answered) == [0.75, 0.5, 0])
    #expect(points.map(\.accuracy) == [2.0 / 3, 1, 1])
    #expect(points.map(\.redCalledGreen) == [1, 0, 0])
    // The one image labelled unknown is named red 0.8 sure: named below 0.8, not above.
    #expect(points.map(\.unlitNamed) == [1, 1, 0])
    report.outcomes.removeLast()
    #expect(report.coverage(at: [0]).first?.unlitNamed == nil)
  }
}

@Suite struct RedVetoesGreenTests {
  /// Nine points down one column (rows 1...9 of 10), bright.
  static let column = ConfidenceTests.column

  @Test func greenWithARedPoint_isUnknown_andOtherAnswersStand() {
    let grid = SampleGrid(points: 9)
    let vetoing = CascadeDecider(rules: [RedVetoesGreen()])
    let plain = CascadeDecider()
    let mostlyGreen = Self.column([.red, .none, .none, .none, .none, .none, .green, .green, .green])
    let samples = grid.sample(width: 1, height: 10, probe: mostlyGreen)
    #expect(plain.decide(samples, on: grid).color == .green)
    let vetoed = vetoing.decide(samples, on: grid)
    #expect(vetoed.color == .unknown && vetoed.decidedBy == "redVetoesGreen" && vetoed.confidence == 0)
    #expect(vetoed.whyUnknown == "red points beside green")
    let onlyGreen = grid.sample(
      width: 1, height: 10,
      probe: Self.column([.none, .none, .none, .none, .none, .none, .green, .green, .green]))
    #expect(vetoing.decide(onlyGreen, on: grid).color == .green)
    let redAndYellow = grid.sample(
      width: 1, height: 10,
      probe: Self.column([.red, .red, .red, .yellow, .none, .none, .none, .none, .none]))
    #expect(vetoing.decide(redAndYellow, on: grid).color == .red)
  }

  /// With `unlitRatio`, a red point under that share of the brightest green point in green's
  /// place is an unlit lens beside a lit green lamp, and does not veto; a brighter red point
  /// does, and so does any red point where no green point is in green's place.
  @Test func aRedPointAsDimAsAnUnlitLens_besideAGreenLamp_doesNotVeto() {
    let grid = SampleGrid(points: 9)
    let rule = RedVetoesGreen(unlitRatio: 0.8)
    #expect(rule.problem == nil && RedVetoesGreen(unlitRatio: 0).problem != nil)
    let dim = PixelColor(r: 100, g: 20, b: 20)
    let bright = PixelColor(r: 230, g: 20, b: 20)
    let lamp = PixelColor(r: 0, g: 250, b: 180)
    // Rows 1...9 of 10: red's third, then yellow's, then green's.
    func decide(_ rows: [(PixelClass, PixelColor)], rule: RedVetoesGreen) -> LightDecision {
      let samples = grid.sample(width: 1, height: 10) { _, y in
        y >= 1 && y <= rows.count ? rows[y - 1] : (.none, PixelColor(gray: 30))
      }
      return CascadeDecider(rules: [rule]).decide(samples, on: grid)
    }
    let off = (PixelClass.none, PixelColor(gray: 30))
    let unlitRed = [
      (PixelClass.red, dim), off, off, off, off, off, (.green, lamp), (.green, lamp), (.green, lamp),
    ]
    #expect(decide(unlitRed, rule: rule).color == .green)
    #expect(
      decide(unlitRed, rule: RedVetoesGreen()).color == .unknown, "every red point vetoes without the ratio")
    var litRed = unlitRed
    litRed[0] = (.red, bright)
    #expect(decide(litRed, rule: rule).color == .unknown)
    // The green points in yellow's place, none in green's: no green lamp to be dim beside.
    let displaced = [
      (PixelClass.red, dim), off, off, (.green, lamp), (.green, lamp), (.green, lamp), off, off, off,
    ]
    #expect(decide(displaced, rule: rule).color != .green)
  }

  @Test func theDefaultProfile_neverAnswersGreen_withARedPointVoting() throws {
    let cascade = try #require(Profile.default.decider as? CascadeDecider)
    #expect(cascade.rule(RedVetoesGreen.self) != nil)
    #expect(cascade.rules.last is RedVetoesGreen)
  }
}
