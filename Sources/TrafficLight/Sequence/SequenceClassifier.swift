/// One frame of a sequence: its reading, the vote after it, and the change it made.
public struct SequenceStep: Sendable, Equatable {
  /// The frame's 0-based position in the sequence.
  public let frame: Int
  /// What was read from the frame's file, or why nothing was.
  public let reading: ImageReading
  /// The smoothed colour after this frame.
  public let smoothed: SignalColor
  /// The change of the smoothed colour this frame made, if any.
  public let change: StateChange?

  /// The frame's own colour (its primary region's); `unknown` when it could not be read or
  /// has no region.
  public var color: SignalColor { reading.frameColor }
}

/// Frames fed one at a time through the majority vote (SPEC section 5): a stream, not only a
/// folder.
public struct SequenceClassifier: Sendable {
  public private(set) var vote: FrameVote
  public private(set) var frameCount = 0

  public init(window: Int = 10) {
    vote = FrameVote(window: window)
  }

  /// Feeds the next frame's reading; one that failed, or has no region, votes `unknown`.
  public mutating func feed(_ reading: ImageReading) -> SequenceStep {
    let before = vote.smoothed
    let after = vote.add(reading.frameColor)
    let step = SequenceStep(
      frame: frameCount, reading: reading, smoothed: after,
      change: StateChange(at: frameCount, from: before, to: after))
    frameCount += 1
    return step
  }

  /// Reads the image at `path` with `reader` and feeds it as the next frame.
  public mutating func feed(fileAt path: String, with reader: ImageReader) -> SequenceStep {
    feed(reader.read(path))
  }
}
