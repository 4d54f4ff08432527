import TrafficLightKernels

/// Red against yellow by hue, decided by the most saturated warm point.
///
/// Red lamps carry an orange halo, and blown-out amber lamps a red-orange rim, so counting
/// points can confuse the two; the most saturated part of a lamp keeps its hue better. When
/// the answer so far is red or yellow, the warm point (hue in the window, above both floors)
/// with the highest saturation decides: yellow if its hue, counted from -180 to 180
/// degrees, is above `hue`, red otherwise. With no warm point the answer stands, and so it
/// does when position already settles it: the vote found a point of the answer's colour on
/// that colour's lamp, and none of the other warm colour on its own.
///
/// A fit keeps the window on the thresholds: red's lower bound to yellow's upper one, above
/// the value floor (`SearchSpace.tied(_:)`, in TrafficLightStudy).
public struct WarmSplit: CascadeRule, Hashable, TintWindow {
  /// The rule's kind in profile JSON.
  public static let kind = "warmSplit"

  /// The boundary between red and yellow, in degrees from -180 to 180 (negative is magenta-red).
  public var hue: Double
  /// A warm point's hue lies between `lower` and `upper` (degrees, `lower < h < upper`,
  /// wrapping through 0 when `lower > upper`, as in `HueRange`).
  public var lower: Double
  /// The warm window's upper bound, in degrees.
  public var upper: Double
  /// A warm point's saturation and value (in 0...1) are above these.
  public var saturationFloor: Double
  /// A warm point's value (0 to 1) is above this.
  public var valueFloor: Double

  /// A warm split at `hue`, over the window and floors given (see the type's comment).
  public init(hue: Double, lower: Double, upper: Double, saturationFloor: Double, valueFloor: Double) {
    self.hue = hue
    self.lower = lower
    self.upper = upper
    self.saturationFloor = saturationFloor
    self.valueFloor = valueFloor
  }

  /// The split's confidence is the vote's in red and yellow together: it tells the two
  /// apart by hue, not by count.
  public func revise(_ current: SignalColor, _ context: CascadeContext) -> CascadeRevision? {
    guard current == .red || current == .yellow else { return nil }
    let other: SignalColor = current == .red ? .yellow : .red
    let positionSettles = context.atTheirLamp.contains(current) && !context.atTheirLamp.contains(other)
    guard !positionSettles, let split = decide(context.samples) else { return nil }
    return CascadeRevision(split, confidence: context.voteConfidence(for: [.red, .yellow]))
  }

  /// The colour the most saturated warm point of `samples` names (the first such point
  /// when several share its saturation), or `nil` when no point is warm.
  ///
  /// Complexity: O(samples).
  public func decide(_ samples: [SamplePoint]) -> SignalColor? {
    var strongest: PixelColor?
    var strongestSaturation = -1.0
    for sample in samples {
      let color = sample.color
      let saturation = color.saturation
      guard saturation > strongestSaturation, admits(color, saturation: saturation) else { continue }
      strongest = color
      strongestSaturation = saturation
    }
    guard let hue = strongest?.hue else { return nil }
    return (hue > 180 ? hue - 360 : hue) > self.hue ? .yellow : .red
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    if !(hue >= -180 && hue <= 180) { return "hue must be between -180 and 180 degrees, not \(hue)" }
    return windowProblem
  }
}
