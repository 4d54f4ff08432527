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

  /// Samples a classified crop. Its colours are unknown: every point counts as a full-bright
  /// grey, so the rules that read hue or brightness (split, faint lamp, fallback) find nothing.
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
    var atTheirLamp = Set<SignalColor>()
    for (sample, position) in zip(samples, positions) {
      guard let color = SignalColor(sample.pixelClass), Double(sample.value) >= dimmest else { continue }
      counts[color] += 1
      let atItsLamp = lamp(inThird: position.third) == color
      scores[color, default: 0] += atItsLamp ? positionWeight : 1
      if atItsLamp { atTheirLamp.insert(color) }
    }
    var color = SignalColor.unknown
    var best = 0.0
    for candidate in SignalColor.byRestrictiveness where scores[candidate, default: 0] > best {
      color = candidate
      best = scores[candidate, default: 0]
    }
    var rule = FrameDecision.Rule.vote
    // Position settles red against yellow when the winner has a point at its own lamp and
    // the other has none at its own; otherwise the warm split decides.
    let positionSettles = atTheirLamp.contains(color) && !atTheirLamp.contains(color == .red ? .yellow : .red)
    if color == .red || color == .yellow, !positionSettles, let split = warmSplit?.decide(samples),
      split != color
    {
      color = split
      rule = .warmSplit
    }
    if color == .unknown, let faint = faintLamp, faint.isLit(samples: samples, positions: positions, in: self)
    {
      color = faint.color
      rule = .faintLamp
    }
    if color == .unknown, let fallback = brightnessFallback,
      let lit = fallback.litThird(samples: samples, positions: positions), let litLamp = lamp(inThird: lit)
    {
      color = litLamp
      rule = .brightnessFallback
    }
    return FrameDecision(samples: samples, counts: counts, color: color, decidedBy: rule)
  }

  /// The lamp `lampOrder` puts in `third` (0 at the top or left), or `nil` for a lamp order
  /// that `Profile.problem` would reject.
  func lamp(inThird third: Int) -> SignalColor? {
    lampOrder.indices.contains(third) ? lampOrder[third] : nil
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
}

/// A frame's sampled points, the points per colour that voted, the colour decided, and the
/// rule that decided it.
public struct FrameDecision: Sendable, Equatable {
  /// Which of the sampler's rules named the colour.
  public enum Rule: String, Sendable, CaseIterable {
    /// The weighted vote of the coloured points (or, with no vote and no other rule, `unknown`).
    case vote
    /// The warm split turned the vote's red into yellow, or its yellow into red.
    case warmSplit
    /// No point voted; a faint lamp's tint named the colour.
    case faintLamp
    /// No point voted; the brightest third named the colour.
    case brightnessFallback
  }

  public let samples: [SamplePoint]
  public let counts: ColorCounts
  public let color: SignalColor
  public let decidedBy: Rule

  public init(samples: [SamplePoint], counts: ColorCounts, color: SignalColor, decidedBy: Rule = .vote) {
    self.samples = samples
    self.counts = counts
    self.color = color
    self.decidedBy = decidedBy
  }

  /// Whether the colour came from brightness alone (no point had a colour).
  public var usedBrightnessFallback: Bool { decidedBy == .brightnessFallback }

  /// No points: an empty crop.
  public static let empty = FrameDecision(samples: [], counts: ColorCounts(), color: .unknown)
}
