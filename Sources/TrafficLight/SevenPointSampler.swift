import TrafficLightKernels

/// Which way a light's lamps run.
public enum Orientation: String, Sendable, Codable, CaseIterable {
  /// Lamps stacked top to bottom: sample down the centre column.
  case vertical
  /// Lamps side by side (common in Japan): sample along the centre row.
  case horizontal
}

/// One sampled pixel: where, its class, and its brightness (the largest channel of the
/// blurred pixel, 0...255).
public struct SamplePoint: Sendable, Equatable, Hashable {
  public var x: Int
  public var y: Int
  public var pixelClass: PixelClass
  public var value: UInt8

  public init(x: Int, y: Int, pixelClass: PixelClass, value: UInt8 = 0) {
    self.x = x
    self.y = y
    self.pixelClass = pixelClass
    self.value = value
  }
}

/// When no point has a colour: read the lit lamp from brightness alone. For lamps so blown
/// out that no hue survives (white discs in a painted housing), the lit lamp is the one
/// whose darkest centre-line sample is brightest.
public struct BrightnessFallback: Sendable, Equatable, Hashable, Codable {
  /// How much brighter (in 0...1 of value) the lit third's darkest sample must be than the
  /// next third's.
  public var margin: Double
  /// How bright (in 0...1) the lit third's darkest sample must be.
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
/// votes gives `unknown`, or the `brightnessFallback`'s answer when one is set. With the
/// defaults (one column, weight 1, no brightness rules) this is the article's rule with its
/// bugs fixed.
public struct SevenPointSampler: Sendable, Equatable {
  public var points: Int
  public var columns: Int
  public var orientation: Orientation
  public var positionWeight: Double
  /// The lamps from the top (or left) of the light.
  public var lampOrder: [SignalColor]
  public var relativeBrightness: Double
  public var brightnessFallback: BrightnessFallback?

  public init(
    points: Int = 7, columns: Int = 1, orientation: Orientation = .vertical, positionWeight: Double = 1,
    lampOrder: [SignalColor] = [.red, .yellow, .green], relativeBrightness: Double = 0,
    brightnessFallback: BrightnessFallback? = nil
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
    sample(width: map.width, height: map.height) { x, y in (map[x, y], 255) }
  }

  /// Samples a crop through `probe(x, y)`, called once per point, which gives the point's
  /// class and brightness: callers classify only the pixels sampled.
  public func sample(
    width: Int, height: Int, probe: (_ x: Int, _ y: Int) -> (PixelClass, UInt8)
  ) -> FrameDecision {
    let positions = positions(width: width, height: height)
    let samples = positions.map { position in
      let (pixelClass, value) = probe(position.x, position.y)
      return SamplePoint(x: position.x, y: position.y, pixelClass: pixelClass, value: value)
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
        return (classifier.classify(r: r, g: g, b: b), max(r, g, b))
      }
    }
  }

  /// The third whose darkest centre-line sample is brightest by the fallback's margin.
  private func litThird(samples: [SamplePoint], positions: [Position], _ fallback: BrightnessFallback) -> Int?
  {
    var darkest = [Int](repeating: Int.max, count: 3)
    for (sample, position) in zip(samples, positions) where position.onCentreLine {
      darkest[position.third] = min(darkest[position.third], Int(sample.value))
    }
    let present = darkest.enumerated().filter { $0.element != Int.max }
    guard present.count == 3 else { return nil }
    let ranked = present.sorted { $0.element > $1.element }
    let top = Double(ranked[0].element) / 255
    let second = Double(ranked[1].element) / 255
    guard top - second > fallback.margin, top > fallback.floor else { return nil }
    return ranked[0].offset
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
