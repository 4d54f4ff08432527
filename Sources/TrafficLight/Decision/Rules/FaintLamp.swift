import TrafficLightKernels

/// A washed-out lamp read from its faint tint.
///
/// Lamps photographed so over-exposed that even their rim keeps only a faint tint pass no
/// classifier floor. When the answer so far is `unknown`, at least `points` points in
/// `color`'s place (its third of the light, by the lamp order) whose hue lies in the window
/// and whose saturation and value are above the floors answer `color`. A faint red tint in
/// red's place keeps the lamp off (`redVeto`): it is what a lit red lamp leaves.
///
/// A fit keeps the window on the thresholds: `color`'s hue range, above the value floor, and the
/// veto's window on red's range (`SearchSpace.tied(_:)`, in TrafficLightStudy).
///
/// A faint tint is evidence of a lamp only where it stands out. Foliage or sky behind a crop
/// tints every third alike; a washed-out lamp tints its own. With `lead` set, the lamp's
/// third must hold at least `lead` more faint points than any other third. A lit lamp is
/// also no darker than what surrounds it, where foliage under a bright sky is: with `shade`
/// set, the faint points' mean value must be at least the median value of the other thirds'
/// centre-line points (`CascadeContext.centreLineValue`) less `shade`.
public struct FaintLamp: CascadeRule, Hashable, TintWindow {
  /// The rule's kind in profile JSON.
  public static let kind = "faintLamp"

  /// The colour a faint lamp in its place answers.
  public var color: SignalColor
  /// The hue window in degrees, `lower < h < upper` (wrapping through 0 when `lower > upper`).
  public var lower: Double
  /// The hue window's upper bound, in degrees.
  public var upper: Double
  /// A faint point's saturation and value (in 0...1) are above these.
  public var saturationFloor: Double
  /// A faint point's value (0 to 1) is above this.
  public var valueFloor: Double
  /// How many faint points in `color`'s place it takes.
  public var points: Int
  /// The hue window of a red tint that keeps the lamp off, or `nil` for no veto: one point
  /// in red's place with its hue in the window and its saturation and value above the
  /// floors (the window's own saturation floor, if it has one, instead of `saturationFloor`).
  /// Not for a red faint lamp.
  public var redVeto: HueRange?
  /// How many more faint points `color`'s third must hold than any other third, or nil for
  /// no such test (see the type's comment).
  public var lead: Int?
  /// How much darker (in 0...1 of value) than the median of the other thirds' centre-line
  /// points the faint points may be on average, or nil for no such test (see the type's
  /// comment).
  public var shade: Double?

  /// A faint-lamp rule with these windows and floors (see the type's comment).
  public init(
    color: SignalColor, lower: Double, upper: Double, saturationFloor: Double, valueFloor: Double,
    points: Int,
    redVeto: HueRange? = nil, lead: Int? = nil, shade: Double? = nil
  ) {
    self.color = color
    self.lower = lower
    self.upper = upper
    self.saturationFloor = saturationFloor
    self.valueFloor = valueFloor
    self.points = points
    self.redVeto = redVeto
    self.lead = lead
    self.shade = shade
  }

  /// A faint tint is weaker evidence than a coloured point: the confidence is at most a
  /// half, reached at twice `points` faint points.
  public func revise(_ current: SignalColor, _ context: CascadeContext) -> CascadeRevision? {
    guard current == .unknown, let faint = faintPoints(context), faint >= points else { return nil }
    return CascadeRevision(color, confidence: 0.5 * min(1, Double(faint) / Double(2 * points)))
  }

  /// The faint `color` points in `color`'s place; nil when a point in red's place vetoes,
  /// or, with `lead`, when `color`'s place does not hold `lead` more faint points than every
  /// other third, or, with `shade`, when they are darker than the other thirds' centre line
  /// by more than `shade`.
  ///
  /// Complexity: O(samples).
  func faintPoints(_ context: CascadeContext) -> Int? {
    let veto = redVeto.map {
      Tint(
        lower: $0.lower, upper: $0.upper, saturationFloor: $0.saturationFloor ?? saturationFloor,
        valueFloor: valueFloor)
    }
    var count = 0
    var faintValue = 0
    var elsewhere = [0, 0, 0]
    for sample in context.samples {
      let lamp = context.lamp(inThird: sample.third)
      let saturation = sample.color.saturation
      if admits(sample.color, saturation: saturation) {
        if lamp == color {
          count += 1
          faintValue += Int(sample.value)
        } else if elsewhere.indices.contains(sample.third) {
          elsewhere[sample.third] += 1
        }
      }
      if lamp == .red, let veto, veto.admits(sample.color, saturation: saturation) { return nil }
    }
    if let lead, elsewhere.contains(where: { count - $0 < lead }) { return nil }
    if let shade, count > 0, let around = context.centreLineValue(besides: color),
      Double(faintValue) / Double(count) / 255 < around - shade
    {
      return nil
    }
    return count
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    if color == .unknown { return "color must be red, yellow or green" }
    if let problem = windowProblem { return problem }
    if !(1...1000).contains(points) { return "points must be between 1 and 1000, not \(points)" }
    if let lead, !(0...1000).contains(lead) { return "lead must be between 0 and 1000, not \(lead)" }
    if let shade, !(shade >= 0 && shade <= 1) { return "shade must be between 0 and 1, not \(shade)" }
    if let veto = redVeto {
      if color == .red { return "redVeto cannot keep a red faint lamp off" }
      for bound in [veto.lower, veto.upper] where !(bound >= 0 && bound <= 360) {
        return "redVeto lower and upper must be in 0...360 degrees, not \(bound)"
      }
      if let floor = veto.saturationFloor, !(floor >= 0 && floor < 1) {
        return "redVeto saturationFloor must be in 0..<1, not \(floor)"
      }
    }
    return nil
  }
}
