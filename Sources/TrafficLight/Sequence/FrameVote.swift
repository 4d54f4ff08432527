/// The majority vote over the last `window` frames of a sequence (SPEC section 5).
///
/// Feed it one frame's colour at a time. The smoothed colour is the colour with the most
/// votes in the window, `unknown` frames not voting; an empty or all-`unknown` window gives
/// `unknown`; a tie goes to the tied colour seen most recently.
public struct FrameVote: Sendable, Equatable {
  /// How many frames the window holds, the current one included.
  public let window: Int
  /// The window, oldest first.
  public private(set) var recent: [SignalColor] = []

  /// An empty vote over `window` frames (at least 1).
  public init(window: Int = 10) {
    precondition(window >= 1, "the vote window needs at least one frame")
    self.window = window
    recent.reserveCapacity(window)
  }

  /// Adds a frame's colour and returns the smoothed colour.
  ///
  /// Complexity: O(window).
  @discardableResult
  public mutating func add(_ color: SignalColor) -> SignalColor {
    if recent.count == window { recent.removeFirst() }
    recent.append(color)
    return smoothed
  }

  /// The smoothed colour of the current window.
  public var smoothed: SignalColor {
    var counts = ColorCounts()
    for color in recent { counts[color] += 1 }
    let most = max(counts.red, counts.yellow, counts.green)
    guard most > 0 else { return .unknown }
    return recent.last { $0 != .unknown && counts[$0] == most }!
  }
}
