/// A change of the smoothed colour in a sequence.
public struct StateChange: Sendable, Equatable {
  /// The frame the smoothed colour changed on (0-based).
  public let frame: Int
  /// The smoothed colour before it.
  public let from: SignalColor
  /// The smoothed colour from it on.
  public let to: SignalColor
  /// How sure the smoother is of `to` on the change's frame, 0 to 1, when it says.
  public var confidence: Double? = nil
  /// Whether `to` is a flashing light (a change may be only into or out of flashing).
  public var flashing = false

  /// A change at `frame` from `from` to `to`.
  public init(frame: Int, from: SignalColor, to: SignalColor) {
    self.frame = frame
    self.from = from
    self.to = to
  }

  /// The change at `frame`, whose smoothed colour is `to` after `from`; `nil` when they are
  /// the same.
  public init?(at frame: Int, from: SignalColor, to: SignalColor) {
    guard from != to else { return nil }
    self.init(frame: frame, from: from, to: to)
  }

  /// The changes in a run of smoothed colours, starting from `unknown`.
  public static func changes(in smoothed: [SignalColor]) -> [StateChange] {
    zip([.unknown] + smoothed, smoothed).enumerated().compactMap { frame, pair in
      StateChange(at: frame, from: pair.0, to: pair.1)
    }
  }
}
