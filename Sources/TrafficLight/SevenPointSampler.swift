import TrafficLightKernels

/// Which way a light's lamps run.
public enum Orientation: String, Sendable, Codable, CaseIterable {
  /// Lamps stacked top to bottom: sample the centre column.
  case vertical
  /// Lamps side by side (common in Japan): sample the centre row.
  case horizontal
}

/// One sampled pixel and its class.
public struct SamplePoint: Sendable, Equatable, Hashable {
  public var x: Int
  public var y: Int
  public var pixelClass: PixelClass

  public init(x: Int, y: Int, pixelClass: PixelClass) {
    self.x = x
    self.y = y
    self.pixelClass = pixelClass
  }
}

/// The per-frame decision of SPEC section 4: `points` samples down the centre column (or
/// along the centre row), counted per colour.
///
/// On a crop of height H the vertical points are `x = W / 2`, `y_k = (k * H) / (points + 1)`
/// for k = 1...points, integer division: they split the height into `points + 1` equal
/// parts. A crop too small for distinct rows repeats rows; an empty crop has no points.
public struct SevenPointSampler: Sendable, Equatable {
  public var points: Int
  public var orientation: Orientation

  public init(points: Int = 7, orientation: Orientation = .vertical) {
    precondition(points >= 1, "the sampler needs at least one point")
    self.points = points
    self.orientation = orientation
  }

  /// The pixel coordinates sampled on a `width` x `height` crop, in order along the light.
  ///
  /// Complexity: O(points).
  public func coordinates(width: Int, height: Int) -> [(x: Int, y: Int)] {
    guard width > 0, height > 0 else { return [] }
    let parts = points + 1
    return (1...points).map { k in
      switch orientation {
      case .vertical: (x: width / 2, y: min((k * height) / parts, height - 1))
      case .horizontal: (x: min((k * width) / parts, width - 1), y: height / 2)
      }
    }
  }

  /// Samples a classified crop.
  public func sample(_ map: ClassMap) -> FrameDecision {
    sample(width: map.width, height: map.height) { x, y in map[x, y] }
  }

  /// Samples a crop through `classAt(x, y)`, called once per point: the sparse path, for
  /// callers that classify only the pixels sampled.
  public func sample(
    width: Int, height: Int, classAt: (_ x: Int, _ y: Int) -> PixelClass
  ) -> FrameDecision {
    let samples = coordinates(width: width, height: height).map { point in
      SamplePoint(x: point.x, y: point.y, pixelClass: classAt(point.x, point.y))
    }
    return FrameDecision(samples: samples)
  }
}

/// A frame's sampled points, their counts per colour and the colour they decide.
public struct FrameDecision: Sendable, Equatable {
  public let samples: [SamplePoint]
  public let counts: ColorCounts

  public init(samples: [SamplePoint]) {
    self.samples = samples
    var counts = ColorCounts()
    for sample in samples {
      if let color = SignalColor(sample.pixelClass) { counts[color] += 1 }
    }
    self.counts = counts
  }

  /// The frame's colour: see `ColorCounts.majority`.
  public var color: SignalColor { counts.majority }
}
