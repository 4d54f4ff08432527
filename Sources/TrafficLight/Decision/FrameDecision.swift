/// A frame's colour, the points read, the points of each colour that voted, and what named
/// the colour.
public struct FrameDecision: Sendable, Equatable {
  /// `decidedBy` when the points' vote named the colour (or, with no vote and no rule that
  /// answered, `unknown`).
  public static let vote = "vote"

  public let samples: [SamplePoint]
  public let counts: ColorCounts
  public let color: SignalColor
  /// What named the colour: `FrameDecision.vote`, or the kind of the rule that did.
  public let decidedBy: String

  public init(samples: [SamplePoint], counts: ColorCounts, color: SignalColor, decidedBy: String = vote) {
    self.samples = samples
    self.counts = counts
    self.color = color
    self.decidedBy = decidedBy
  }

  /// No points: an empty light.
  public static let empty = FrameDecision(samples: [], counts: ColorCounts(), color: .unknown)
}
