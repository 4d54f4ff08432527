import TrafficLightKernels

/// Red against yellow by where the warm lamp is lit: a warm lamp is the lamp of the place it
/// sits in.
///
/// Cameras render red lamps anywhere from crimson to orange, and amber lamps blown out with a
/// red rim, so hue alone does not tell the two warm lamps apart; the light's lamp order does.
/// When the answer so far is red or yellow, every warm point (red or yellow by the thresholds,
/// however dim) lies in one third of the light, one of them on the middle row of points of
/// that third (the lamp itself, not a halo reaching over from the lamp beside it), no point
/// as bright as the brightest warm one lies in another third (a blown-out core whose rim the
/// blur spreads into the next third), and the lamp order puts red or yellow in that third,
/// that colour is the answer. Otherwise, and where the points run across the region's
/// length rather than along it (a horizontal head read as a vertical one), the answer stands.
public struct WarmPlace: CascadeRule, Hashable {
  /// The rule's kind in profile JSON.
  public static let kind = "warmPlace"

  /// The rule; it has no parameters.
  public init() {}

  /// The lamp of the third that holds every warm point, with the vote's confidence in red and
  /// yellow together; nil when the answer is not warm or the warm points are not one lamp's.
  public func revise(_ current: SignalColor, _ context: CascadeContext) -> CascadeRevision? {
    guard current == .red || current == .yellow,
      let layout = Layout(context.samples), layout.runsAlongTheRegion
    else { return nil }
    // The thirds holding warm points, holding one on their middle row, and holding a point as
    // bright as the brightest warm one (bit t for third t).
    var (warm, warmOnMiddleRow, bright) = (0, 0, 0)
    for sample in context.samples where (0..<3).contains(sample.third) {
      let t = sample.third
      if sample.isWarm {
        warm |= 1 << t
        if sample.row == layout.middleRow(t) { warmOnMiddleRow |= 1 << t }
      }
      if sample.value >= layout.brightestWarm { bright |= 1 << t }
    }
    guard warm.nonzeroBitCount == 1, bright == warm, warmOnMiddleRow == warm,
      let lamp = context.lamp(inThird: warm.trailingZeroBitCount), lamp == .red || lamp == .yellow
    else { return nil }
    return CascadeRevision(lamp, confidence: context.voteConfidence(for: [.red, .yellow]))
  }

  /// Where the points lie: each third's first and last row of points (a third's rows run
  /// on), the points' extent along and across their rows, and the brightest warm point.
  private struct Layout {
    var first = (Int.max, Int.max, Int.max)
    var last = (Int.min, Int.min, Int.min)
    var (minX, maxX, minY, maxY) = (Int.max, Int.min, Int.max, Int.min)
    /// Whether the rows follow one another down the region (y), not across it (x); nil for
    /// a single row.
    var rowsRunDown: Bool?
    var brightestWarm: UInt8 = 0

    /// The layout of `samples`; nil when none is warm.
    init?(_ samples: [SamplePoint]) {
      var anyWarm = false
      for sample in samples {
        (minX, maxX) = (min(minX, sample.x), max(maxX, sample.x))
        (minY, maxY) = (min(minY, sample.y), max(maxY, sample.y))
        if rowsRunDown == nil, let origin = samples.first, sample.row != origin.row {
          rowsRunDown = sample.y != origin.y
        }
        let row = sample.row
        switch sample.third {
        case 0: (first.0, last.0) = (min(first.0, row), max(last.0, row))
        case 1: (first.1, last.1) = (min(first.1, row), max(last.1, row))
        case 2: (first.2, last.2) = (min(first.2, row), max(last.2, row))
        default: continue
        }
        if sample.isWarm { (anyWarm, brightestWarm) = (true, max(brightestWarm, sample.value)) }
      }
      guard anyWarm else { return nil }
    }

    /// Whether the rows of points follow one another along the region's length: where they
    /// run across it (a horizontal head read as a vertical one), the thirds are not lamps.
    var runsAlongTheRegion: Bool {
      let (along, across) = rowsRunDown == false ? (maxX - minX, maxY - minY) : (maxY - minY, maxX - minX)
      return along >= across
    }

    /// The middle row of points of `third`, which must hold points.
    func middleRow(_ third: Int) -> Int {
      let (a, b) = third == 0 ? (first.0, last.0) : third == 1 ? (first.1, last.1) : (first.2, last.2)
      return a + (b - a + 1) / 2
    }
  }

  /// Nothing can be wrong: the rule has no values.
  public var problem: String? { nil }
}

extension SamplePoint {
  /// Whether the point is red or yellow: of a warm lamp.
  fileprivate var isWarm: Bool { pixelClass == .red || pixelClass == .yellow }
}
