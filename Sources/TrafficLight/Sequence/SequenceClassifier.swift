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
  /// A state the frames showed that the vote never took, ended by this frame (see
  /// `SuppressedState`), if any.
  public let suppressed: SuppressedState?
  /// With lights found in the frames (`RegionSource.foundLights`): the light that matters
  /// in this frame, followed from frame to frame (`LampFinder.lightThatMatters(in:near:)`);
  /// nil when none was found.
  public var light: FoundLight? = nil

  /// The frame's own colour (its primary region's); `unknown` when it could not be read or
  /// has no region.
  public var color: SignalColor { reading.frameColor }
}

/// A run of frames that read one colour, at least `SuppressedState.minimumFrames` of them,
/// while the smoothed colour never became it: the vote kept it out (a 2-frame yellow between
/// green and red, for one). The contract's vote does that on purpose; this says that it did.
public struct SuppressedState: Sendable, Equatable {
  /// The frame's own colour (its primary region's); `unknown` when it could not be read.
  public let color: SignalColor
  /// The run's first and last frame.
  public let frames: ClosedRange<Int>
  /// The file of the run's first frame.
  public let path: String

  /// Runs shorter than this are flicker, not states.
  public static let minimumFrames = 2
}

/// Frames fed one at a time through the majority vote (SPEC section 5): a stream, not only a
/// folder.
public struct SequenceClassifier: Sendable {
  /// The vote over the recent frames.
  public private(set) var vote: FrameVote
  /// How many frames have been fed.
  public private(set) var frameCount = 0
  /// The current run of one frame colour: its colour, first frame and file, and whether the
  /// smoothed colour took it.
  private var run: (color: SignalColor, start: Int, path: String, voted: Bool)?
  /// The light chosen in the last frame that had one, when lights are found.
  private var tracked: FoundLight?

  /// A classifier whose vote spans `window` frames.
  public init(window: Int = 10) {
    vote = FrameVote(window: window)
  }

  /// Feeds the next frame's reading; one that failed, or has no region, votes `unknown`.
  public mutating func feed(_ reading: ImageReading) -> SequenceStep {
    let before = vote.smoothed
    let color = reading.frameColor
    let after = vote.add(color)
    var ended: SuppressedState? = nil
    if run?.color != color {
      ended = finishRun()
      run = (color, frameCount, reading.path, false)
    }
    if after == color { run?.voted = true }
    var step = SequenceStep(
      frame: frameCount, reading: reading, smoothed: after,
      change: StateChange(at: frameCount, from: before, to: after), suppressed: ended)
    if case .success(let regions) = reading.outcome {
      let lights = regions.compactMap(\.light)
      step.light = LampFinder.lightThatMatters(in: lights, near: tracked)
      tracked = step.light ?? tracked
    }
    frameCount += 1
    return step
  }

  /// Ends the stream: the state the last frames showed, if the vote never took it.
  public mutating func finish() -> SuppressedState? {
    defer { run = nil }
    return finishRun()
  }

  /// The current run as a suppressed state, if it is one.
  private func finishRun() -> SuppressedState? {
    guard let run, run.color != .unknown, !run.voted, frameCount - run.start >= SuppressedState.minimumFrames
    else { return nil }
    return SuppressedState(color: run.color, frames: run.start...(frameCount - 1), path: run.path)
  }

  /// Reads the image at `path` with `reader` and feeds it as the next frame.
  public mutating func feed(fileAt path: String, with reader: ImageReader) -> SequenceStep {
    feed(reader.read(path))
  }
}
