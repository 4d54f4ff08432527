/// What a reading of a light saw of red beside green, and the one rule it carries: a light
/// read green with red evidence beside it is `unknown` (SPEC section 6). A red light read
/// green is the one mistake that must not happen, and a light that shows both is not one
/// to trust.
///
/// Each stage that sees red says so where it sees it (its points, the lamp the light was
/// placed from, a second reading) and hands the evidence here: `veto(_:)` and
/// `revision(of:)` are the only places green is turned to `unknown` for red, and
/// `init(behind:)` tells which evidence made an `unknown`, so that a later reading does not
/// undo it. The case's raw value is the `decidedBy` of the `unknown` it makes.
public enum RedEvidence: String, Sendable, CaseIterable {
  /// Red points among the light's points, brighter than an unlit lens beside a lit green
  /// lamp would be (`RedVetoesGreen`, a cascade's last rule).
  case redPoints = "redVetoesGreen"
  /// The lit lamp the light was placed from is red (`LocatedLight.lampColor`): the points
  /// can miss a pink or blown-out lamp the locator saw.
  case litRedLamp = "litRedLamp"
  /// Another reading of the light saw red: the network's red at least its `redVeto`
  /// probable (`LightNetworkDecider`), or a first reading of red against a second reading's
  /// green (`NetworkFallback`).
  case anotherReading = "redEvidence"

  /// The `decidedBy` of the `unknown` this evidence makes of green.
  public var decidedBy: String { rawValue }

  /// Why the answer is `unknown`, in a few words (`LightDecision.whyUnknown`).
  public var reason: String {
    switch self {
    case .redPoints: return "red points beside green"
    case .litRedLamp: return "green points beside a lit red lamp"
    case .anotherReading: return "red evidence beside green"
    }
  }

  /// The evidence that made `decision` `unknown`; nil when it names a colour or something
  /// else made it `unknown`.
  public init?(behind decision: LightDecision) {
    guard decision.color == .unknown, let evidence = RedEvidence(rawValue: decision.decidedBy) else {
      return nil
    }
    self = evidence
  }

  /// Whether red evidence keeps `color` from being the answer: green only.
  public static func vetoes(_ color: SignalColor) -> Bool { color == .green }

  /// `decision`, or, where it names green, `unknown` decided by this evidence (confidence
  /// 0, its points and counts kept).
  public func veto(_ decision: LightDecision) -> LightDecision {
    guard Self.vetoes(decision.color) else { return decision }
    return LightDecision(
      samples: decision.samples, counts: decision.counts, color: .unknown, decidedBy: decidedBy)
  }

  /// A cascade rule's revision of `current` for this evidence: `unknown` (confidence 0) in
  /// place of green; nil otherwise. The cascade names the rule's kind, this evidence's
  /// `decidedBy`.
  public func revision(of current: SignalColor) -> CascadeRevision? {
    Self.vetoes(current) ? CascadeRevision(.unknown, confidence: 0) : nil
  }
}
