import TrafficLightKernels

/// The points' weighted vote, then a list of rules that may revise its answer, in order.
///
/// The vote: each coloured point votes 1 for its colour, or `positionWeight` when its colour
/// is the lamp `lampOrder` puts in its third of the light; a point dimmer than
/// `relativeBrightness` times the brightest point does not vote. The colour with the most
/// votes wins; a tie goes to the more restrictive colour (red over yellow over green); no
/// votes gives `unknown`. Then each rule in `rules`, in order, may put another colour in
/// place of the answer so far (`CascadeRule`); the last rule that did names the decision.
/// With the defaults (weight 1, no brightness rule, no rules) this is SPEC section 4's
/// count, the article's rule with its bugs fixed. The vote's confidence is
/// `CascadeContext.voteConfidence`; a rule that names the colour gives its own.
///
/// JSON: `{"kind": "cascade", "lampOrder": ["red", "yellow", "green"], "positionWeight": 1.5,
/// "relativeBrightness": 0.3, "rules": [{"kind": "warmSplit", ...}, ...]}`; keys left out
/// take the defaults.
public struct CascadeDecider: LightDecider {
  /// The decider's kind in profile JSON.
  public static let kind = "cascade"

  /// The lamps from the top (or left) of the light.
  public var lampOrder: [SignalColor]
  /// The vote of a point whose colour is the lamp `lampOrder` puts in its third (others vote 1).
  public var positionWeight: Double
  /// A point dimmer than this times the brightest point does not vote (0: every point votes).
  public var relativeBrightness: Double
  /// The rules after the vote, in the order they are tried.
  public var rules: [any CascadeRule]

  /// A cascade with these parts; the defaults are SPEC section 4's count.
  public init(
    lampOrder: [SignalColor] = [.red, .yellow, .green], positionWeight: Double = 1,
    relativeBrightness: Double = 0, rules: [any CascadeRule] = []
  ) {
    self.lampOrder = lampOrder
    self.positionWeight = positionWeight
    self.relativeBrightness = relativeBrightness
    self.rules = rules
  }

  /// The first rule of type `R`, if any.
  public func rule<R: CascadeRule>(_ type: R.Type) -> R? {
    rules.lazy.compactMap { $0 as? R }.first
  }

  /// The vote over `samples`, then each rule in order (see the type's comment).
  public func decide(_ samples: [SamplePoint], on grid: SampleGrid) -> LightDecision {
    let context = CascadeContext(
      samples: samples, lampOrder: lampOrder, lampPoints: grid.points * grid.columns / 9)
    let brightest = samples.map(\.value).max() ?? 0
    let dimmest = Double(brightest) * relativeBrightness
    var counts = ColorCounts()
    // By pixel class (1 red, 2 yellow, 3 green): the colours' scores, and whether a point of
    // the colour lies at its own lamp. (A String-backed colour hashes its name: the sets
    // are made once, below.)
    var classScores: [Double] = [0, 0, 0, 0]
    var classAtItsLamp = [false, false, false, false]
    for sample in samples {
      guard let color = SignalColor(sample.pixelClass), Double(sample.value) >= dimmest else { continue }
      counts[color] += 1
      let atItsLamp = context.lamp(inThird: sample.third) == color
      let k = Int(sample.pixelClass.rawValue)
      classScores[k] += atItsLamp ? positionWeight : 1
      if atItsLamp { classAtItsLamp[k] = true }
    }
    var scores = [SignalColor: Double]()
    var atTheirLamp = Set<SignalColor>()
    for pixelClass in [PixelClass.red, .yellow, .green] {
      let (color, k) = (SignalColor(pixelClass)!, Int(pixelClass.rawValue))
      guard counts[color] > 0 else { continue }
      scores[color] = classScores[k]
      if classAtItsLamp[k] { atTheirLamp.insert(color) }
    }
    var color = SignalColor.unknown
    var best = 0.0
    for candidate in SignalColor.byRestrictiveness where scores[candidate, default: 0] > best {
      color = candidate
      best = scores[candidate, default: 0]
    }
    var voted = context
    voted.atTheirLamp = atTheirLamp
    voted.scores = scores
    voted.counts = counts
    var decidedBy = LightDecision.vote
    var confidence = color == .unknown ? 0 : voted.voteConfidence(for: [color])
    for rule in rules {
      if let revised = rule.revise(color, voted), revised.color != color {
        color = revised.color
        confidence = revised.confidence
        decidedBy = type(of: rule).kind
      }
    }
    return LightDecision(
      samples: samples, counts: counts, color: color, decidedBy: decidedBy, confidence: confidence)
  }

  /// What is wrong with the values (a weight or a rule out of range), if anything.
  public var problem: String? {
    if !(positionWeight >= 0 && positionWeight <= 1000) {
      return "positionWeight must be between 0 and 1000, not \(positionWeight)"
    }
    if Set(lampOrder) != [.red, .yellow, .green] || lampOrder.count != 3 {
      return "lampOrder must name red, yellow and green once each"
    }
    if !(relativeBrightness >= 0 && relativeBrightness <= 1) {
      return "relativeBrightness must be between 0 and 1, not \(relativeBrightness)"
    }
    for rule in rules {
      if let problem = rule.problem { return "\(type(of: rule).kind) \(problem)" }
    }
    return nil
  }

  /// Equal parts.
  public static func == (a: CascadeDecider, b: CascadeDecider) -> Bool {
    let (rulesA, rulesB) = (a.rules, b.rules)
    return a.lampOrder == b.lampOrder && a.positionWeight == b.positionWeight
      && a.relativeBrightness == b.relativeBrightness && rulesA.count == rulesB.count
      && zip(rulesA, rulesB).allSatisfy { $0.isEqual(to: $1) }
  }

  enum CodingKeys: String, CodingKey {
    case lampOrder, positionWeight, relativeBrightness, rules
  }

  /// Decodes the JSON form; keys left out take the defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = CascadeDecider()
    lampOrder = try container.decodeIfPresent([SignalColor].self, forKey: .lampOrder) ?? defaults.lampOrder
    positionWeight =
      try container.decodeIfPresent(Double.self, forKey: .positionWeight) ?? defaults.positionWeight
    relativeBrightness =
      try container.decodeIfPresent(Double.self, forKey: .relativeBrightness) ?? defaults.relativeBrightness
    rules = []
    if container.contains(.rules) {
      var list = try container.nestedUnkeyedContainer(forKey: .rules)
      while !list.isAtEnd { rules.append(try CascadeRules.decode(from: try list.superDecoder())) }
    }
  }

  /// Encodes the JSON form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(lampOrder, forKey: .lampOrder)
    try container.encode(positionWeight, forKey: .positionWeight)
    try container.encode(relativeBrightness, forKey: .relativeBrightness)
    var list = container.nestedUnkeyedContainer(forKey: .rules)
    for rule in rules { try CascadeRules.encode(rule, to: list.superEncoder()) }
  }
}
