/// What a flashing light looks like: one colour (yellow or red) lit and dark in turn, at a
/// regular period.
///
/// A stretch of frames is a flashing light when it alternates runs of one warm colour with
/// runs of frames read with no colour, at least `flashes` runs of the colour, each period (from
/// one run's start to the next's), each lit run and each dark run within a quarter (and at
/// least a frame) of their median,
/// and, with a frame rate, the median period from `shortestPeriod` to `longestPeriod` seconds
/// (without one, from 2 to `longestPeriodFrames` frames).
public struct FlashPattern: Sendable, Equatable, Codable {
  /// The fewest lit runs that make a flashing light.
  public var flashes = 4
  /// The shortest period, in seconds.
  public var shortestPeriod = 0.4
  /// The longest period, in seconds.
  public var longestPeriod = 3.0
  /// The longest period in frames, when the frame rate is not known.
  public var longestPeriodFrames = 30

  /// The pattern with these values (the defaults are the project's).
  public init(
    flashes: Int = 4, shortestPeriod: Double = 0.4, longestPeriod: Double = 3, longestPeriodFrames: Int = 30
  ) {
    self.flashes = flashes
    self.shortestPeriod = shortestPeriod
    self.longestPeriod = longestPeriod
    self.longestPeriodFrames = longestPeriodFrames
  }

  enum CodingKeys: String, CodingKey {
    case flashes, shortestPeriod, longestPeriod, longestPeriodFrames
  }

  /// Decodes the JSON form; keys left out take the defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    flashes = try container.decodeIfPresent(Int.self, forKey: .flashes) ?? flashes
    shortestPeriod = try container.decodeIfPresent(Double.self, forKey: .shortestPeriod) ?? shortestPeriod
    longestPeriod = try container.decodeIfPresent(Double.self, forKey: .longestPeriod) ?? longestPeriod
    longestPeriodFrames =
      try container.decodeIfPresent(Int.self, forKey: .longestPeriodFrames) ?? longestPeriodFrames
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    if !(2...1000).contains(flashes) { return "flashing: flashes must be from 2 to 1000, not \(flashes)" }
    if !(shortestPeriod.isFinite && longestPeriod.isFinite && shortestPeriod > 0
      && shortestPeriod <= longestPeriod)
    {
      return "flashing: the periods must be finite, above 0, the shortest no longer than the longest"
    }
    if !(2...100_000).contains(longestPeriodFrames) {
      return "flashing: longestPeriodFrames must be from 2 to 100000, not \(longestPeriodFrames)"
    }
    return nil
  }
}

/// Finds flashing lights (`FlashPattern`) in a sequence of frame colours, fed one frame at a
/// time; it keeps the runs of colour of the last stretch only (numbers, a few dozen at most).
struct FlashDetector: Sendable {
  /// A run of frames of one colour (`unknown` for frames read with no colour).
  struct Run: Sendable, Equatable {
    var color: SignalColor
    var start: Int
    var length: Int
    var end: Int { start + length }
  }

  /// A flashing light found: its colour and frames.
  struct Stretch: Sendable, Equatable {
    var color: SignalColor
    var frames: Range<Int>
  }

  let pattern: FlashPattern
  let fps: Double?
  /// The most runs kept: the last 32 flashes are enough to tell a regular period.
  static let keptRuns = 64
  /// The runs so far, the last one still growing; older runs are dropped once they can no
  /// longer be part of a stretch that reaches the current frame.
  private(set) var runs: [Run] = []

  init(pattern: FlashPattern, fps: Double?) {
    self.pattern = pattern
    self.fps = fps
  }

  /// Extends `runs` by one frame of `color`.
  static func append(_ color: SignalColor, to runs: inout [Run]) {
    if let last = runs.last, last.color == color {
      runs[runs.count - 1].length += 1
    } else {
      runs.append(Run(color: color, start: runs.last?.end ?? 0, length: 1))
    }
  }

  /// Adds the next frame's colour.
  mutating func add(_ color: SignalColor) {
    Self.append(color, to: &runs)
    // A stretch is a chain of warm and dark runs: anything before the last run that is
    // neither breaks it, and so does a run longer than the longest period.
    if let breakIndex = runs.dropLast().lastIndex(where: { !isChainRun($0) }), breakIndex > 0 {
      runs.removeFirst(breakIndex)
    }
    if runs.count > Self.keptRuns { runs.removeFirst(runs.count - Self.keptRuns) }
  }

  /// Whether the current (last) frame lies in a flashing light seen so far: the colour, or nil.
  /// A dark frame after the last flash counts while its run is no longer than the darkest gap
  /// of the stretch and a frame.
  func currentFlash() -> SignalColor? {
    // A flash needs `flashes` lit runs with a dark one between each, the last possibly dark.
    guard let last = runs.last, runs.count >= 2 * pattern.flashes - 1 else { return nil }
    let frame = last.end - 1
    for stretch in Self.stretches(in: runs, pattern: pattern, fps: fps) {
      if stretch.frames.contains(frame) { return stretch.color }
      if last.color == .unknown, stretch.frames.upperBound == last.start,
        last.length <= longestGap(before: stretch) + 1
      {
        return stretch.color
      }
    }
    return nil
  }

  /// The longest dark run inside `stretch`.
  private func longestGap(before stretch: Stretch) -> Int {
    runs.filter { $0.color == .unknown && stretch.frames.contains($0.start) }.map(\.length).max() ?? 0
  }

  /// Whether `run` could be part of a flashing stretch.
  private func isChainRun(_ run: Run) -> Bool {
    (run.color == .unknown || run.color == .yellow || run.color == .red) && run.length <= longestPeriodFrames
  }

  private var longestPeriodFrames: Int { Self.longestPeriodFrames(pattern, fps: fps) }

  static func longestPeriodFrames(_ pattern: FlashPattern, fps: Double?) -> Int {
    guard let fps else { return pattern.longestPeriodFrames }
    return max(2, Int((pattern.longestPeriod * fps).rounded(.down)))
  }

  /// The flashing stretches among `runs` (contiguous, in order): from the first frame of a
  /// chain's first flash to the last frame of its last.
  ///
  /// Complexity: O(runs).
  static func stretches(in runs: [Run], pattern: FlashPattern, fps: Double?) -> [Stretch] {
    let longest = longestPeriodFrames(pattern, fps: fps)
    let shortest = fps.map { max(2, Int(($0 * pattern.shortestPeriod).rounded(.up))) } ?? 2
    var found: [Stretch] = []
    var i = 0
    while i < runs.count {
      let color = runs[i].color
      guard color == .yellow || color == .red, runs[i].length < longest else {
        i += 1
        continue
      }
      // The chain of flashes of this colour from run i, with one dark run between each.
      var flashes = [i]
      var j = i
      while j + 2 < runs.count, runs[j + 1].color == .unknown, runs[j + 2].color == color,
        runs[j + 1].length < longest, runs[j + 2].length < longest
      {
        j += 2
        flashes.append(j)
      }
      if flashes.count >= pattern.flashes {
        let periods = zip(flashes, flashes.dropFirst()).map { runs[$1].start - runs[$0].start }
        let lit = flashes.dropLast().map { runs[$0].length }
        let dark = flashes.dropLast().map { runs[$0 + 1].length }
        func regular(_ values: [Int]) -> Bool {
          let median = values.sorted()[values.count / 2]
          return values.allSatisfy { abs($0 - median) <= max(1, median / 4) }
        }
        let median = periods.sorted()[periods.count / 2]
        if (shortest...longest).contains(median), regular(periods), regular(lit), regular(dark) {
          // The dark run after the last flash belongs to it while it is no longer than the others.
          var end = runs[j].end
          if j + 1 < runs.count, runs[j + 1].color == .unknown, runs[j + 1].length <= dark.max()! {
            end = runs[j + 1].end
          }
          found.append(Stretch(color: color, frames: runs[i].start..<end))
        }
      }
      i = j + 1
    }
    return found
  }
}
