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
/// that colour is the answer. Otherwise the answer stands.
public struct WarmPlace: CascadeRule, Hashable {
  /// The rule's kind in profile JSON.
  public static let kind = "warmPlace"

  /// The rule; it has no parameters.
  public init() {}

  /// The lamp of the third that holds every warm point, with the vote's confidence in red and
  /// yellow together; nil when the answer is not warm or the warm points are not one lamp's.
  public func revise(_ current: SignalColor, _ context: CascadeContext) -> CascadeRevision? {
    guard current == .red || current == .yellow else { return nil }
    // Each third's rows of points, the rows its warm points lie on, and whether it holds a
    // point as bright as the brightest warm one.
    let isWarm = { (sample: SamplePoint) in sample.pixelClass == .red || sample.pixelClass == .yellow }
    let brightestWarm = context.samples.lazy.filter(isWarm).map(\.value).max() ?? 255
    var rows: [Set<Int>] = [[], [], []]
    var warmRows: [Set<Int>] = [[], [], []]
    var brightThirds = Set<Int>()
    for sample in context.samples where rows.indices.contains(sample.third) {
      rows[sample.third].insert(sample.row)
      if isWarm(sample) { warmRows[sample.third].insert(sample.row) }
      if sample.value >= brightestWarm { brightThirds.insert(sample.third) }
    }
    let lit = warmRows.indices.filter { !warmRows[$0].isEmpty }
    guard lit.count == 1, let third = lit.first, brightThirds == [third] else { return nil }
    let middleRow = rows[third].sorted()[rows[third].count / 2]
    guard warmRows[third].contains(middleRow), let lamp = context.lamp(inThird: third),
      lamp == .red || lamp == .yellow
    else { return nil }
    return CascadeRevision(lamp, confidence: context.voteConfidence(for: [.red, .yellow]))
  }

  /// Nothing can be wrong: the rule has no values.
  public var problem: String? { nil }
}
