import TrafficLightKernels

/// Red and green evidence together never answer green (SPEC section 6).
///
/// When the answer so far is green and any point is red (by the pixel thresholds, however
/// dim against the brightest point: the vote's brightness floor does not hide red), the
/// answer is `unknown`: a red lamp read green is the one mistake that must not happen, and
/// a light that shows both is not one a reader can trust. Last in a cascade, it also stands
/// over what the rules before it named.
///
/// A sunlit green light shows its unlit red lens as dim red. With `unlitRatio` set, a red
/// point is no evidence of a lit red lamp when the light's lamp order puts green's lamp at a
/// green point at least `1 / unlitRatio` times as bright (by value, the largest channel): it
/// is then as dim beside a lit green lamp as an unlit lamp is (the lamp finder's
/// `LampFinder.unlitRatio`). A red point as bright as that, or any red point where no green
/// point is in green's place, still vetoes.
public struct RedVetoesGreen: CascadeRule, Hashable {
  /// The rule's kind in profile JSON.
  public static let kind = RedEvidence.redPoints.decidedBy

  /// The largest share of the brightest green point in green's place (by value) a red point
  /// may have and still be taken for an unlit lens; nil: every red point vetoes.
  public var unlitRatio: Double?

  /// The rule; with `unlitRatio`, red points that dim beside a green lamp do not veto.
  public init(unlitRatio: Double? = nil) {
    self.unlitRatio = unlitRatio
  }

  /// `unknown` in place of green when a red point is evidence of a red lamp (see the type's
  /// comment; `RedEvidence.redPoints`); nil otherwise.
  ///
  /// Complexity: O(samples).
  public func revise(_ current: SignalColor, _ context: CascadeContext) -> CascadeRevision? {
    guard RedEvidence.vetoes(current) else { return nil }
    // Red points darker than this are unlit lenses (none, where no green lamp is seen).
    var unlitBelow = 0
    if let unlitRatio {
      let greenLamp = context.samples.lazy.filter {
        $0.pixelClass == .green && context.lamp(inThird: $0.third) == .green
      }.map(\.value).max()
      unlitBelow = greenLamp.map { Int((unlitRatio * Double($0)).rounded(.up)) } ?? 0
    }
    guard context.samples.contains(where: { $0.pixelClass == .red && Int($0.value) >= unlitBelow }) else {
      return nil
    }
    return RedEvidence.redPoints.revision(of: current)
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    guard let unlitRatio else { return nil }
    guard unlitRatio > 0 && unlitRatio <= 1 else {
      return "unlitRatio must be in 0 exclusive to 1, not \(unlitRatio)"
    }
    return nil
  }
}
