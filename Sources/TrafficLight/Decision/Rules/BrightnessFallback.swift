/// Reads the lit lamp from brightness alone, for lamps so blown out that no hue survives.
///
/// When the answer so far is `unknown`, the lit lamp is the third whose centre-line points
/// are brightest, by their median (one dark point, a visor's shadow, does not spoil a third,
/// nor one bright point lift it), when that median is above `floor` and beats the next
/// third's by more than `margin`.
public struct BrightnessFallback: CascadeRule, Hashable {
  /// The rule's kind in profile JSON.
  public static let kind = "brightnessFallback"

  /// How much brighter (in 0...1 of value) the lit third's median must be than the next
  /// third's.
  public var margin: Double
  /// How bright (in 0...1) the lit third's median must be.
  public var floor: Double

  /// The fallback with this brightness margin and floor (see the type's comment).
  public init(margin: Double, floor: Double) {
    self.margin = margin
    self.floor = floor
  }

  /// A margin of -1 switches the rule off.
  public static let tuning: [TuningAxis<BrightnessFallback>] = [
    TuningAxis("margin", [-1, 0, 0.01, 0.02, 0.05, 0.1], off: -1, \.margin),
    TuningAxis("floor", [0.3, 0.5, 0.7], \.floor),
  ]

  /// Brightness without hue is weak evidence: the confidence is at most a half, reached
  /// when the lit third's median beats the next by a quarter of full scale.
  public func revise(_ current: SignalColor, _ context: CascadeContext) -> CascadeRevision? {
    guard current == .unknown, let lit = litThird(context.samples),
      let lamp = context.lamp(inThird: lit.third)
    else { return nil }
    return CascadeRevision(lamp, confidence: 0.5 * min(1, lit.lead / 0.25))
  }

  /// The third whose centre-line points have the brightest median, by more than `margin`
  /// and above `floor`, with its lead over the next (in 0...1 of value), or `nil`. (For an
  /// even count, the median is the mean of the middle two.)
  func litThird(_ samples: [SamplePoint]) -> (third: Int, lead: Double)? {
    var values: [[Int]] = [[], [], []]
    for sample in samples where sample.onCentreLine && values.indices.contains(sample.third) {
      values[sample.third].append(Int(sample.value))
    }
    guard values.allSatisfy({ !$0.isEmpty }) else { return nil }
    let medians = values.map { third in
      let sorted = third.sorted()
      return Double(sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2 / 255
    }
    let ranked = medians.indices.sorted { medians[$0] > medians[$1] }
    let (top, second) = (medians[ranked[0]], medians[ranked[1]])
    guard top - second > margin, top > floor else { return nil }
    return (ranked[0], top - second)
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    margin >= 0 && margin <= 1 && floor >= 0 && floor <= 1 ? nil : "margin and floor must be between 0 and 1"
  }
}
