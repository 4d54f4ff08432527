import Foundation

/// One frame's smoothed colour, as a smoother releases it.
public struct SmoothedFrame: Sendable, Equatable {
  /// The frame's 0-based position in the sequence.
  public let frame: Int
  /// The colour shown for the frame.
  public let color: SignalColor
  /// Whether the light is flashing there (`FlashPattern`): `color` is the flashing colour.
  public let flashing: Bool
  /// How sure the smoother is of `color` on this frame, 0 to 1: for the vote, the colour's
  /// share of the window's votes; for the model, its probability given the frames it saw.
  public let confidence: Double

  /// A smoothed frame.
  public init(frame: Int, color: SignalColor, flashing: Bool = false, confidence: Double) {
    self.frame = frame
    self.color = color
    self.flashing = flashing
    self.confidence = confidence
  }
}

/// Turns each frame's own colour into a colour over time: the one seam every kind of
/// smoothing (`Smoothing.Kind`) is used through.
///
/// Frames are added in order; each call returns the frames whose smoothed colour is now
/// decided, in order (the vote: the frame just added; `online`: the frame `delay` frames
/// back; `offline`: none until `finish`). `finish` returns the rest. Every frame is returned
/// exactly once.
public protocol FrameSmoother: Sendable {
  /// Adds the next frame and returns the frames decided by it.
  mutating func add(_ observation: FrameObservation) -> [SmoothedFrame]
  /// Ends the sequence and returns the frames not yet returned.
  mutating func finish() -> [SmoothedFrame]
}

/// The article's majority vote over the last frames (SPEC section 5), as a smoother: each
/// frame is decided as it is added.
public struct VoteSmoother: FrameSmoother {
  /// The vote.
  public private(set) var vote: FrameVote
  private var count = 0

  /// A vote over `window` frames.
  public init(window: Int = 10) { vote = FrameVote(window: window) }

  /// Adds the frame's colour to the vote and returns the frame with the vote's colour.
  public mutating func add(_ observation: FrameObservation) -> [SmoothedFrame] {
    let color = vote.add(observation.color)
    let share = Double(vote.recent.filter { $0 == color }.count) / Double(vote.recent.count)
    defer { count += 1 }
    return [SmoothedFrame(frame: count, color: color, confidence: color == .unknown ? 0 : share)]
  }

  /// Nothing is left: every frame was decided as it came.
  public mutating func finish() -> [SmoothedFrame] { [] }
}

/// The most likely states of the light over the whole sequence under a `LightStateModel`
/// (Viterbi), decided when the sequence ends: each change lands on the frame the evidence
/// puts it on. Flashing stretches (`FlashPattern`) are found first and read as their colour.
///
/// Memory: a few dozen bytes per frame (its observation, back pointers and forward scores),
/// never images. Complexity: O(frames) time.
public struct OfflineSmoother: FrameSmoother {
  /// The model.
  public let model: LightStateModel
  /// What a flashing light looks like.
  public let pattern: FlashPattern
  /// The frame rate, for the flashing period in seconds; nil when not known.
  public let fps: Double?
  private var observations: [FrameObservation] = []

  /// A smoother under `model`, finding flashing lights by `pattern` at `fps` frames a second.
  public init(
    model: LightStateModel = LightStateModel(), pattern: FlashPattern = FlashPattern(), fps: Double? = nil
  ) {
    self.model = model
    self.pattern = pattern
    self.fps = fps
  }

  /// Keeps the frame; nothing is decided before the end.
  public mutating func add(_ observation: FrameObservation) -> [SmoothedFrame] {
    observations.append(observation)
    return []
  }

  /// Decides every frame.
  public mutating func finish() -> [SmoothedFrame] {
    defer { observations = [] }
    return Self.smooth(observations, model: model, pattern: pattern, fps: fps)
  }

  /// The smoothed frames of `observations`.
  static func smooth(
    _ observations: [FrameObservation], model: LightStateModel, pattern: FlashPattern, fps: Double?
  )
    -> [SmoothedFrame]
  {
    guard !observations.isEmpty else { return [] }
    // Flashing stretches are read as their colour on every frame, with full evidence.
    var runs: [FlashDetector.Run] = []
    for observation in observations { FlashDetector.append(observation.color, to: &runs) }
    var flashing = [Bool](repeating: false, count: observations.count)
    var observed = observations
    for stretch in FlashDetector.stretches(in: runs, pattern: pattern, fps: fps) {
      for frame in stretch.frames {
        flashing[frame] = true
        observed[frame] = FrameObservation(color: stretch.color, confidence: 1)
      }
    }
    let emissions = observed.map(model.emission)
    var path = Viterbi.path(emissions, transitions: model.transitionScores)
    for frame in path.indices where path[frame] == .green {
      let before = frame > 0 ? path[frame - 1] : .dark
      let after = frame + 1 < path.count ? path[frame + 1] : .dark
      path[frame] = LightState.distrustingLoneGreen(.green, between: before, and: after)
    }
    let posteriors = Viterbi.posteriors(emissions, transitions: model.transitionScores)
    return path.enumerated().map { frame, state in
      SmoothedFrame(
        frame: frame, color: state.color, flashing: flashing[frame] && state.color != .unknown,
        confidence: posteriors[frame][state.rawValue])
    }
  }
}

/// The same model as `OfflineSmoother`, forward only, for frames that arrive live: each frame
/// is decided `delay` frames after it arrives, from the most likely states of everything seen
/// so far (fixed-lag Viterbi). Flashing lights are recognised from their `flashes`-th flash
/// on. A red reading rules green out on its frame, and a switch towards a more restrictive
/// colour never costs more than the way back, so a light turning red is shown at least as soon
/// as one turning green.
///
/// Memory: O(delay) observations and scores. Complexity: O(delay) time per frame.
public struct OnlineSmoother: FrameSmoother {
  /// The model.
  public let model: LightStateModel
  /// How many frames after its arrival a frame is decided.
  public let delay: Int
  private let transitions: [SIMD4<Double>]
  private var detector: FlashDetector
  /// The best score of a path ending in each state at the newest frame.
  private var best = SIMD4<Double>(repeating: 0)
  /// The forward probabilities at the newest frame, for the confidence.
  private var forward = SIMD4<Double>(repeating: 0)
  /// The transitions as potentials.
  private let moves: [SIMD4<Double>]
  /// The newest `delay + 1` frames: back pointers, emission potentials, forward
  /// probabilities, flashing.
  private var window:
    [(back: SIMD4<UInt8>, likelihood: SIMD4<Double>, forward: SIMD4<Double>, flashing: Bool)] = []
  private var count = 0
  /// The state shown on the last frame decided.
  private var lastShown = LightState.dark

  /// A smoother under `model` that decides each frame `delay` frames late, finding flashing
  /// lights by `pattern` at `fps` frames a second.
  public init(
    model: LightStateModel = LightStateModel(), delay: Int = 2, pattern: FlashPattern = FlashPattern(),
    fps: Double? = nil
  ) {
    precondition(delay >= 0, "the delay cannot be negative")
    self.model = model
    self.delay = delay
    transitions = model.transitionScores
    moves = Viterbi.potentials(model.transitionScores)
    detector = FlashDetector(pattern: pattern, fps: fps)
  }

  /// Adds the frame and returns the frame `delay` back, now decided.
  public mutating func add(_ observation: FrameObservation) -> [SmoothedFrame] {
    detector.add(observation.color)
    var observed = observation
    let flash = detector.currentFlash()
    if let flash { observed = FrameObservation(color: flash, confidence: 1) }
    let emission = model.emission(observed)
    let likelihood = Viterbi.potentials(emission)
    var back = SIMD4<UInt8>()
    if count == 0 {
      best = emission
      forward = Viterbi.normalised(likelihood)
    } else {
      let step = Viterbi.step(best, emission, transitions)
      best = step.best
      back = step.back
      forward = Viterbi.forwardStep(forward, likelihood, moves)
    }
    window.append((back, likelihood, forward, flash != nil))
    if window.count > delay + 1 { window.removeFirst() }
    count += 1
    guard count > delay else { return [] }
    return [decided(count - 1 - delay, path: backtrack())]
  }

  /// Decides the last `delay` frames from everything seen.
  public mutating func finish() -> [SmoothedFrame] {
    guard !window.isEmpty else { return [] }
    let path = backtrack()
    let first = max(0, count - delay)
    let frames = (first..<count).map { decided($0, path: path, final: true) }
    window = []
    return frames
  }

  /// The states of the window's frames on the best path ending at the newest frame.
  private func backtrack() -> [LightState] {
    var state = Viterbi.argmax(best)
    var states = [LightState](repeating: .dark, count: window.count)
    for index in stride(from: window.count - 1, through: 0, by: -1) {
      states[index] = LightState(rawValue: state)!
      if index > 0 { state = Int(window[index].back[state]) }
    }
    return states
  }

  /// Frame `frame` (in the window) as decided on `path`, with its probability given the
  /// frames seen.
  private mutating func decided(_ frame: Int, path: [LightState], final: Bool = false) -> SmoothedFrame {
    let index = frame - (count - window.count)
    var state = path[index]
    // The frame after it is known within the delay, or at the end; with no delay it is not.
    if index + 1 < path.count || final {
      state = LightState.distrustingLoneGreen(
        state, between: lastShown, and: index + 1 < path.count ? path[index + 1] : .dark)
    }
    lastShown = state
    // Backward probabilities from the newest frame to this one.
    var backward = SIMD4<Double>(repeating: 1)
    var later = window.count - 1
    while later > index {
      backward = Viterbi.backwardStep(backward, window[later].likelihood, moves)
      later -= 1
    }
    let posterior = Viterbi.normalised(window[index].forward * backward)
    return SmoothedFrame(
      frame: frame, color: state.color, flashing: window[index].flashing && state != .dark,
      confidence: posterior[state.rawValue])
  }
}

/// Viterbi over four states in scores (log-probabilities up to a constant; `-infinity` for
/// what cannot be), and forward-backward in probabilities scaled at every frame.
enum Viterbi {
  /// The most likely states, one per frame.
  ///
  /// Complexity: O(frames) time, 4 bytes of back pointers per frame.
  static func path(_ emissions: [SIMD4<Double>], transitions: [SIMD4<Double>]) -> [LightState] {
    guard var best = emissions.first else { return [] }
    var backs = [SIMD4<UInt8>](repeating: SIMD4(), count: emissions.count)
    for frame in emissions.indices.dropFirst() {
      let step = step(best, emissions[frame], transitions)
      best = step.best
      backs[frame] = step.back
    }
    var state = argmax(best)
    var states = [LightState](repeating: .dark, count: emissions.count)
    for frame in stride(from: emissions.count - 1, through: 0, by: -1) {
      states[frame] = LightState(rawValue: state)!
      state = Int(backs[frame][state])
    }
    return states
  }

  /// The next frame's best scores and, for each state, the state before it on its best path.
  /// Ties go to the lower state (the more restrictive colour).
  static func step(_ best: SIMD4<Double>, _ emission: SIMD4<Double>, _ transitions: [SIMD4<Double>])
    -> (best: SIMD4<Double>, back: SIMD4<UInt8>)
  {
    var next = SIMD4<Double>(repeating: -.infinity)
    var back = SIMD4<UInt8>()
    for to in 0..<4 {
      for from in 0..<4 {
        let score = best[from] + transitions[from][to]
        if score > next[to] {
          next[to] = score
          back[to] = UInt8(from)
        }
      }
    }
    return (next + emission, back)
  }

  /// The index of the largest score; ties go to the lower index.
  static func argmax(_ scores: SIMD4<Double>) -> Int {
    var index = 0
    for i in 1..<4 where scores[i] > scores[index] { index = i }
    return index
  }

  /// Probabilities proportional to `exp(scores)` (scaled so the largest is 1; 0 for
  /// `-infinity`).
  static func potentials(_ scores: SIMD4<Double>) -> SIMD4<Double> {
    let top = scores.max()
    var p = SIMD4<Double>()
    for i in 0..<4 { p[i] = exp(scores[i] - top) }
    return p
  }

  /// `transitions` as potentials, `[from][to]`.
  static func potentials(_ transitions: [SIMD4<Double>]) -> [SIMD4<Double>] {
    transitions.map { row in
      var p = SIMD4<Double>()
      for i in 0..<4 { p[i] = exp(row[i]) }
      return p
    }
  }

  /// `p` scaled to sum to 1 (left as it is when it sums to 0).
  static func normalised(_ p: SIMD4<Double>) -> SIMD4<Double> {
    let total = p.sum()
    return total > 0 ? p / total : p
  }

  /// The next frame's forward probabilities, from this frame's, the next frame's emission
  /// potentials and the transition potentials.
  static func forwardStep(_ forward: SIMD4<Double>, _ emission: SIMD4<Double>, _ transitions: [SIMD4<Double>])
    -> SIMD4<Double>
  {
    var next: SIMD4<Double> = forward[0] * transitions[0]
    next += forward[1] * transitions[1]
    next += forward[2] * transitions[2]
    next += forward[3] * transitions[3]
    return normalised(next * emission)
  }

  /// The backward probabilities one frame earlier, from those of the frame after it and its
  /// emission potentials.
  static func backwardStep(
    _ backward: SIMD4<Double>, _ laterEmission: SIMD4<Double>, _ transitions: [SIMD4<Double>]
  ) -> SIMD4<Double> {
    let later = backward * laterEmission
    var earlier = SIMD4<Double>()
    for from in 0..<4 { earlier[from] = (transitions[from] * later).sum() }
    return normalised(earlier)
  }

  /// Each frame's probability of each state, given every frame.
  ///
  /// Complexity: O(frames) time, 32 bytes of forward probabilities per frame.
  static func posteriors(_ emissions: [SIMD4<Double>], transitions: [SIMD4<Double>]) -> [SIMD4<Double>] {
    guard !emissions.isEmpty else { return [] }
    let moves = potentials(transitions)
    let likelihoods = emissions.map(potentials)
    var forwards = [SIMD4<Double>](repeating: SIMD4(), count: emissions.count)
    forwards[0] = normalised(likelihoods[0])
    for frame in emissions.indices.dropFirst() {
      forwards[frame] = forwardStep(forwards[frame - 1], likelihoods[frame], moves)
    }
    var backward = SIMD4<Double>(repeating: 1)
    for frame in stride(from: emissions.count - 1, through: 0, by: -1) {
      let posterior = normalised(forwards[frame] * backward)
      if frame > 0 { backward = backwardStep(backward, likelihoods[frame], moves) }
      forwards[frame] = posterior
    }
    return forwards
  }
}
