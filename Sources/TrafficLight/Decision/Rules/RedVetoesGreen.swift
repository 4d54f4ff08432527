import TrafficLightKernels

/// Red and green evidence together never answer green (SPEC section 6).
///
/// When the answer so far is green and any point is red (by the pixel thresholds, however
/// dim against the brightest point: the vote's brightness floor does not hide red), the
/// answer is `unknown`: a red lamp read green is the one mistake that must not happen, and
/// a light that shows both is not one a reader can trust. Last in a cascade, it also stands
/// over what the rules before it named.
public struct RedVetoesGreen: CascadeRule, Hashable {
  /// The rule's kind in profile JSON.
  public static let kind = "redVetoesGreen"

  /// The rule; it has no parameters.
  public init() {}

  /// `unknown` in place of green when any point is red; nil otherwise.
  public func revise(_ current: SignalColor, _ context: CascadeContext) -> CascadeRevision? {
    guard current == .green, context.samples.contains(where: { $0.pixelClass == .red }) else { return nil }
    return CascadeRevision(.unknown, confidence: 0)
  }

  /// Nothing can be wrong: the rule has no values.
  public var problem: String? { nil }
}
