import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightStudy
import TrafficLightTestSupport

@Suite struct LampEvidenceTests {
  private let count = LampMeasurements.names.count

  /// A model whose weights are all 0 but the ones given (term index: weight).
  private func model(bias: Double, _ weights: [Int: Double]) -> LampEvidence {
    var all = [Double](repeating: 0, count: LampEvidence.termCount)
    for (term, weight) in weights { all[term] = weight }
    return LampEvidence(bias: bias, weights: all)
  }

  /// The index of the measurement `name` in `LampMeasurements.names`.
  private func index(of name: String) -> Int { LampMeasurements.names.firstIndex(of: name)! }

  /// The index of the product term m[i] * m[j], i <= j (after the count linear terms).
  private func productTerm(_ i: Int, _ j: Int) -> Int {
    count + (0..<i).reduce(0) { $0 + (count - $1) } + (j - i)
  }

  @Test func termCount_isEachMeasurementAndEveryProductOfTwo() {
    #expect(count == 19)
    #expect(LampEvidence.termCount == 19 + 19 * 20 / 2)
    #expect(LampEvidence.fitted.weights.count == LampEvidence.termCount)
    #expect(LampEvidence.fitted.problem == nil)
  }

  /// The colours are one-hot, so the fit leaves yellow's column out (reference coding,
  /// `scripts/fit_lamp_evidence.py`): the fitted model scores a yellow candidate as one that is
  /// neither red nor green, and red and green by weights of their own.
  @Test func fitted_leavesOutYellowsTerms_andReadsRedAndGreenByTheirOwn() {
    let (red, yellow, green) = (index(of: "red"), index(of: "yellow"), index(of: "green"))
    let yellowTerms = [yellow] + (0..<count).map { productTerm(min($0, yellow), max($0, yellow)) }
    #expect(Set(yellowTerms).count == 20)
    #expect(yellowTerms.allSatisfy { LampEvidence.fitted.weights[$0] == 0 })
    #expect(LampEvidence.fitted.weights[red] != 0 && LampEvidence.fitted.weights[green] != 0)
    var values = (0..<count).map { 0.1 + Double($0) / 40 }
    values[red] = 0
    values[yellow] = 1
    values[green] = 0
    let asYellow = LampEvidence.fitted.confidence(of: LampMeasurements(values: values))
    values[yellow] = 0
    #expect(LampEvidence.fitted.confidence(of: LampMeasurements(values: values)) == asYellow)
  }

  @Test func confidence_isTheLogisticOfTheTerms_inRowOrder() {
    var values = [Double](repeating: 0, count: count)
    values[8] = 0.5  // unlitValueMax
    values[16] = 2  // gapChroma
    values[18] = 3  // surroundChroma
    let measured = LampMeasurements(values: values)
    // bias 0.25, linear unlitValueMax -2, the product unlitValueMax * gapChroma 0.75, the
    // square of surroundChroma -0.1; terms on other measurements weigh nothing here.
    let evidence = model(
      bias: 0.25, [8: -2, productTerm(8, 16): 0.75, productTerm(18, 18): -0.1, productTerm(3, 4): 100])
    let logOdds = 0.25 - 2 * 0.5 + 0.75 * 0.5 * 2 - 0.1 * 3 * 3
    #expect(abs(evidence.confidence(of: measured) - 1 / (1 + exp(-logOdds))) < 1e-12)
    // The last term is the last measurement's square.
    #expect(productTerm(count - 1, count - 1) == LampEvidence.termCount - 1)
  }

  @Test func problem_namesAWrongCount_orAValueNotFinite() {
    #expect(LampEvidence(bias: 0, weights: [1, 2]).problem?.contains("209 values") == true)
    #expect(model(bias: .nan, [:]).problem?.contains("finite") == true)
    #expect(model(bias: 0, [3: .infinity]).problem?.contains("finite") == true)
  }

  @Test func aFinderInJSON_readsItsEvidence_andRefusesAWrongOne() throws {
    let weights = (0..<LampEvidence.termCount).map { Double($0) / 1000 }
    let json = try JSONEncoder().encode(["evidence": LampEvidence(bias: -1, weights: weights)])
    let finder = try JSONDecoder().decode(LampFinder.self, from: json)
    #expect(finder.evidence == LampEvidence(bias: -1, weights: weights))
    #expect(try JSONDecoder().decode(LampFinder.self, from: Data("{}".utf8)).evidence == .fitted)
    var short = LampFinder()
    short.evidence.weights.removeLast()
    #expect(short.problem?.hasPrefix("evidence: weights must have") == true)
  }

  @Test func theFinder_answersWithTheModelsConfidence() throws {
    let frame = syntheticFrame([(.red, 140, 60)])
    var finder = LampFinder()
    finder.minimumConfidence = 0
    // A model sure of nothing but its bias gives every light that confidence.
    finder.evidence = model(bias: 1.5, [:])
    let lights = finder.find(in: frame)
    try #require(!lights.isEmpty)
    #expect(lights.allSatisfy { abs($0.confidence - 1 / (1 + exp(-1.5))) < 1e-12 })
    finder.evidence = model(bias: -1.5, [:])
    finder.minimumConfidence = 0.5
    #expect(finder.find(in: frame).isEmpty)
  }

  @Test func noModel_findsALampWhoseUnlitNeighboursAreAsBright() {
    // A red disc on the sky: where its unlit lamps would be, the sky is 0.9 of its brightness,
    // past unlitRatio. A model sure of everything still finds no light there.
    var frame = RGBImage(width: 200, height: 150, fill: (150, 180, 220))
    for y in 30..<50 {
      for x in 90..<110 where (x - 100) * (x - 100) + (y - 40) * (y - 40) <= 100 {
        frame[x, y] = (245, 20, 20)
      }
    }
    var finder = LampFinder()
    finder.evidence = model(bias: 50, [:])
    #expect(finder.unlitRatio < 0.9)
    #expect(finder.find(in: frame).isEmpty)
    #expect(finder.candidates(in: frame).isEmpty)
  }

  @Test func candidates_holdWhatFindChoosesFrom_belowTheThresholdToo() throws {
    let frame = syntheticFrame([(.green, 60, 40)])
    var finder = LampFinder()
    finder.heads = .vertical
    let found = try #require(finder.find(in: frame).first)
    finder.minimumConfidence = 1
    #expect(finder.find(in: frame).isEmpty)
    let candidates = finder.candidates(in: frame)
    let same = try #require(candidates.first { $0.light == found }, "\(candidates.map(\.light))")
    #expect(same.measurements.values.count == LampMeasurements.names.count)
    // The colour one-hot, and the unlit lamps far darker than the lit one.
    #expect(Array(same.measurements.values[0..<3]) == [0, 0, 1])
    #expect(same.measurements.values[8] < 0.5 && same.measurements.values[9] <= same.measurements.values[8])
    #expect(abs(finder.evidence.confidence(of: same.measurements) - found.confidence) < 1e-12)
  }

  @Test func evaluator_labelsACandidate_litWhenItsLightFindsABoxOfItsColour() throws {
    // The red light's box is labelled red; the green light's box is labelled yellow.
    let folder = try boxedFramesFolder(
      [("a.png", syntheticFrame([(.red, 30, 40), (.green, 250, 50)]))],
      boxes: "file,state,xmin,ymin,xmax,ymax\na.png,red,30,40,60,130\na.png,yellow,250,50,280,140\n")
    let frames = try BoxedFrames.load(folder)
    let result = try #require(FrameEvaluator().candidates(of: frames).first)
    #expect(result.failure == nil)
    let red = result.candidates.filter { $0.candidate.light.color == .red && $0.candidate.light.lamp.x < 100 }
    let green = result.candidates.filter {
      $0.candidate.light.color == .green && $0.candidate.light.lamp.x > 200
    }
    try #require(!red.isEmpty && !green.isEmpty)
    #expect(red.contains { $0.isLitLamp && $0.candidate.light.orientation == .vertical })
    #expect(green.allSatisfy { !$0.isLitLamp })
  }
}

@Suite struct DimLampTests {
  /// A vertical light on a dusk sky whose red lamp shines at 110 of 255: under the bright
  /// thresholds' value floor (129), over the dim ones' (89).
  private func duskFrame() -> RGBImage {
    var frame = RGBImage(width: 320, height: 240, fill: (60, 70, 90))
    var light = RGBImage(width: 30, height: 90, fill: (20, 20, 20))
    for y in 0..<30 {
      for x in 0..<30 where (x - 15) * (x - 15) + (y - 15) * (y - 15) <= 144 { light[x, y] = (110, 12, 12) }
    }
    paste(light, into: &frame, x: 140, y: 60)
    return frame
  }

  @Test func aDimLamp_isFoundByTheSecondLook_only() throws {
    var finder = LampFinder()
    let lights = finder.find(in: duskFrame())
    try #require(lights.count == 1, "\(lights)")
    #expect(lights[0].color == .red)
    let box = lights[0].box
    #expect(
      (140..<170).contains(box.x + box.width / 2) && (60..<150).contains(box.y + box.height / 2), "\(box)")
    finder.dimThresholds = nil
    #expect(finder.find(in: duskFrame()).isEmpty)
    #expect(finder.candidates(in: duskFrame()).isEmpty)
  }

  @Test func dimThresholds_inJSON_nullTurnsTheSecondLookOff_andRoundTrips() throws {
    let off = try JSONDecoder().decode(LampFinder.self, from: Data(#"{"dimThresholds": null}"#.utf8))
    #expect(off.dimThresholds == nil)
    #expect(try JSONDecoder().decode(LampFinder.self, from: try JSONEncoder().encode(off)) == off)
    let kept = try JSONDecoder().decode(LampFinder.self, from: Data("{}".utf8))
    #expect(kept.dimThresholds == LampFinder().dimThresholds && kept.dimThresholds != nil)
    #expect(try JSONDecoder().decode(LampFinder.self, from: try JSONEncoder().encode(kept)) == kept)
    var bad = LampFinder()
    bad.dimThresholds?.valueFloor = 2
    #expect(bad.problem?.hasPrefix("dimThresholds: ") == true, "\(bad.problem ?? "")")
  }
}
