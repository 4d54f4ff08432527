/// What one pixel looks like to the classifier.
public enum PixelClass: UInt8, Sendable, CaseIterable {
  case none = 0
  case red = 1
  case yellow = 2
  case green = 3
}

/// An open interval of hues in degrees, `lower < h < upper`. When `lower > upper` it wraps
/// through 0: `h > lower || h < upper` (red, for example, is `340 ... 5`).
///
/// `saturationFloor`, when set, replaces the thresholds' common floor for this colour:
/// over-exposed green lamps, for example, keep less saturation than red ones.
public struct HueRange: Sendable, Equatable, Hashable, Codable {
  public var lower: Double
  public var upper: Double
  public var saturationFloor: Double?

  public init(_ lower: Double, _ upper: Double, saturationFloor: Double? = nil) {
    self.lower = lower
    self.upper = upper
    self.saturationFloor = saturationFloor
  }
}

/// The per-pixel rules, as data.
///
/// A pixel is `none` unless its value `v = max` (in 0...1) is above `valueFloor`; then it
/// takes the first of green, yellow, red whose hue range holds its hue, provided its
/// saturation `s = (max - min) / max` is above that colour's floor (the range's own, or
/// `saturationFloor`); otherwise it is `none`. All comparisons are strict. Thresholds are
/// resolved to thousandths (of a degree, of saturation, of value).
public struct HSVThresholds: Sendable, Equatable, Hashable, Codable {
  public var saturationFloor: Double
  public var valueFloor: Double
  public var green: HueRange
  public var yellow: HueRange
  public var red: HueRange

  public init(
    saturationFloor: Double, valueFloor: Double = 0, green: HueRange, yellow: HueRange,
    red: HueRange
  ) {
    self.saturationFloor = saturationFloor
    self.valueFloor = valueFloor
    self.green = green
    self.yellow = yellow
    self.red = red
  }

  /// The article's thresholds, exactly: `s > 0.8`; green 140...220, yellow 5...60, red
  /// above 340 or below 5.
  public static let seed = HSVThresholds(
    saturationFloor: 0.8, green: HueRange(140, 220), yellow: HueRange(5, 60),
    red: HueRange(340, 5))
}

/// The HSV classifier of SPEC section 3 in integer arithmetic, without division.
///
/// With `d = max - min > 0` on 0...255 channels, the hexcone hue is `h = base + 60 n / d`,
/// so `h > t` is `1000 (base d) + 60000 n > (1000 t) d`, exact in `Int32` (every product is
/// below 2^27). Saturation and value compare the same way. The result equals a `Double`
/// evaluation of the SPEC's formulas on every one of the 2^24 colours (tested).
///
/// Two forms compute it, one per `KernelPath`. The host-tuned form evaluates the rules
/// without branches: every comparison becomes a 0-or-1 mask and the class is put together
/// from the masks, so a loop over a row of pixels compiles to vector code, which a chain of
/// data-dependent branches does not (`maskCode`). The baseline form branches, which suits a
/// target without wide vector multiplies (`branchingCode`). BENCHMARKS.md has the timings.
/// `classify(r:g:b:)` and `classify(_:)` share the form of `path`, so the single pixel and
/// the whole image agree by construction.
public struct HSVClassifier: Sendable {
  public let thresholds: HSVThresholds
  /// The form that runs.
  public let path: KernelPath
  /// The thresholds in the units each form compares in.
  private let rules: Rules
  private let floatRules: FloatRules

  /// One colour's rule: hue bounds in thousandths of a degree, saturation floor in
  /// thousandths, and 1 when the range wraps through 0 (`lower > upper`).
  private typealias Rule = (lower: Int32, upper: Int32, saturation: Int32, wraps: Int32)

  /// The thresholds in the integer units the formula compares in.
  private struct Rules: Sendable {
    var lowestSaturation: Int32  // thousandths: the lowest of the colours' floors
    /// `max / 255 > valueFloor` is `1000 max > 255 (1000 valueFloor)`, which for an integer
    /// `max` is `max > floor(255 (1000 valueFloor) / 1000)`: this level.
    var valueLevel: Int32
    var green: Rule
    var yellow: Rule
    var red: Rule
  }

  public init(thresholds: HSVThresholds, path: KernelPath = .built) {
    self.thresholds = thresholds
    self.path = path
    // Thresholds outside these bounds mean the same as the bounds themselves (no hue is
    // below 0 or above 360, no saturation or value above 1), and keep every product in Int32.
    func milli(_ x: Double, within bounds: ClosedRange<Double>) -> Int32 {
      Int32((min(max(x, bounds.lowerBound), bounds.upperBound) * 1000).rounded())
    }
    func rule(_ range: HueRange) -> Rule {
      let lower = milli(range.lower, within: -1...361)
      let upper = milli(range.upper, within: -1...361)
      let saturation = milli(range.saturationFloor ?? thresholds.saturationFloor, within: -1...2)
      return (lower, upper, saturation, range.lower > range.upper ? 1 : 0)
    }
    let green = rule(thresholds.green)
    let yellow = rule(thresholds.yellow)
    let red = rule(thresholds.red)
    let value = milli(thresholds.valueFloor, within: -1...2) * 255
    let integer = Rules(
      lowestSaturation: min(green.saturation, yellow.saturation, red.saturation),
      valueLevel: value >= 0 ? value / 1000 : -((999 - value) / 1000), green: green, yellow: yellow, red: red)
    rules = integer
    floatRules = FloatRules(integer)
  }

  /// The class of one pixel.
  @inline(__always)
  public func classify(r: UInt8, g: UInt8, b: UInt8) -> PixelClass {
    unsafeBitCast(code(r: r, g: g, b: b), to: PixelClass.self)
  }

  /// The `PixelClass` raw value of one pixel, by `path`'s form.
  @inline(__always)
  private func code(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
    path == .hostTuned
      ? Self.maskCode(r: r, g: g, b: b, floatRules) : Self.branchingCode(r: r, g: g, b: b, rules)
  }

  /// The formula with a branch per decision: the form for the baseline target, where the
  /// vectorised form would emulate 32-bit multiplies and blends.
  @inline(__always)
  private static func branchingCode(r: UInt8, g: UInt8, b: UInt8, _ rules: Rules) -> UInt8 {
    let r = Int32(r)
    let g = Int32(g)
    let b = Int32(b)
    let high = max(r, max(g, b))
    let d = high &- min(r, min(g, b))
    let saturation = 1000 &* d
    guard d > 0, saturation > rules.lowestSaturation &* high, high > rules.valueLevel else { return 0 }
    let hue: Int32  // hue * 1000 * d
    if high == r {
      let n = g &- b
      hue = 60_000 &* n &+ (n < 0 ? 360_000 &* d : 0)
    } else if high == g {
      hue = 60_000 &* (b &- r) &+ 120_000 &* d
    } else {
      hue = 60_000 &* (r &- g) &+ 240_000 &* d
    }
    @inline(__always) func holds(_ rule: Rule) -> Bool {
      let above = hue > rule.lower &* d
      let below = hue < rule.upper &* d
      return rule.wraps == 0 ? (above && below) : (above || below)
    }
    if holds(rules.green) { return saturation > rules.green.saturation &* high ? 3 : 0 }
    if holds(rules.yellow) { return saturation > rules.yellow.saturation &* high ? 2 : 0 }
    if holds(rules.red) { return saturation > rules.red.saturation &* high ? 1 : 0 }
    return 0
  }

  /// `Rules` with the thresholds as `Float`s (exact: all are integers below 2^24).
  private struct FloatRules: Sendable {
    typealias Rule = (lower: Float, upper: Float, saturation: Float, wraps: Int32)
    var valueLevel: Int32
    var green: Rule
    var yellow: Rule
    var red: Rule

    init(_ rules: Rules) {
      func convert(_ r: HSVClassifier.Rule) -> Rule {
        (Float(r.lower), Float(r.upper), Float(r.saturation), r.wraps)
      }
      valueLevel = rules.valueLevel
      green = convert(rules.green)
      yellow = convert(rules.yellow)
      red = convert(rules.red)
    }
  }

  /// The formula from 0-or-1 masks only, with no branch to take: a loop over pixels
  /// vectorises (16 at a time with AVX-512).
  ///
  /// The comparisons run on `Float` fused multiply-adds, one instruction each where a 32-bit
  /// integer multiply is two, and stay exact: with H = n + k d (the sector k in 0, 2, 4 or 6
  /// and n the difference of the other two channels), the hue test `h > t` is
  /// `60000 H > (1000 t) d`. Here `60000 H` is `2^5 * 1875 H` with `|1875 H| < 2^24`, and the
  /// thresholds, `d` and `max` are integers below 2^24, so every operand is an exact `Float`;
  /// `(1000 t) d - 60000 H` is an integer, and one rounding cannot change its sign or make it
  /// zero. So `fma(1000 t, d, -60000 H) < 0` is exactly `h > t`; saturation likewise.
  @inline(__always)
  private static func maskCode(r: UInt8, g: UInt8, b: UInt8, _ rules: FloatRules) -> UInt8 {
    @inline(__always) func bit(_ condition: Bool) -> Int32 { condition ? 1 : 0 }
    let r = Int32(r)
    let g = Int32(g)
    let b = Int32(b)
    let high = max(r, max(g, b))
    let d = high &- min(r, min(g, b))
    // Red first, then green, is the maximum; n and k as above.
    let n = high == r ? g &- b : (high == g ? b &- r : r &- g)
    let d2 = d &+ d
    let d4 = d2 &+ d2
    let kd = high == r ? (g < b ? d4 &+ d2 : 0) : (high == g ? d2 : d4)  // k d, with adds
    let scaledHue = 60_000 * Float(n &+ kd)  // hue * 1000 * d, exactly
    let span = Float(d)
    let value = Float(high)
    let saturation = 1000 * span  // saturation * 1000 * max
    // d == 0 is grey (saturation 0, hue undefined): never a colour. A colour's own
    // saturation floor is never below the lowest, so that test is left to the colours.
    let lit = bit(d > 0) & bit(high > rules.valueLevel)
    @inline(__always) func holds(_ rule: FloatRules.Rule) -> Int32 {
      let above = bit((-scaledHue).addingProduct(rule.lower, span) < 0)
      let below = bit((-scaledHue).addingProduct(rule.upper, span) > 0)
      return (above & below) | (rule.wraps & (above | below))
    }
    // The first range that holds the hue decides; its own saturation floor then applies.
    let green = holds(rules.green)
    let yellow = holds(rules.yellow) & (green ^ 1)
    let red = holds(rules.red) & (green ^ 1) & (yellow ^ 1)
    let floor =
      green != 0 ? rules.green.saturation : (yellow != 0 ? rules.yellow.saturation : rules.red.saturation)
    let saturated = bit((-saturation).addingProduct(floor, value) < 0)
    let code = green &* 3 | yellow &* 2 | red
    return UInt8(truncatingIfNeeded: code & (0 &- (saturated & lit)))
  }

  /// Classifies `count` interleaved RGB pixels from `pixels` into `classes`, the form
  /// chosen once, outside the loop, so that the mask form's loop stays free of branches.
  @inline(__always)
  private func classifyRun(
    _ pixels: UnsafePointer<UInt8>, count: Int, into classes: UnsafeMutablePointer<UInt8>
  ) {
    if path == .hostTuned {
      let rules = floatRules
      for i in 0..<count {
        classes[i] = Self.maskCode(r: pixels[3 &* i], g: pixels[3 &* i &+ 1], b: pixels[3 &* i &+ 2], rules)
      }
    } else {
      let rules = self.rules
      for i in 0..<count {
        classes[i] = Self.branchingCode(
          r: pixels[3 &* i], g: pixels[3 &* i &+ 1], b: pixels[3 &* i &+ 2], rules)
      }
    }
  }

  /// Every pixel of `image`, classified.
  ///
  /// Complexity: O(width * height).
  public func classify(_ image: RGBImage) -> ClassMap {
    let count = image.pixelCount
    let classes = [PixelClass](unsafeUninitializedCapacity: count) { out, initialized in
      if count > 0 {
        image.read { bytes in
          out.withMemoryRebound(to: UInt8.self) { raw in
            classifyRun(bytes.baseAddress!, count: count, into: raw.baseAddress!)
          }
        }
      }
      initialized = count
    }
    return ClassMap(width: image.width, height: image.height, classes: classes)
  }
}

/// A classified image: one `PixelClass` per pixel, rows top to bottom.
public struct ClassMap: Sendable, Equatable {
  public let width: Int
  public let height: Int
  public let classes: [PixelClass]

  public init(width: Int, height: Int, classes: [PixelClass]) {
    precondition(classes.count == width * height, "one class per pixel")
    self.width = width
    self.height = height
    self.classes = classes
  }

  public subscript(x: Int, y: Int) -> PixelClass {
    precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel out of bounds")
    return classes[y * width + x]
  }
}

extension HSVThresholds {
  enum CodingKeys: String, CodingKey {
    case saturationFloor, valueFloor, green, yellow, red
  }

  /// Decodes thresholds; `valueFloor` may be left out (0: no brightness term).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      saturationFloor: try container.decode(Double.self, forKey: .saturationFloor),
      valueFloor: try container.decodeIfPresent(Double.self, forKey: .valueFloor) ?? 0,
      green: try container.decode(HueRange.self, forKey: .green),
      yellow: try container.decode(HueRange.self, forKey: .yellow),
      red: try container.decode(HueRange.self, forKey: .red))
  }
}
