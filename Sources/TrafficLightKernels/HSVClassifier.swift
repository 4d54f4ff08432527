import CKernels

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
  /// The lower bound, in degrees.
  public var lower: Double
  /// The upper bound, in degrees.
  public var upper: Double
  /// This colour's saturation floor, in place of the thresholds' common one; nil to use that.
  public var saturationFloor: Double?

  /// The hues between `lower` and `upper` (wrapping through 0 when `lower > upper`).
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
  /// The common saturation floor, 0 to 1.
  public var saturationFloor: Double
  /// The value floor, 0 to 1 (0: no brightness term).
  public var valueFloor: Double
  /// Green's hue range.
  public var green: HueRange
  /// Yellow's hue range.
  public var yellow: HueRange
  /// Red's hue range.
  public var red: HueRange

  /// Thresholds of these floors and ranges.
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
/// evaluation of the SPEC's formulas on every one of the 2^24 colours, at every level
/// (tested).
///
/// The C levels classify a whole image with `tl_classify_rgb8` (`Sources/CKernels/classify.c`:
/// at AVX2 and AVX-512, 32 pixels a step in 16-bit fixed point where the rules fit it
/// (`fitsSixteenBits`), else a branch-free loop the compiler vectorises; 8 lanes of its vector
/// types for `generic` and `sse2`; every form skips blocks too grey or dark for any class); the `portable`
/// level, and every single pixel, take the Swift form below, which branches (at `portable`
/// after the same block test, in Swift SIMD). All give the same classes.
public struct HSVClassifier: Sendable {
  /// The rules it applies.
  public let thresholds: HSVThresholds
  /// Whether its rules fit the 16-bit fixed-point form the AVX2 and AVX-512 levels take
  /// (every bound in whole thousandths of a degree whose ratio to 60 degrees reduces to
  /// 16-bit terms, as all whole degrees and floors in thousandths do); others take a 32-bit
  /// form there. The classes are the same either way.
  public var fitsSixteenBits: Bool {
    var c = rules.c
    return tl_classify_fits_16_bits(&c) != 0
  }
  /// Whether its rules fit the 16-bit form and its saturation floors' terms fit signed
  /// bytes, so that the 16-bit form tests the floors on bytes (floors in tenths do).
  package var floorsFitBytes: Bool {
    var c = rules.c
    return tl_classify_floors_fit_bytes(&c) != 0
  }
  /// The level whole images are classified at.
  public let level: KernelLevel
  /// The thresholds in the units the formula compares in.
  private let rules: Rules

  /// One colour's rule: hue bounds in thousandths of a degree, saturation floor in
  /// thousandths, and 1 when the range wraps through 0 (`lower > upper`).
  fileprivate typealias Rule = (lower: Int32, upper: Int32, saturation: Int32, wraps: Int32)

  /// The thresholds in the integer units the formula compares in.
  fileprivate struct Rules: Sendable {
    var lowestSaturation: Int32  // thousandths: the lowest of the colours' floors
    /// `max / 255 > valueFloor` is `1000 max > 255 (1000 valueFloor)`, which for an integer
    /// `max` is `max > floor(255 (1000 valueFloor) / 1000)`: this level.
    var valueLevel: Int32
    var green: Rule
    var yellow: Rule
    var red: Rule

    /// The same rules for the C kernels.
    var c: tl_hsv_rules {
      func convert(_ r: Rule) -> tl_hue_rule {
        tl_hue_rule(lower: r.lower, upper: r.upper, saturation: r.saturation, wraps: r.wraps)
      }
      return tl_hsv_rules(
        value_level: valueLevel, green: convert(green), yellow: convert(yellow), red: convert(red))
    }
  }

  /// A classifier of `thresholds`, whole images classified at `level`.
  public init(thresholds: HSVThresholds, level: KernelLevel = .best) {
    self.thresholds = thresholds
    self.level = level
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
    rules = Rules(
      lowestSaturation: min(green.saturation, yellow.saturation, red.saturation),
      valueLevel: value >= 0 ? value / 1000 : -((999 - value) / 1000), green: green, yellow: yellow, red: red)
  }

  /// The class of one pixel.
  @inline(__always)
  public func classify(r: UInt8, g: UInt8, b: UInt8) -> PixelClass {
    unsafeBitCast(Self.branchingCode(r: r, g: g, b: b, rules), to: PixelClass.self)
  }

  /// The formula with a branch per decision: the form for single pixels and the `portable`
  /// level.
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

  /// Classifies `count` interleaved RGB pixels from `pixels` into `classes`, at `level`.
  private func classifyRun(
    _ pixels: UnsafePointer<UInt8>, count: Int, into classes: UnsafeMutablePointer<UInt8>
  ) {
    guard level != .portable else {
      let rules = self.rules
      let blank = BlankTest(rules)
      var i = 0
      while i < count {
        if i &+ 17 <= count, blank.holds(at: UnsafeRawPointer(pixels + 3 &* i)) {
          (classes + i).initialize(repeating: 0, count: 16)
          i &+= 16
          continue
        }
        let end = min(i &+ 16, count)
        Self.classifyPixels(pixels, i..<end, into: classes, rules)
        i = end
      }
      return
    }
    var c = rules.c
    tl_classify_rgb8(level.cLevel, pixels, classes, count, &c)
  }

  /// Pixels `range` of `pixels`, classified by the branching formula. Out of line so that
  /// the formula is inlined here: written in the block loop, it was a call a pixel.
  @inline(never)
  private static func classifyPixels(
    _ pixels: UnsafePointer<UInt8>, _ range: Range<Int>, into classes: UnsafeMutablePointer<UInt8>,
    _ rules: Rules
  ) {
    for k in range {
      classes[k] = branchingCode(r: pixels[3 &* k], g: pixels[3 &* k &+ 1], b: pixels[3 &* k &+ 2], rules)
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

  /// Every pixel of `image` classified by this classifier and by `other`: the maps
  /// `classify(_:)` of each gives. When the two have the same hue ranges (they differ in
  /// their floors only, as a lamp finder's bright and dim looks do) and level, the hue is
  /// worked out once: one pass with the lower of each floor, then each classifier's floors
  /// on the pixels that pass, which both classify as that pass's hue; otherwise two passes.
  ///
  /// Complexity: O(width * height).
  public func classify(_ image: RGBImage, alongside other: HSVClassifier) -> (ClassMap, ClassMap) {
    let (mine, theirs) = (rules, other.rules)
    guard level == other.level, mine.sameHues(as: theirs) else {
      return (classify(image), other.classify(image))
    }
    var lower = mine
    lower.valueLevel = min(mine.valueLevel, theirs.valueLevel)
    lower.green.saturation = min(mine.green.saturation, theirs.green.saturation)
    lower.yellow.saturation = min(mine.yellow.saturation, theirs.yellow.saturation)
    lower.red.saturation = min(mine.red.saturation, theirs.red.saturation)
    lower.lowestSaturation = min(lower.green.saturation, lower.yellow.saturation, lower.red.saturation)
    let either = HSVClassifier(thresholds: thresholds, level: level, rules: lower).classify(image).classes
    var (first, second) = (either, either)
    image.read { bytes in
      either.withUnsafeBytes { codes in
        first.withUnsafeMutableBufferPointer { first in
          second.withUnsafeMutableBufferPointer { second in
            forEachNonZeroByte(in: codes) { i in
              let (r, g, b) = (Int32(bytes[3 * i]), Int32(bytes[3 * i + 1]), Int32(bytes[3 * i + 2]))
              let high = max(r, g, b)
              let chroma = 1000 * (high - min(r, g, b))
              let pixelClass = either[i]
              if !mine.passesFloors(of: pixelClass, high: high, chroma: chroma) { first[i] = .none }
              if !theirs.passesFloors(of: pixelClass, high: high, chroma: chroma) { second[i] = .none }
            }
          }
        }
      }
    }
    return (
      ClassMap(width: image.width, height: image.height, classes: first),
      ClassMap(width: image.width, height: image.height, classes: second)
    )
  }

  /// A classifier of rules already worked out (`thresholds` names them only loosely).
  private init(thresholds: HSVThresholds, level: KernelLevel, rules: Rules) {
    self.thresholds = thresholds
    self.level = level
    self.rules = rules
  }
}

extension HSVClassifier.Rules {
  /// Whether `other` has the same hue ranges (bounds and wrapping), whatever its floors.
  fileprivate func sameHues(as other: Self) -> Bool {
    func same(_ a: HSVClassifier.Rule, _ b: HSVClassifier.Rule) -> Bool {
      a.lower == b.lower && a.upper == b.upper && a.wraps == b.wraps
    }
    return same(green, other.green) && same(yellow, other.yellow) && same(red, other.red)
  }

  /// Whether a pixel whose hue lies in `pixelClass`'s range, with largest channel `high` and
  /// 1000 times its chroma `chroma`, is bright and saturated enough for that class.
  fileprivate func passesFloors(of pixelClass: PixelClass, high: Int32, chroma: Int32) -> Bool {
    let floor =
      switch pixelClass {
      case .green: green.saturation
      case .yellow: yellow.saturation
      case .red, .none: red.saturation
      }
    return high > valueLevel && chroma > floor &* high
  }
}

/// What a pixel needs for any class, tested on 16 interleaved pixels at once (the C levels'
/// `blank16`): its largest channel above `value` and its spread (largest less smallest) above
/// `spread`, the least any saturation floor allows there (`1000 d > floor * max` with
/// `max > valueLevel` needs `d > floor * (valueLevel + 1) / 1000`).
private struct BlankTest {
  let value: SIMD16<UInt8>
  let spread: SIMD16<UInt8>
  /// Per third of a block's 48 bytes, the lanes where a pixel starts.
  let starts: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>)

  init(_ rules: HSVClassifier.Rules) {
    let value = min(max(rules.valueLevel, 0), 255)
    let least = rules.lowestSaturation < 0 ? 0 : rules.lowestSaturation * (value + 1) / 1000
    self.value = SIMD16(repeating: UInt8(value))
    spread = SIMD16(repeating: UInt8(min(least, 255)))
    func third(_ t: Int) -> SIMD16<UInt8> {
      var lanes = SIMD16<UInt8>()
      for k in 0..<16 where (16 * t + k) % 3 == 0 { lanes[k] = 0xff }
      return lanes
    }
    starts = (third(0), third(1), third(2))
  }

  /// Whether none of the 16 pixels at `block` can take a class; reads two bytes past them.
  @inline(__always)
  func holds(at block: UnsafeRawPointer) -> Bool {
    @inline(__always) func any(_ offset: Int, _ start: SIMD16<UInt8>) -> SIMD16<UInt8> {
      let first = block.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
      let second = block.loadUnaligned(fromByteOffset: offset &+ 1, as: SIMD16<UInt8>.self)
      let last = block.loadUnaligned(fromByteOffset: offset &+ 2, as: SIMD16<UInt8>.self)
      var high = first.replacing(with: second, where: second .> first)
      high.replace(with: last, where: last .> high)
      var low = first.replacing(with: second, where: second .< first)
      low.replace(with: last, where: last .< low)
      let lit = (high &- low .> spread) .& (high .> value)
      return SIMD16<UInt8>(repeating: 0).replacing(with: start, where: lit)
    }
    let lanes = any(0, starts.0) | any(16, starts.1) | any(32, starts.2)
    let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
    return halves[0] | halves[1] == 0
  }
}

/// Calls `body` with the index of every byte of `bytes` that is not zero, in order, skipping
/// zeros eight at a time (a class map is mostly zeros). Each byte is read when the scan
/// reaches it, so `body` may clear bytes further on and they are skipped.
@inlinable
package func forEachNonZeroByte(in bytes: UnsafeRawBufferPointer, _ body: (Int) -> Void) {
  var i = 0
  while i < bytes.count {
    if i + 8 <= bytes.count, bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) == 0 {
      i += 8
      continue
    }
    if bytes[i] != 0 { body(i) }
    i += 1
  }
}

/// A classified image: one `PixelClass` per pixel, rows top to bottom.
public struct ClassMap: Sendable, Equatable {
  /// The map's width, in pixels.
  public let width: Int
  /// The map's height, in pixels.
  public let height: Int
  /// One class per pixel, rows top to bottom.
  public let classes: [PixelClass]

  /// A map of `classes` (exactly `width * height` of them).
  public init(width: Int, height: Int, classes: [PixelClass]) {
    precondition(classes.count == width * height, "one class per pixel")
    self.width = width
    self.height = height
    self.classes = classes
  }

  /// The class of pixel (`x`, `y`), which must lie in the map.
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
