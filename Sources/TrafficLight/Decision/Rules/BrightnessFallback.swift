import TrafficLightKernels

/// Reads the lit lamp from brightness alone, for lamps so blown out that no hue survives.
///
/// When the answer so far is `unknown`, the lit lamp is the third whose centre-line points
/// are brightest, by their median (one dark point, a visor's shadow, does not spoil a third,
/// nor one bright point lift it), when that median is above `floor` and beats the next
/// third's by more than `margin`. With `lead` and `disc` set, brightness is evidence of a lit
/// lamp only when the lamp stands out: its third's median beats the next by more than `lead`,
/// or the third is a bright disc in its housing, its centre point brighter than the median
/// of its four corner points (the ends of its first and last rows) by more than `disc`. A sky
/// or a wall brightening gently down the crop is neither (a steep gradient still leads).
/// With `tint` set, the lit third must also look like a lamp's light: the mean colour of its
/// centre-line points white, or tinted with the hue of the lamp it names (`LampTint`). A
/// blue sky above a dark road is bright, but lit by no lamp.
public struct BrightnessFallback: CascadeRule, Hashable {
  /// The rule's kind in profile JSON.
  public static let kind = "brightnessFallback"

  /// How much brighter (in 0...1 of value) the lit third's median must be than the next
  /// third's.
  public var margin: Double
  /// How bright (in 0...1) the lit third's median must be.
  public var floor: Double
  /// The lead over the next third (in 0...1 of value) that is by itself evidence of a lit
  /// lamp, with `disc`; nil for no such test (every lead above `margin` answers).
  public var lead: Double?
  /// How much brighter (in 0...1 of value) than its third's corners the centre of a lit lamp
  /// leading by no more than `lead` must be.
  public var disc: Double?
  /// The colours a lit lamp's light may have, or nil for no such test (see the type's
  /// comment).
  public var tint: LampTint?

  /// The fallback with this brightness margin and floor, and the lamp's evidence (see the
  /// type's comment).
  public init(
    margin: Double, floor: Double, lead: Double? = nil, disc: Double? = nil, tint: LampTint? = nil
  ) {
    self.margin = margin
    self.floor = floor
    self.lead = lead
    self.disc = disc
    self.tint = tint
  }

  /// Brightness without hue is weak evidence: the confidence is at most a half, reached
  /// when the lit third's median beats the next by a quarter of full scale.
  public func revise(_ current: SignalColor, _ context: CascadeContext) -> CascadeRevision? {
    guard current == .unknown, let lit = litThird(context.samples),
      let lamp = context.lamp(inThird: lit.third)
    else { return nil }
    if let lead, let disc, lit.lead <= lead {
      guard let contrast = discContrast(context.samples, third: lit.third), contrast > disc else {
        return nil
      }
    }
    if let tint, !tint.admits(meanColor(context.samples, third: lit.third), as: lamp) { return nil }
    return CascadeRevision(lamp, confidence: 0.5 * min(1, lit.lead / 0.25))
  }

  /// The mean blurred colour of the centre-line points of `third`.
  ///
  /// Complexity: O(samples).
  func meanColor(_ samples: [SamplePoint], third: Int) -> PixelColor {
    var (r, g, b, n) = (0, 0, 0, 0)
    for sample in samples where sample.onCentreLine && sample.third == third {
      (r, g, b, n) = (r + Int(sample.color.r), g + Int(sample.color.g), b + Int(sample.color.b), n + 1)
    }
    guard n > 0 else { return PixelColor(gray: 0) }
    let mean = { (sum: Int) in UInt8((sum + n / 2) / n) }
    return PixelColor(r: mean(r), g: mean(g), b: mean(b))
  }

  /// How much brighter (in 0...1 of value) the centre of `third` is than its corners: its
  /// centre line's middle point against the median of the points at both ends of its first
  /// and last rows; nil on a grid with one line, or one row in the third.
  ///
  /// Complexity: O(samples).
  func discContrast(_ samples: [SamplePoint], third: Int) -> Double? {
    let points = samples.filter { $0.third == third }
    let centre = points.filter(\.onCentreLine)
    guard let first = centre.first else { return nil }
    // The centre line runs along the light: its points share their place across it.
    let vertical = centre.allSatisfy { $0.x == first.x }
    let along = { (point: SamplePoint) in vertical ? point.y : point.x }
    let across = { (point: SamplePoint) in vertical ? point.x : point.y }
    let rows = Set(points.map(along)).sorted()
    let lines = Set(points.map(across)).sorted()
    guard rows.count >= 2, lines.count >= 3 else { return nil }
    let middleRow = rows[rows.count / 2]
    guard let middle = centre.first(where: { along($0) == middleRow }) else { return nil }
    let corners = points.filter { point in
      (along(point) == rows.first! || along(point) == rows.last!)
        && (across(point) == lines.first! || across(point) == lines.last!)
    }.map { Int($0.value) }.sorted()
    guard corners.count == 4 else { return nil }
    return (Double(middle.value) - Double(corners[1] + corners[2]) / 2) / 255
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
    let medians = values.map(medianValue(of:))
    let ranked = medians.indices.sorted { medians[$0] > medians[$1] }
    let (top, second) = (medians[ranked[0]], medians[ranked[1]])
    guard top - second > margin, top > floor else { return nil }
    return (ranked[0], top - second)
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    guard margin >= 0 && margin <= 1 && floor >= 0 && floor <= 1 else {
      return "margin and floor must be between 0 and 1"
    }
    if (lead == nil) != (disc == nil) { return "lead and disc go together" }
    for bound in [lead, disc].compactMap({ $0 }) where !(bound >= 0 && bound <= 1) {
      return "lead and disc must be between 0 and 1"
    }
    return tint?.problem
  }
}
