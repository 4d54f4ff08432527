import TrafficLightKernels

/// The decider that reads a light's pixels with a `LightNetwork`: the most probable of the
/// network's classes, with that probability as its confidence; `unknown` when the network's
/// most probable class is `unknown`, and when it is green while red is at least `redVeto`
/// probable (a red light read as green is the one mistake that must not happen). The
/// profile's `minimumConfidence` makes a less probable colour `unknown`.
///
/// JSON: `{"kind": "network", "redVeto": 0.2, "network": {...}}` (`LightNetwork`'s form).
public struct LightNetworkDecider: LightDecider {
  /// The `"kind"` that names this decider in JSON.
  public static let kind = "network"

  /// `decidedBy` when the network named the answer.
  public static let decidedBy = "network"
  /// `decidedBy` when green was most probable but red too probable to answer it
  /// (`RedEvidence.anotherReading`).
  public static let vetoedByRed = RedEvidence.anotherReading.decidedBy

  /// The network.
  public var network: LightNetwork
  /// The probability of red at or above which green is not named, in 0...1.
  public var redVeto: Double

  /// A decider of `network`, vetoing green at `redVeto`.
  public init(network: LightNetwork, redVeto: Double = 0.2) {
    self.network = network
    self.redVeto = redVeto
  }

  /// Reads pixels, not points.
  public var readsPixels: Bool { true }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    guard redVeto >= 0 && redVeto <= 1 else { return "redVeto must be between 0 and 1, not \(redVeto)" }
    return network.problem
  }

  /// The decision for class probabilities `probabilities` (in `network.classes`' order).
  public func decide(probabilities: [Double]) -> LightDecision {
    let best = probabilities.indices.max { probabilities[$0] < probabilities[$1] } ?? 0
    let color = network.classes.indices.contains(best) ? network.classes[best] : .unknown
    let red = network.classes.firstIndex(of: .red).map { probabilities[$0] } ?? 0
    let decision = LightDecision(
      samples: [], counts: ColorCounts(), color: color, decidedBy: Self.decidedBy,
      confidence: color == .unknown ? 0 : probabilities[best])
    return red >= redVeto ? RedEvidence.anotherReading.veto(decision) : decision
  }

  /// The network's features of the light in `region` of `image` (of its thumbnail); nil
  /// when no thumbnail can be made of the region.
  public func measure(pixelsOf region: PixelRegion, in image: RGBImage) -> [Float]? {
    network.thumbnail(of: image, region: region).map { network.features(of: $0) }
  }

  /// The colour of a light whose thumbnail has `features`: the readout's probabilities of them.
  public func decide(features: [Float]) -> LightDecision {
    decide(probabilities: LightNetwork.softmax(network.readout.scores(features)))
  }

  /// Not called: the pipeline gives this decider pixels (`readsPixels`).
  public func decide(_ samples: [SamplePoint], on grid: SampleGrid) -> LightDecision {
    preconditionFailure("the network decider reads pixels, not sampled points")
  }
}
