import Testing
import TrafficLightKernels

@testable import TrafficLight

/// Red evidence vetoes green in one place (`RedEvidence`): every stage that turns green to
/// `unknown` for red says which evidence did, and no later reading undoes it.
@Suite struct RedEvidenceTests {
  /// A green decision with points and counts, 0.9 sure.
  let green = LightDecision(
    samples: [SamplePoint(x: 1, y: 2, pixelClass: .green, color: PixelColor(r: 0, g: 200, b: 0))],
    counts: ColorCounts(red: 0, yellow: 0, green: 1), color: .green, decidedBy: "vote", confidence: 0.9)

  @Test func veto_turnsOnlyGreenUnknown_keepingItsPoints() {
    for evidence in RedEvidence.allCases {
      let vetoed = evidence.veto(green)
      #expect(vetoed.color == .unknown && vetoed.confidence == 0, "\(evidence)")
      #expect(vetoed.decidedBy == evidence.decidedBy && vetoed.samples == green.samples)
      #expect(vetoed.counts == green.counts)
      #expect(RedEvidence(behind: vetoed) == evidence)
      #expect(vetoed.whyUnknown == evidence.reason)
      for color in [SignalColor.red, .yellow, .unknown] {
        let other = LightDecision(samples: [], counts: ColorCounts(), color: color, confidence: 0.6)
        #expect(evidence.veto(other) == other)
        #expect(evidence.revision(of: color) == nil)
      }
      #expect(evidence.revision(of: .green) == CascadeRevision(.unknown, confidence: 0))
    }
    #expect(Set(RedEvidence.allCases.map(\.reason)).count == RedEvidence.allCases.count)
    // Only an `unknown` that red evidence made is one.
    #expect(RedEvidence(behind: green) == nil)
    let weak = LightDecision(
      samples: [], counts: ColorCounts(), color: .unknown, decidedBy: LightDecision.lowConfidence)
    #expect(RedEvidence(behind: weak) == nil)
  }

  /// Each stage's veto of green is `RedEvidence`'s: the cascade's red points, the lit red lamp
  /// a light was placed from, the network's red, and a first reading's red against the network
  /// fallback's green; and the fallback's green undoes none of them.
  @Test func everyVetoOfGreen_namesItsEvidence_andNoFallbackUndoesIt() {
    let grid = SampleGrid(points: 9)
    let redAndGreen = grid.sample(
      width: 1, height: 10,
      probe: ConfidenceTests.column([.red, .none, .none, .none, .none, .none, .green, .green, .green]))
    let byPoints = CascadeDecider(rules: [RedVetoesGreen()]).decide(redAndGreen, on: grid)
    let byLamp = green.besideLitLamp(.red)
    let network = Profile.fitted.decider as! LightNetworkDecider
    let byNetwork = network.decide(probabilities: [network.redVeto, 0, 0.7, 0.1])
    let fallback = NetworkFallback(leastShare: 0.002, readsBelow: 0.7)
    let classifier = HSVClassifier(thresholds: Profile.default.thresholds)
    let greenRegion = greyImage(with: 40, of: (0, 200, 0))
    let unsureRed = LightDecision(samples: [], counts: ColorCounts(), color: .red, confidence: 0.5)
    let byFirstReading = fallback.decide(
      after: unsureRed, region: greenRegion, reader: readerNaming(.green), classifier: classifier)
    let vetoes: [(LightDecision, RedEvidence)] = [
      (byPoints, .redPoints), (byLamp, .litRedLamp), (byNetwork, .anotherReading),
      (byFirstReading, .anotherReading),
    ]
    for (vetoed, evidence) in vetoes {
      #expect(RedEvidence(behind: vetoed) == evidence, "\(vetoed.decidedBy)")
      let again = fallback.decide(
        after: vetoed, region: greenRegion, reader: readerNaming(.green), classifier: classifier)
      #expect(again == vetoed, "\(evidence)")
    }
  }
}
