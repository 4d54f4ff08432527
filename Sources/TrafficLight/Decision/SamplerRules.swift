// The sampler's rules beyond counting points, each optional profile data: what decides a
// frame whose vote is ambiguous (red against yellow) or empty (no point has a colour).

/// Which points a rule counts: a hue window and floors on saturation and value. The warm
/// split and the faint lamp both carry one (as flat JSON keys of their own).
protocol TintWindow {
  /// The hue window in degrees, `lower < h < upper` (wrapping through 0 when `lower > upper`,
  /// as in `HueRange`).
  var lower: Double { get }
  var upper: Double { get }
  /// A counted point's saturation and value (in 0...1) are above these.
  var saturationFloor: Double { get }
  var valueFloor: Double { get }
}

extension TintWindow {
  /// Whether `pixel`, whose saturation is `saturation`, is above both floors with its hue
  /// in the window.
  func admits(_ pixel: PixelColor, saturation: Double) -> Bool {
    guard saturation > saturationFloor, Double(pixel.value) / 255 > valueFloor else { return false }
    let h = pixel.hue
    return lower < upper ? (h > lower && h < upper) : (h > lower || h < upper)
  }

  /// What is wrong with the window and floors, with `name` leading the message, if anything.
  func windowProblem(_ name: String) -> String? {
    for bound in [lower, upper] where !(bound >= 0 && bound <= 360) {
      return "\(name) lower and upper must be in 0...360 degrees, not \(bound)"
    }
    if !(saturationFloor >= 0 && saturationFloor < 1 && valueFloor >= 0 && valueFloor < 1) {
      return "\(name) saturationFloor and valueFloor must be in 0..<1"
    }
    return nil
  }
}

/// A washed-out lamp read from its faint tint.
///
/// Some lamps are photographed so over-exposed that even their rim keeps only a faint tint:
/// washed-out green lamps go near-white with a cyan cast (saturation 0.05 to 0.15), and no
/// point passes the classifier's floors. When no point has a colour, at least `points`
/// points in `color`'s place (its third of the light, by the lamp order) whose hue lies in
/// the window and whose saturation and value are above the floors read `color`, before the
/// brightness fallback. Faint tints are evidence only where they are specific: on the shared
/// datasets, the red and yellow lights with no coloured point carry at most one faint green
/// point in green's place (measured with hue 90 to 200 and saturation above 0.06), the green
/// ones mostly three or more; faint warm tints, by contrast, come from painted housings and
/// pinkish greys everywhere.
///
/// A faint red tint in red's place keeps the lamp off (`redVeto`). It is too common to read
/// red by, but where the faint lamp would answer, it is what a lit red lamp leaves: without
/// the veto, a refit from `profiles/untrained.json` read a held-out pale red crop with a
/// grey-blue cast green from the sky's tint in green's place, the one mistake the search
/// weighs most. With `default` the veto changes one reading of the shared datasets, for
/// the better: an amber lamp whose halo reaches red's place, above a lime sign.
public struct FaintLamp: Sendable, Equatable, Hashable, Codable, TintWindow {
  public var color: SignalColor
  /// The hue window in degrees, `lower < h < upper` (wrapping through 0 when `lower > upper`).
  public var lower: Double
  public var upper: Double
  /// A faint point's saturation and value (in 0...1) are above these.
  public var saturationFloor: Double
  public var valueFloor: Double
  /// How many faint points in `color`'s place it takes.
  public var points: Int
  /// The hue window of a red tint that keeps the lamp off, or `nil` for no veto: one point
  /// in red's place with its hue in the window and its saturation and value above the
  /// floors (the window's own saturation floor, if it has one, instead of `saturationFloor`).
  /// Not for a red faint lamp.
  public var redVeto: HueRange?

  public init(
    color: SignalColor, lower: Double, upper: Double, saturationFloor: Double, valueFloor: Double,
    points: Int,
    redVeto: HueRange? = nil
  ) {
    self.color = color
    self.lower = lower
    self.upper = upper
    self.saturationFloor = saturationFloor
    self.valueFloor = valueFloor
    self.points = points
    self.redVeto = redVeto
  }

  /// Whether at least `points` of `samples` are faint `color` points in `color`'s place, by
  /// `sampler`'s lamp order, and no point in red's place is vetoing.
  ///
  /// Complexity: O(samples).
  func isLit(samples: [SamplePoint], positions: [SevenPointSampler.Position], in sampler: SevenPointSampler)
    -> Bool
  {
    let veto = redVeto.map {
      Tint(
        lower: $0.lower, upper: $0.upper, saturationFloor: $0.saturationFloor ?? saturationFloor,
        valueFloor: valueFloor)
    }
    var count = 0
    for (sample, position) in zip(samples, positions) {
      let lamp = sampler.lamp(inThird: position.third)
      let saturation = sample.color.saturation
      if lamp == color, admits(sample.color, saturation: saturation) { count += 1 }
      if lamp == .red, let veto, veto.admits(sample.color, saturation: saturation) { return false }
    }
    return count >= points
  }

  /// A window and floors on their own.
  private struct Tint: TintWindow {
    let lower: Double
    let upper: Double
    let saturationFloor: Double
    let valueFloor: Double
  }
}

/// Red against yellow by hue, decided by the most saturated warm point.
///
/// Counting red and yellow points confuses the two on real photos: red lamps carry an orange
/// halo, and blown-out amber lamps a red-orange rim, so either can end up with more points
/// of the other colour. The most saturated part of the lamp keeps its hue better: on the US
/// crops, under 10 degrees on red lamps and 11 to 60 on amber ones. So when the vote picks
/// red or yellow, the warm point with the highest saturation decides: yellow if its hue,
/// counted from -180 to 180 degrees, is above `hue`, red otherwise. With no warm point the
/// vote stands, and so it does when position already settles it: a point of the vote's
/// colour on that colour's lamp, and none of the other warm colour on its own. (A painted
/// yellow housing is then not read as the lamp: on the car park, a refit that let the
/// housing's orange points vote red lost 3 of 8 held-out red frames to the split.)
public struct WarmSplit: Sendable, Equatable, Hashable, Codable, TintWindow {
  /// The boundary between red and yellow, in degrees from -180 to 180 (negative is magenta-red).
  public var hue: Double
  /// A warm point's hue lies between `lower` and `upper` (degrees, `lower < h < upper`,
  /// wrapping through 0 when `lower > upper`, as in `HueRange`).
  public var lower: Double
  public var upper: Double
  /// A warm point's saturation and value (in 0...1) are above these.
  public var saturationFloor: Double
  public var valueFloor: Double

  public init(hue: Double, lower: Double, upper: Double, saturationFloor: Double, valueFloor: Double) {
    self.hue = hue
    self.lower = lower
    self.upper = upper
    self.saturationFloor = saturationFloor
    self.valueFloor = valueFloor
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
}

/// When no point has a colour: read the lit lamp from brightness alone. For lamps so blown
/// out that no hue survives (white discs in a painted housing), the lit lamp is the third
/// whose centre-line samples are brightest, by their median: one dark point (a visor's
/// shadow, the gap between two lamps) does not spoil a third, nor one bright point (sky
/// past the housing's end) lift it. (With the default profile of the time, 132 US crops and
/// 38 lit car-park frames fell back; the darkest sample, used before, read 124 and 35 of
/// them right, the median 126 and 36.)
public struct BrightnessFallback: Sendable, Equatable, Hashable, Codable {
  /// How much brighter (in 0...1 of value) the lit third's median must be than the next
  /// third's.
  public var margin: Double
  /// How bright (in 0...1) the lit third's median must be.
  public var floor: Double

  public init(margin: Double, floor: Double) {
    self.margin = margin
    self.floor = floor
  }

  /// The third whose centre-line samples have the brightest median, by more than `margin`
  /// and above `floor`, or `nil`. (For an even count, the median is the mean of the middle
  /// two.)
  func litThird(samples: [SamplePoint], positions: [SevenPointSampler.Position]) -> Int? {
    var values: [[Int]] = [[], [], []]
    for (sample, position) in zip(samples, positions) where position.onCentreLine {
      values[position.third].append(Int(sample.value))
    }
    guard values.allSatisfy({ !$0.isEmpty }) else { return nil }
    let medians = values.map { third in
      let sorted = third.sorted()
      return Double(sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2 / 255
    }
    let ranked = medians.indices.sorted { medians[$0] > medians[$1] }
    let (top, second) = (medians[ranked[0]], medians[ranked[1]])
    guard top - second > margin, top > floor else { return nil }
    return ranked[0]
  }
}
