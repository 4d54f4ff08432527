/// One frame of a sequence: its reading, its smoothed colour, and the change it made.
public struct SequenceStep: Sendable, Equatable {
  /// The frame's 0-based position in the sequence.
  public let frame: Int
  /// What was read from the frame's file, or why nothing was.
  public let reading: ImageReading
  /// The smoothed colour of this frame.
  public let smoothed: SignalColor
  /// Whether the smoothed colour is a flashing light's (`FlashPattern`).
  public var flashing = false
  /// How sure the smoother is of `smoothed` on this frame, 0 to 1 (`SmoothedFrame.confidence`).
  public var smoothedConfidence = 0.0
  /// The change of the smoothed colour this frame made, if any.
  public let change: StateChange?
  /// A state the frames showed that the smoothed colour never took, ended by this frame (see
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
/// while the smoothed colour never became it on those frames: the smoothing kept it out (the
/// vote keeps out a 2-frame yellow between green and red, on purpose; the model, a weak run
/// it took for flicker). This says that it did.
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

/// The frames of one sequence fed one at a time through a smoother (`FrameSmoother`, of the
/// profile's `Smoothing`): a stream, not only a folder.
///
/// Each `feed` returns the steps the smoother has decided so far, in frame order: with the
/// vote, the frame just fed; `online`, the frame `delay` back; `offline`, none until
/// `finish`. Frames not yet decided are held (their readings, without class maps when the
/// caller dropped them).
public struct SequenceClassifier: Sendable {
  private var smoother: any FrameSmoother
  /// How many frames have been fed.
  public private(set) var frameCount = 0
  /// Frames fed and not yet decided, oldest first, with the light chosen in each.
  private var pending: [(reading: ImageReading, light: FoundLight?)] = []
  private var pendingStart = 0
  /// The smoothed colour of the last step returned.
  private var lastSmoothed = SignalColor.unknown
  /// Whether the last step returned was flashing.
  private var lastFlashing = false
  /// The current run of one frame colour: its colour, first frame and file, and whether the
  /// smoothed colour took it.
  private var run: (color: SignalColor, start: Int, path: String, voted: Bool)?
  /// How many steps have been returned.
  private var released = 0
  /// The light chosen in the last frame that had one, when lights are found.
  private var tracked: FoundLight?

  /// A classifier that smooths with the article's vote over `window` frames.
  public init(window: Int = 10) {
    smoother = VoteSmoother(window: window)
  }

  /// A classifier that smooths as `smoothing` says, the frames coming `fps` a second when known.
  public init(smoothing: Smoothing, fps: Double? = nil) {
    smoother = smoothing.makeSmoother(fps: fps)
  }

  /// A classifier that smooths with `smoother`.
  public init(smoother: any FrameSmoother) {
    self.smoother = smoother
  }

  /// Feeds the next frame's reading (one that failed, or has no region, says nothing of the
  /// light) and returns the steps now decided.
  public mutating func feed(_ reading: ImageReading) -> [SequenceStep] {
    var light: FoundLight? = nil
    if case .success(let regions) = reading.outcome {
      let lights = regions.compactMap(\.light)
      light = LampFinder.lightThatMatters(in: lights, near: tracked, choice: reading.choice)
      tracked = light ?? tracked
    }
    pending.append((reading, light))
    frameCount += 1
    return steps(for: smoother.add(FrameObservation(reading)))
  }

  /// Reads the image at `path` with `reader` and feeds it as the next frame.
  public mutating func feed(fileAt path: String, with reader: ImageReader) -> [SequenceStep] {
    feed(reader.read(path))
  }

  /// Ends the stream: the steps not yet decided and the state the last frames showed, if the
  /// smoothed colour never took it.
  public mutating func finish() -> (steps: [SequenceStep], suppressed: SuppressedState?) {
    let steps = steps(for: smoother.finish())
    defer { run = nil }
    return (steps, finishRun())
  }

  /// The steps of the frames `decided`, which are the oldest pending ones, in order.
  private mutating func steps(for decided: [SmoothedFrame]) -> [SequenceStep] {
    var steps: [SequenceStep] = []
    steps.reserveCapacity(decided.count)
    for smoothed in decided {
      precondition(smoothed.frame == released, "a smoother returned frame \(smoothed.frame) out of order")
      let (reading, light) = pending[pendingStart]
      pendingStart += 1
      let color = reading.frameColor
      var ended: SuppressedState? = nil
      if run?.color != color {
        ended = finishRun()
        run = (color, released, reading.path, false)
      }
      if smoothed.color == color { run?.voted = true }
      var change = StateChange(at: released, from: lastSmoothed, to: smoothed.color)
      if change == nil && smoothed.flashing != lastFlashing {
        change = StateChange(frame: released, from: lastSmoothed, to: smoothed.color)
      }
      change?.confidence = smoothed.confidence
      change?.flashing = smoothed.flashing
      var step = SequenceStep(
        frame: released, reading: reading, smoothed: smoothed.color, change: change, suppressed: ended)
      step.flashing = smoothed.flashing
      step.smoothedConfidence = smoothed.confidence
      step.light = light
      steps.append(step)
      lastSmoothed = smoothed.color
      lastFlashing = smoothed.flashing
      released += 1
    }
    if pendingStart > 64 && pendingStart * 2 > pending.count {
      pending.removeFirst(pendingStart)
      pendingStart = 0
    }
    return steps
  }

  /// The current run as a suppressed state, if it is one.
  private func finishRun() -> SuppressedState? {
    guard let run, run.color != .unknown, !run.voted, released - run.start >= SuppressedState.minimumFrames
    else { return nil }
    return SuppressedState(color: run.color, frames: run.start...(released - 1), path: run.path)
  }
}
