import TrafficLightKernels

/// What a cascade rule sees: the points, the lamp order, and which colours the vote found
/// at their own lamp.
public struct CascadeContext: Sendable {
  /// The decision's points.
  public let samples: [SamplePoint]
  /// The lamps from the top (or left) of the light.
  public let lampOrder: [SignalColor]
  /// The colours with a voting point in the third their lamp sits in.
  public var atTheirLamp: Set<SignalColor> = []
  /// The vote: each colour's weighted score and its voting points.
  public var scores: [SignalColor: Double] = [:]
  /// How many points voted for each colour.
  public var counts = ColorCounts()
  /// How many points a lit lamp covers on the grid: about a ninth of them (a third of the
  /// light's length, a third of its width), at least one.
  public var lampPoints = 1

  /// A context for `samples` read with `lampOrder`; the vote's fields are filled by the decider.
  public init(
    samples: [SamplePoint], lampOrder: [SignalColor], atTheirLamp: Set<SignalColor> = [], lampPoints: Int = 1
  ) {
    self.samples = samples
    self.lampOrder = lampOrder
    self.atTheirLamp = atTheirLamp
    self.lampPoints = lampPoints
  }

  /// The vote's confidence in one of `colors` (several when a rule tells them apart by
  /// other evidence): their share of the weighted vote, times how much of a lamp their
  /// points cover (`lampPoints` or more is all of one). 0 when none of them voted.
  public func voteConfidence(for colors: [SignalColor]) -> Double {
    let total = scores.values.reduce(0, +)
    let score = colors.reduce(0) { $0 + scores[$1, default: 0] }
    guard total > 0, score > 0 else { return 0 }
    let voters = colors.reduce(0) { $0 + counts[$1] }
    return score / total * min(1, Double(voters) / Double(max(1, lampPoints)))
  }

  /// The median value (0 to 1) of the centre-line points in the thirds whose lamp is not
  /// `lamp`: the rest of the light, against which a lit lamp stands out; nil when there are
  /// none. (For an even count, the mean of the middle two.)
  ///
  /// Complexity: O(samples log samples).
  public func centreLineValue(besides lamp: SignalColor) -> Double? {
    var values: [Int] = []
    for sample in samples where sample.onCentreLine && self.lamp(inThird: sample.third) != lamp {
      values.append(Int(sample.value))
    }
    return values.isEmpty ? nil : medianValue(of: values)
  }

  /// The lamp `lampOrder` puts in `third` (0 at the top or left), or `nil` for a lamp order
  /// that a profile's `problem` rejects.
  public func lamp(inThird third: Int) -> SignalColor? {
    lampOrder.indices.contains(third) ? lampOrder[third] : nil
  }
}

/// The median of point values `values` (0...255, not empty) in 0...1 of full scale; for an
/// even count, the mean of the middle two.
///
/// Complexity: O(n log n).
func medianValue(of values: [Int]) -> Double {
  let sorted = values.sorted()
  return Double(sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2 / 255
}

/// A rule's answer: the colour, and how sure the rule is of it (0 to 1).
public struct CascadeRevision: Sendable, Equatable {
  /// The colour the rule names.
  public let color: SignalColor
  /// How sure the rule is of it, 0 to 1.
  public let confidence: Double

  /// The answer `color`, with `confidence` (0 to 1).
  public init(_ color: SignalColor, confidence: Double) {
    self.color = color
    self.confidence = confidence
  }
}

/// One rule of a `CascadeDecider`: given the answer so far, the colour to put in its place,
/// or `nil` to leave it. A rule is profile data, named in JSON by its `kind` (which is also
/// the decision's `decidedBy` when it names the colour); `CascadeRules.kinds` lists them.
/// Adding a rule is a new conforming type and a line in that list.
public protocol CascadeRule: Sendable, Codable, Equatable {
  static var kind: String { get }

  /// The colour to answer instead of `current`, with its confidence, or `nil` to leave it.
  func revise(_ current: SignalColor, _ context: CascadeContext) -> CascadeRevision?

  /// What is wrong with the values, if anything (the rule's kind leads the message).
  var problem: String? { get }
}

extension CascadeRule {
  func isEqual(to other: any CascadeRule) -> Bool { (other as? Self) == self }

  static func decoded(from decoder: any Decoder) throws -> any CascadeRule { try Self(from: decoder) }
}

/// The rules a cascade may list.
public enum CascadeRules {
  /// Every rule kind, by the name JSON gives it, in the order the calibrator walks their axes.
  public static let kinds: [any CascadeRule.Type] = [
    BrightnessFallback.self, WarmSplit.self, FaintLamp.self, RedVetoesGreen.self, WarmPlace.self,
  ]
}

extension CascadeRules {
  /// The rule the JSON object in `decoder` describes, by its `"kind"`.
  static func decode(from decoder: any Decoder) throws -> any CascadeRule {
    try KindKey.decode(from: decoder, kinds: kinds.map { type in (type.kind, type.decoded) })
  }

  static func encode(_ rule: any CascadeRule, to encoder: any Encoder) throws {
    try KindKey.encode(rule, kind: type(of: rule).kind, to: encoder)
  }
}
