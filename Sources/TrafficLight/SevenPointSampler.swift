import TrafficLightKernels

/// Which way a light's lamps run.
public enum Orientation: String, Sendable, Codable, CaseIterable {
  /// Lamps stacked top to bottom: sample down the centre column.
  case vertical
  /// Lamps side by side (common in Japan): sample along the centre row.
  case horizontal
}

/// A sampled pixel's blurred channels (0...255), with the HSV terms of SPEC section 3 that
/// the sampler's own rules use.
public struct PixelColor: Sendable, Equatable, Hashable {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8

  public init(r: UInt8, g: UInt8, b: UInt8) {
    self.r = r
    self.g = g
    self.b = b
  }

  /// A grey of this level.
  public init(gray: UInt8) {
    self.init(r: gray, g: gray, b: gray)
  }

  /// The largest channel: the pixel's brightness.
  public var value: UInt8 { max(r, g, b) }

  /// `(max - min) / max`; 0 for black and greys.
  public var saturation: Double {
    let high = Double(max(r, g, b))
    return high == 0 ? 0 : (high - Double(min(r, g, b))) / high
  }

  /// The hexcone hue in degrees, 0 ..< 360; 0 for greys.
  public var hue: Double {
    let (r, g, b) = (Double(r), Double(g), Double(b))
    let high = max(r, g, b)
    let spread = high - min(r, g, b)
    guard spread > 0 else { return 0 }
    let hue: Double
    if high == r {
      hue = 60 * (g - b) / spread
    } else if high == g {
      hue = 60 * (b - r) / spread + 120
    } else {
      hue = 60 * (r - g) / spread + 240
    }
    return hue < 0 ? hue + 360 : hue
  }
}

/// One sampled pixel: where, its class, and its blurred colour.
public struct SamplePoint: Sendable, Equatable, Hashable {
  public var x: Int
  public var y: Int
  public var pixelClass: PixelClass
  public var color: PixelColor

  public init(x: Int, y: Int, pixelClass: PixelClass, color: PixelColor = PixelColor(gray: 0)) {
    self.x = x
    self.y = y
    self.pixelClass = pixelClass
    self.color = color
  }

  /// The brightness, 0...255: the largest channel of the blurred pixel.
  public var value: UInt8 { color.value }
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
/// point in green's place (saturation above 0.06), the green ones mostly three or more;
/// faint warm tints, by contrast, come from painted housings and pinkish greys everywhere.
public struct FaintLamp: Sendable, Equatable, Hashable, Codable {
  public var color: SignalColor
  /// The hue window in degrees, `lower < h < upper` (wrapping through 0 when `lower > upper`).
  public var lower: Double
  public var upper: Double
  /// A faint point's saturation and value (in 0...1) are above these.
  public var saturationFloor: Double
  public var valueFloor: Double
  /// How many faint points in `color`'s place it takes.
  public var points: Int

  public init(
    color: SignalColor, lower: Double, upper: Double, saturationFloor: Double, valueFloor: Double, points: Int
  ) {
    self.color = color
    self.lower = lower
    self.upper = upper
    self.saturationFloor = saturationFloor
    self.valueFloor = valueFloor
    self.points = points
  }

  /// Whether at least `points` of `samples` are faint `color` points in `color`'s place.
  ///
  /// Complexity: O(samples).
  func isLit(samples: [SamplePoint], positions: [SevenPointSampler.Position], lampOrder: [SignalColor])
    -> Bool
  {
    var count = 0
    for (sample, position) in zip(samples, positions)
    where lampOrder.indices.contains(position.third) && lampOrder[position.third] == color {
      let pixel = sample.color
      if window(from: lower, to: upper, holds: pixel.hue), pixel.saturation > saturationFloor,
        Double(pixel.value) / 255 > valueFloor
      {
        count += 1
      }
    }
    return count >= points
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
/// vote stands.
public struct WarmSplit: Sendable, Equatable, Hashable, Codable {
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
      guard saturation > strongestSaturation, saturation > saturationFloor,
        Double(color.value) / 255 > valueFloor, window(from: lower, to: upper, holds: color.hue)
      else { continue }
      strongest = color
      strongestSaturation = saturation
    }
    guard let hue = strongest?.hue else { return nil }
    return (hue > 180 ? hue - 360 : hue) > self.hue ? .yellow : .red
  }
}

/// Whether the open hue window from `lower` to `upper` degrees holds `h`, wrapping through
/// 0 when `lower > upper` (as `HueRange` does).
private func window(from lower: Double, to upper: Double, holds h: Double) -> Bool {
  lower < upper ? (h > lower && h < upper) : (h > lower || h < upper)
}

/// When no point has a colour: read the lit lamp from brightness alone. For lamps so blown
/// out that no hue survives (white discs in a painted housing), the lit lamp is the third
/// whose centre-line samples are brightest, by their median: one dark point (a visor's
/// shadow, the gap between two lamps) does not spoil a third, nor one bright point (sky
/// past the housing's end) lift it. (With the default profile, 132 US crops and 38 lit
/// car-park frames fall back; the darkest sample, used before, read 124 and 35 of them
/// right, the median 126 and 36.)
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
}

/// The per-frame decision of SPEC section 4, with the rules a better profile may add.
///
/// Points: `points` rows along the light, `y_k = (k * H) / (points + 1)` for k = 1...points
/// (integer division: the rows split the height into `points + 1` equal parts), on
/// `columns` lines across it, `x_j = (j * W) / (columns + 1)` (the centre column alone when
/// `columns` is 1). A crop too small for distinct rows repeats rows; an empty crop has none.
/// `horizontal` swaps the roles of x and y.
///
/// Decision: each coloured point votes 1 for its colour, or `positionWeight` when its colour
/// is the lamp that `lampOrder` puts in its third of the light; a point dimmer than
/// `relativeBrightness` times the brightest point does not vote. The colour with the most
/// votes wins; a tie goes to the more restrictive colour (red over yellow over green); no
/// votes gives `unknown`, or the `brightnessFallback`'s answer when one is set. When the vote
/// picks red or yellow and a `warmSplit` is set, the split chooses between the two. When no
/// point votes, a `faintLamp` is tried before the `brightnessFallback`. With the defaults (one
/// column, weight 1, no brightness rules, no split, no faint lamp) this is the article's rule
/// with its bugs fixed.
public struct SevenPointSampler: Sendable, Equatable {
  public var points: Int
  public var columns: Int
  public var orientation: Orientation
  public var positionWeight: Double
  /// The lamps from the top (or left) of the light.
  public var lampOrder: [SignalColor]
  public var relativeBrightness: Double
  public var brightnessFallback: BrightnessFallback?
  public var warmSplit: WarmSplit?
  public var faintLamp: FaintLamp?

  public init(
    points: Int = 7, columns: Int = 1, orientation: Orientation = .vertical, positionWeight: Double = 1,
    lampOrder: [SignalColor] = [.red, .yellow, .green], relativeBrightness: Double = 0,
    brightnessFallback: BrightnessFallback? = nil, warmSplit: WarmSplit? = nil, faintLamp: FaintLamp? = nil
  ) {
    precondition(points >= 1, "the sampler needs at least one point")
    precondition(columns >= 1, "the sampler needs at least one column")
    precondition(lampOrder.count == 3, "a light has three lamps")
    self.points = points
    self.columns = columns
    self.orientation = orientation
    self.positionWeight = positionWeight
    self.lampOrder = lampOrder
    self.relativeBrightness = relativeBrightness
    self.brightnessFallback = brightnessFallback
    self.warmSplit = warmSplit
    self.faintLamp = faintLamp
  }

  /// A sampled position: pixel coordinates, which third of the light it lies in, and
  /// whether it is on the centre line.
  public struct Position: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var third: Int
    public var onCentreLine: Bool
  }

  /// The positions sampled on a `width` x `height` crop, row by row along the light.
  ///
  /// Complexity: O(points * columns).
  public func positions(width: Int, height: Int) -> [Position] {
    // (points and columns below 1 can only come from fields set past the initializer.)
    guard width > 0, height > 0, points >= 1, columns >= 1 else { return [] }
    let along = orientation == .vertical ? height : width
    let across = orientation == .vertical ? width : height
    let centre = columns / 2 + 1  // the middle line (the one right of centre when even)
    var result: [Position] = []
    result.reserveCapacity(points * columns)
    for k in 1...points {
      let a = min((k * along) / (points + 1), along - 1)
      let third = min(2, (3 * k) / (points + 1))
      for j in 1...columns {
        let c = min((j * across) / (columns + 1), across - 1)
        let (x, y) = orientation == .vertical ? (c, a) : (a, c)
        result.append(Position(x: x, y: y, third: third, onCentreLine: j == centre))
      }
    }
    return result
  }

  /// The pixel coordinates sampled, in order: see `positions`.
  public func coordinates(width: Int, height: Int) -> [(x: Int, y: Int)] {
    positions(width: width, height: height).map { (x: $0.x, y: $0.y) }
  }

  /// Samples a classified crop (brightness unknown: every point counts as fully bright).
  public func sample(_ map: ClassMap) -> FrameDecision {
    sample(width: map.width, height: map.height) { x, y in (map[x, y], PixelColor(gray: 255)) }
  }

  /// Samples a crop through `probe(x, y)`, called once per point, which gives the point's
  /// class and blurred colour: callers classify only the pixels sampled.
  public func sample(
    width: Int, height: Int, probe: (_ x: Int, _ y: Int) -> (PixelClass, PixelColor)
  ) -> FrameDecision {
    let positions = positions(width: width, height: height)
    let samples = positions.map { position in
      let (pixelClass, color) = probe(position.x, position.y)
      return SamplePoint(x: position.x, y: position.y, pixelClass: pixelClass, color: color)
    }
    let brightest = samples.map(\.value).max() ?? 0
    let dimmest = Double(brightest) * relativeBrightness
    var counts = ColorCounts()
    var scores = [SignalColor: Double]()
    for (sample, position) in zip(samples, positions) {
      guard let color = SignalColor(sample.pixelClass), Double(sample.value) >= dimmest else { continue }
      counts[color] += 1
      let atItsLamp = lampOrder.indices.contains(position.third) && lampOrder[position.third] == color
      scores[color, default: 0] += atItsLamp ? positionWeight : 1
    }
    var color = SignalColor.unknown
    var best = 0.0
    for candidate in SignalColor.byRestrictiveness where scores[candidate, default: 0] > best {
      color = candidate
      best = scores[candidate, default: 0]
    }
    if color == .red || color == .yellow, let split = warmSplit?.decide(samples) {
      color = split
    }
    if color == .unknown, let faint = faintLamp,
      faint.isLit(samples: samples, positions: positions, lampOrder: lampOrder)
    {
      color = faint.color
    }
    var usedFallback = false
    if color == .unknown, let fallback = brightnessFallback,
      let lit = litThird(samples: samples, positions: positions, fallback), lampOrder.indices.contains(lit)
    {
      color = lampOrder[lit]
      usedFallback = true
    }
    return FrameDecision(samples: samples, counts: counts, color: color, usedBrightnessFallback: usedFallback)
  }

  /// Samples an already blurred crop, classifying each sampled pixel with `classifier`.
  public func sample(blurred crop: RGBImage, classifier: HSVClassifier) -> FrameDecision {
    crop.read { bytes in
      sample(width: crop.width, height: crop.height) { x, y in
        let i = (y * crop.width + x) * 3
        let (r, g, b) = (bytes[i], bytes[i + 1], bytes[i + 2])
        return (classifier.classify(r: r, g: g, b: b), PixelColor(r: r, g: g, b: b))
      }
    }
  }

  /// The third whose centre-line samples have the brightest median, by the fallback's
  /// margin. (For an even count, the median is the mean of the middle two.)
  private func litThird(samples: [SamplePoint], positions: [Position], _ fallback: BrightnessFallback) -> Int?
  {
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
    guard top - second > fallback.margin, top > fallback.floor else { return nil }
    return ranked[0]
  }
}

/// A frame's sampled points, the points per colour that voted, and the colour decided.
public struct FrameDecision: Sendable, Equatable {
  public let samples: [SamplePoint]
  public let counts: ColorCounts
  public let color: SignalColor
  /// Whether the colour came from brightness alone (no point had a colour).
  public let usedBrightnessFallback: Bool

  public init(
    samples: [SamplePoint], counts: ColorCounts, color: SignalColor, usedBrightnessFallback: Bool = false
  ) {
    self.samples = samples
    self.counts = counts
    self.color = color
    self.usedBrightnessFallback = usedBrightnessFallback
  }

  /// No points: an empty crop.
  public static let empty = FrameDecision(samples: [], counts: ColorCounts(), color: .unknown)
}
