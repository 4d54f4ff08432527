import Foundation
import TrafficLight
import TrafficLightKernels

/// Fits a housing search (`HousingSearch`) to a camera from labelled recordings of it: weak
/// labels, each frame's state and nothing of where its light is.
///
/// Each frame is searched once and keeps the windows the search reads (its `kept` most like
/// a light by the search's prior). The model is then fitted by
/// multiple-instance rounds: in each, a lit frame's positive is its window most sure under
/// the model so far among those whose lit lamp's place names the frame's state; its
/// negatives are its windows naming another colour and those away from the positive (one
/// diameter across, one and a half along); every window of a frame labelled `unknown` is
/// negative. Each frame's negatives weigh as much as its positive together. Logistic
/// regression by gradient descent (L2 `l2`) on standardised measurements, from the prior at
/// the first round. Last, the least sureness that reads a frame's most sure window as its
/// light is chosen on the same frames, maximising (frames right, `unknown` included, less
/// `redCalledGreenPenalty` per red read green) over frames; the search returned is the model
/// in raw measurements, its bias moved so that this least sureness is `minimumConfidence`.
public struct HousingFit: Sendable {
  /// The search whose geometry is kept (its model is replaced).
  public var search: HousingSearch
  /// Multiple-instance rounds.
  public var rounds = 8
  /// Gradient steps per round.
  public var steps = 300
  /// The gradient step's size.
  public var learningRate = 0.5
  /// The L2 penalty on the standardised weights.
  public var l2 = 0.01
  /// How many other mistakes a red light read green costs when the least sureness is chosen.
  public var redCalledGreenPenalty = 20.0

  /// A fit keeping `search`'s geometry, the search returned `minimumConfidence` sure at its
  /// least (the frame finder's, so that the lights it keeps pass the finder's bound too).
  ///
  /// A search for every camera (`default`'s: every window read, several lights, a network's
  /// second look) gives its geometry alone: the camera's search reads its `kept` windows, one
  /// light a frame, with no second look, and runs whenever vertical heads are looked for.
  public init(minimumConfidence: Double, geometry: HousingSearch? = nil) {
    search = HousingSearch(
      bias: 0, weights: [Double](repeating: 0, count: HousingSearch.names.count),
      minimumConfidence: minimumConfidence)
    if let geometry {
      search.smallestLamp = geometry.smallestLamp
      search.scaleStep = geometry.scaleStep
      search.scales = geometry.scales
      search.step = geometry.step
      search.pitch = geometry.pitch
      search.sigma = geometry.sigma
      if geometry.kept > 0 { search.kept = geometry.kept }
    }
  }

  /// One frame as the fit reads it: its kept windows and its state.
  public struct Frame: Sendable {
    let windows: [HousingWindow]
    /// The frame's state.
    public let truth: SignalColor
  }

  /// The windows the search reads in `image`, with its state.
  public func measure(_ image: RGBImage, truth: SignalColor) -> Frame {
    Frame(windows: search.windows(in: image), truth: truth)
  }

  /// The frames of `recording`, decoded and measured (`jobs` at once), and the frames that
  /// could not be decoded.
  public func prepare(_ recording: LabelledRecording, decoder: ImageDecoder = ImageDecoder(), jobs: Int = 1)
    -> (
      frames: [Frame], unreadable: [DecodeError]
    )
  {
    let fit = self
    let (frames, unreadable) = recording.frames.measured(decoder: decoder, jobs: jobs) { pixels, frame in
      fit.measure(pixels, truth: frame.truth)
    }
    return (frames, unreadable)
  }

  /// The search fitted to `frames`.
  public func fit(_ frames: [Frame]) -> HousingSearch {
    let count = HousingSearch.names.count
    let all = frames.flatMap { $0.windows.map(\.measurements) }
    guard !all.isEmpty else { return search }
    var mean = [Double](repeating: 0, count: count)
    var spread = [Double](repeating: 0, count: count)
    for m in all { for i in 0..<count { mean[i] += m[i] / Double(all.count) } }
    for m in all {
      for i in 0..<count { spread[i] += (m[i] - mean[i]) * (m[i] - mean[i]) / Double(all.count) }
    }
    spread = spread.map { $0.squareRoot() + 1e-6 }
    let standardised = frames.map { frame in
      frame.windows.map { window in (0..<count).map { (window.measurements[$0] - mean[$0]) / spread[$0] } }
    }
    var weights = [Double](repeating: 0, count: count)
    (weights[0], weights[5], weights[3]) = (1, 1, -1)
    var bias = 0.0
    func score(_ z: [Double]) -> Double { zip(weights, z).reduce(bias) { $0 + $1.0 * $1.1 } }
    for _ in 0..<rounds {
      var examples: [(z: [Double], label: Double, weight: Double)] = []
      for (frame, zs) in zip(frames, standardised) where !zs.isEmpty {
        guard frame.truth != .unknown else {
          examples += zs.map { ($0, 0, 1 / Double(zs.count)) }
          continue
        }
        let naming = frame.windows.indices.filter { frame.windows[$0].color == frame.truth }
        guard let positive = naming.max(by: { score(zs[$0]) < score(zs[$1]) }) else { continue }
        let p = frame.windows[positive]
        let negatives = frame.windows.indices.filter { i in
          let w = frame.windows[i]
          return w.color != frame.truth || abs(w.x - p.x) > p.diameter || abs(w.y - p.y) > 1.5 * p.diameter
        }
        examples.append((zs[positive], 1, 1))
        examples += negatives.map { (zs[$0], 0, 1 / Double(negatives.count)) }
      }
      (weights, bias) = Self.logistic(examples, count: count, steps: steps, rate: learningRate, l2: l2)
    }
    let threshold = leastSureness(frames, standardised) { score($0) }
    // Back to raw measurements, the chosen least sureness at `minimumConfidence`.
    var fitted = search
    fitted.weights = (0..<count).map { weights[$0] / spread[$0] }
    let shift = (0..<count).reduce(0) { $0 + weights[$1] * mean[$1] / spread[$1] }
    let confidence = search.minimumConfidence
    fitted.bias = bias - shift - threshold + log(confidence / (1 - confidence))
    return fitted
  }

  /// The score, over `frames`, of reading each frame's most sure window as its light above
  /// `threshold` (see the type's summary), the best of a grid of thresholds.
  private func leastSureness(
    _ frames: [Frame], _ standardised: [[[Double]]], score: ([Double]) -> Double
  ) -> Double {
    let best = zip(frames, standardised).map { frame, zs -> (score: Double, color: SignalColor)? in
      guard let i = zs.indices.max(by: { score(zs[$0]) < score(zs[$1]) }) else { return nil }
      return (score(zs[i]), frame.windows[i].color)
    }
    var chosen = (value: -Double.infinity, threshold: 0.0)
    for step in 0...80 {
      let threshold = Double(step) / 10
      var value = 0.0
      for (frame, top) in zip(frames, best) {
        let read = top.flatMap { $0.score > threshold ? $0.color : nil } ?? .unknown
        if read == frame.truth { value += 1 }
        if frame.truth == .red && read == .green { value -= redCalledGreenPenalty }
      }
      if value > chosen.value + 1e-12 { chosen = (value, threshold) }
    }
    return chosen.threshold
  }

  /// Weighted logistic regression by full-batch gradient descent from zero.
  static func logistic(
    _ examples: [(z: [Double], label: Double, weight: Double)], count: Int, steps: Int, rate: Double,
    l2: Double
  ) -> ([Double], Double) {
    var weights = [Double](repeating: 0, count: count)
    var bias = 0.0
    let total = examples.reduce(0) { $0 + $1.weight }
    guard total > 0 else { return (weights, bias) }
    for _ in 0..<steps {
      var gradient = [Double](repeating: 0, count: count)
      var biasGradient = 0.0
      for example in examples {
        let z = zip(weights, example.z).reduce(bias) { $0 + $1.0 * $1.1 }
        let error = (1 / (1 + exp(-z)) - example.label) * example.weight
        for i in 0..<count { gradient[i] += error * example.z[i] }
        biasGradient += error
      }
      for i in 0..<count { weights[i] -= rate * (gradient[i] / total + l2 * weights[i]) }
      bias -= rate * biasGradient / total
    }
    return (weights, bias)
  }

  /// What `search` reads of `frames`: each frame's most sure window at least
  /// `minimumConfidence` sure, as its light's colour, else `unknown`.
  public func confusion(_ search: HousingSearch, on frames: [Frame]) -> Confusion {
    var confusion = Confusion()
    for frame in frames {
      let best = frame.windows.max { search.score($0.measurements) < search.score($1.measurements) }
      let sure =
        best.map { 1 / (1 + exp(-search.score($0.measurements))) >= search.minimumConfidence } ?? false
      confusion.add(truth: frame.truth, read: sure ? best!.color : .unknown)
    }
    return confusion
  }
}
