import TrafficLightKernels

/// Which way a light's lamps run.
public enum Orientation: String, Sendable, Codable, CaseIterable {
  /// Lamps stacked top to bottom: the grid's rows run down the light.
  case vertical
  /// Lamps side by side (common in Japan): the grid's rows run along it, left to right.
  case horizontal
  /// Told by the light's shape: a region wider than tall is horizontal, any other vertical.
  case auto

  /// The orientation of a `width` x `height` light: `auto` settled by the shape, the others
  /// as they are.
  public func resolved(forWidth width: Int, height: Int) -> Orientation {
    guard self == .auto else { return self }
    return width > height ? .horizontal : .vertical
  }
}

/// Where the points are read on a light: `points` rows along it, on `columns` lines across.
///
/// Row k (1...points) lies at `(k * H) / (points + 1)` along a light H pixels long (integer
/// division: the rows split the length into `points + 1` equal parts); line j (1...columns)
/// at `(j * W) / (columns + 1)` across a light W pixels wide, the centre line alone when
/// `columns` is 1. A light too small for distinct rows repeats rows; an empty one has no
/// points. With the defaults (seven points on one line, vertical) this is SPEC section 4's
/// sampler, the article's placement with its six-point bug fixed.
public struct SampleGrid: Sendable, Equatable, Hashable {
  /// How many rows of points run down the light's length.
  public var points: Int
  /// How many points each row has across the light's width.
  public var columns: Int
  /// Which way the lamps run: the rows are spread along it.
  public var orientation: Orientation

  /// A grid of `points` rows of `columns` points each, along `orientation`.
  public init(points: Int = 7, columns: Int = 1, orientation: Orientation = .vertical) {
    precondition(points >= 1, "the grid needs at least one point")
    precondition(columns >= 1, "the grid needs at least one column")
    self.points = points
    self.columns = columns
    self.orientation = orientation
  }

  /// One grid position: pixel coordinates, which row along the light and which third of it
  /// the position lies in (0 at the top or left), and whether it is on the centre line.
  public struct Position: Sendable, Equatable, Hashable {
    /// The column, in pixels of the region.
    public var x: Int
    /// The row, in pixels of the region.
    public var y: Int
    /// Which third of the light the position lies in (0 at the top or left).
    public var third: Int
    /// Which row of points across the light the position is on (0 at the top or left).
    public var row: Int
    /// Whether the position is on the light's centre line.
    public var onCentreLine: Bool

    /// A position at (`x`, `y`) on `row`, in `third`, on the centre line or not.
    public init(x: Int, y: Int, row: Int = 0, third: Int = 0, onCentreLine: Bool = true) {
      self.x = x
      self.y = y
      self.row = row
      self.third = third
      self.onCentreLine = onCentreLine
    }
  }

  /// The positions on a `width` x `height` light, row by row along it.
  ///
  /// Complexity: O(points * columns).
  public func positions(width: Int, height: Int) -> [Position] {
    // (points and columns below 1 can only come from fields set past the initializer.)
    guard width > 0, height > 0, points >= 1, columns >= 1 else { return [] }
    let orientation = self.orientation.resolved(forWidth: width, height: height)
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
        result.append(Position(x: x, y: y, row: k - 1, third: third, onCentreLine: j == centre))
      }
    }
    return result
  }

  /// This grid turned to `orientation` (the way a located light's lamps run), or as it is
  /// for `nil` (the locator did not say).
  public func turned(_ orientation: Orientation?) -> SampleGrid {
    var grid = self
    grid.orientation = orientation ?? grid.orientation
    return grid
  }

  /// The rows the points of a `width` x `height` region lie on (`positions`), each once, top
  /// to bottom.
  public func rows(width: Int, height: Int) -> [Int] {
    guard width > 0, height > 0, points >= 1, columns >= 1 else { return [] }
    // Down a vertical light the rows are the points'; across a horizontal one, the columns'.
    let lines = orientation.resolved(forWidth: width, height: height) == .vertical ? points : columns
    var rows: [Int] = []
    rows.reserveCapacity(lines)
    for k in 1...lines {
      let y = min((k * height) / (lines + 1), height - 1)
      if y != rows.last { rows.append(y) }
    }
    return rows
  }

  /// The pixel coordinates read, in order: see `positions`.
  public func coordinates(width: Int, height: Int) -> [(x: Int, y: Int)] {
    positions(width: width, height: height).map { (x: $0.x, y: $0.y) }
  }

  /// The points of a light read through `probe(x, y)`, called once per position, which
  /// gives the pixel's class and blurred colour: callers classify only the pixels read.
  public func sample(
    width: Int, height: Int, probe: (_ x: Int, _ y: Int) -> (PixelClass, PixelColor)
  ) -> [SamplePoint] {
    positions(width: width, height: height).map { position in
      let (pixelClass, color) = probe(position.x, position.y)
      return SamplePoint(position: position, pixelClass: pixelClass, color: color)
    }
  }

  /// The points of an already blurred light, each classified with `classifier`.
  public func sample(blurred light: RGBImage, classifier: HSVClassifier) -> [SamplePoint] {
    light.read { bytes in
      sample(width: light.width, height: light.height) { x, y in
        let i = (y * light.width + x) * 3
        let (r, g, b) = (bytes[i], bytes[i + 1], bytes[i + 2])
        return (classifier.classify(r: r, g: g, b: b), PixelColor(r: r, g: g, b: b))
      }
    }
  }

  /// The points of a class map. Its colours are unknown: every point counts as a full-bright
  /// grey, so rules that read hue or brightness find nothing.
  public func sample(_ map: ClassMap) -> [SamplePoint] {
    sample(width: map.width, height: map.height) { x, y in (map[x, y], PixelColor(gray: 255)) }
  }
}

/// One point read: its grid position, its class, and its blurred colour.
public struct SamplePoint: Sendable, Equatable, Hashable {
  /// Where on the grid the point lies.
  public var position: SampleGrid.Position
  /// The point's class.
  public var pixelClass: PixelClass
  /// The point's blurred colour.
  public var color: PixelColor

  /// A point at `position` read as `pixelClass`, with its blurred colour.
  public init(position: SampleGrid.Position, pixelClass: PixelClass, color: PixelColor = PixelColor(gray: 0))
  {
    self.position = position
    self.pixelClass = pixelClass
    self.color = color
  }

  /// A point at (x, y) on the centre line, in the top third.
  public init(x: Int, y: Int, pixelClass: PixelClass, color: PixelColor = PixelColor(gray: 0)) {
    self.init(position: SampleGrid.Position(x: x, y: y), pixelClass: pixelClass, color: color)
  }

  /// The point's column, in pixels of the region.
  public var x: Int { position.x }
  /// The point's row, in pixels of the region.
  public var y: Int { position.y }
  /// Which third of the light the point lies in (0 at the top or left).
  public var third: Int { position.third }
  /// Which row of points across the light the point is on (0 at the top or left).
  public var row: Int { position.row }
  /// Whether the point is on the light's centre line.
  public var onCentreLine: Bool { position.onCentreLine }

  /// The brightness, 0...255: the largest channel of the blurred pixel.
  public var value: UInt8 { color.value }
}
