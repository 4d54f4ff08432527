/// How a profile smooths a sequence's frames over time, and with what values. A profile's
/// JSON holds it under `smoothing`:
/// ```json
/// {"kind": "offline", "window": 10, "delay": 2,
///  "model": {"goodConfidence": 0.5, "switchCost": 0.6, ...},
///  "flashing": {"flashes": 3, "shortestPeriod": 0.4, "longestPeriod": 3, "longestPeriodFrames": 30}}
/// ```
/// Left out, a profile smooths with the article's ten-frame vote.
public struct Smoothing: Sendable, Equatable, Codable {
  /// The kinds of smoothing.
  public enum Kind: String, Sendable, Codable, CaseIterable {
    /// The article's majority vote over the last `window` frames (`VoteSmoother`).
    case vote
    /// The most likely states over the whole recording (`OfflineSmoother`).
    case offline
    /// The same model forward only, each frame decided `delay` frames late (`OnlineSmoother`).
    case online
  }

  /// Which smoother.
  public var kind: Kind
  /// The vote's window, in frames.
  public var window: Int = 10
  /// The online smoother's delay, in frames.
  public var delay: Int = 2
  /// The model of the light's states, for `offline` and `online`.
  public var model = LightStateModel()
  /// What a flashing light looks like, for `offline` and `online`.
  public var flashing = FlashPattern()

  /// Smoothing of `kind` with these values (the defaults are the project's).
  public init(
    kind: Kind, window: Int = 10, delay: Int = 2, model: LightStateModel = LightStateModel(),
    flashing: FlashPattern = FlashPattern()
  ) {
    self.kind = kind
    self.window = window
    self.delay = delay
    self.model = model
    self.flashing = flashing
  }

  enum CodingKeys: String, CodingKey {
    case kind, window, delay, model, flashing
  }

  /// Decodes the JSON form; keys left out but `kind` take the defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    kind = try container.decode(Kind.self, forKey: .kind)
    window = try container.decodeIfPresent(Int.self, forKey: .window) ?? window
    delay = try container.decodeIfPresent(Int.self, forKey: .delay) ?? delay
    model = try container.decodeIfPresent(LightStateModel.self, forKey: .model) ?? model
    flashing = try container.decodeIfPresent(FlashPattern.self, forKey: .flashing) ?? flashing
  }

  /// The article's ten-frame vote.
  public static let vote = Smoothing(kind: .vote)

  /// A new smoother of this kind for one sequence, `fps` frames a second when known.
  public func makeSmoother(fps: Double? = nil) -> any FrameSmoother {
    switch kind {
    case .vote: VoteSmoother(window: window)
    case .offline: OfflineSmoother(model: model, pattern: flashing, fps: fps)
    case .online: OnlineSmoother(model: model, delay: delay, pattern: flashing, fps: fps)
    }
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    if !(1...100_000).contains(window) { return "smoothing: window must be from 1 to 100000, not \(window)" }
    if !(0...100_000).contains(delay) { return "smoothing: delay must be from 0 to 100000, not \(delay)" }
    return model.problem ?? flashing.problem
  }
}
