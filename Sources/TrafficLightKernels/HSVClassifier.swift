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
/// so `h > t` is `1000 (base d) + 60000 n > (1000 t) d`, exact in `Int`. Saturation and value
/// compare the same way. The result equals a `Double` evaluation of the SPEC's formulas on
/// every one of the 2^24 colours (tested).
public struct HSVClassifier: Sendable {
  public let thresholds: HSVThresholds
  private let lowestSaturation: Int  // thousandths: the lowest of the colours' floors
  private let value: Int  // thousandths, times 255
  /// Per colour: hue bounds in thousandths of a degree, saturation floor in thousandths.
  private let green: (lower: Int, upper: Int, saturation: Int)
  private let yellow: (lower: Int, upper: Int, saturation: Int)
  private let red: (lower: Int, upper: Int, saturation: Int)

  public init(thresholds: HSVThresholds) {
    self.thresholds = thresholds
    func milli(_ x: Double) -> Int { Int((x * 1000).rounded()) }
    func rule(_ range: HueRange) -> (Int, Int, Int) {
      (milli(range.lower), milli(range.upper), milli(range.saturationFloor ?? thresholds.saturationFloor))
    }
    green = rule(thresholds.green)
    yellow = rule(thresholds.yellow)
    red = rule(thresholds.red)
    lowestSaturation = min(green.saturation, yellow.saturation, red.saturation)
    value = milli(thresholds.valueFloor) * 255
  }

  /// The class of one pixel.
  @inline(__always)
  public func classify(r: UInt8, g: UInt8, b: UInt8) -> PixelClass {
    let r = Int(r)
    let g = Int(g)
    let b = Int(b)
    let high = max(r, g, b)
    let d = high &- min(r, g, b)
    // d == 0 is grey (saturation 0, hue undefined): never a colour.
    guard d > 0, 1000 &* d > lowestSaturation &* high, 1000 &* high > value else { return .none }
    let scaledHue: Int  // hue * 1000 * d
    if high == r {
      let n = g &- b
      scaledHue = 60_000 &* n &+ (n < 0 ? 360_000 &* d : 0)
    } else if high == g {
      scaledHue = 60_000 &* (b &- r) &+ 120_000 &* d
    } else {
      scaledHue = 60_000 &* (r &- g) &+ 240_000 &* d
    }
    let saturation = 1000 &* d
    if Self.contains(green, scaledHue, d) { return saturation > green.saturation &* high ? .green : .none }
    if Self.contains(yellow, scaledHue, d) { return saturation > yellow.saturation &* high ? .yellow : .none }
    if Self.contains(red, scaledHue, d) { return saturation > red.saturation &* high ? .red : .none }
    return .none
  }

  @inline(__always)
  private static func contains(_ rule: (lower: Int, upper: Int, saturation: Int), _ scaledHue: Int, _ d: Int)
    -> Bool
  {
    let above = scaledHue > rule.lower &* d
    let below = scaledHue < rule.upper &* d
    return rule.lower <= rule.upper ? (above && below) : (above || below)
  }

  /// Every pixel of `image`, classified.
  ///
  /// Complexity: O(width * height).
  public func classify(_ image: RGBImage) -> ClassMap {
    let count = image.pixelCount
    let classes = [PixelClass](unsafeUninitializedCapacity: count) { out, initialized in
      image.read { bytes in
        for i in 0..<count {
          out[i] = classify(r: bytes[3 * i], g: bytes[3 * i + 1], b: bytes[3 * i + 2])
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
