/// The state of a light over time, as the smoothers model it: one of its colours lit, or
/// `dark` (no light in view, or none of its lamps lit; shown `unknown`).
public enum LightState: Int, Sendable, CaseIterable {
  case red, yellow, green, dark

  /// The state a frame's colour names; `dark` for `unknown`.
  public init(_ color: SignalColor) {
    switch color {
    case .red: self = .red
    case .yellow: self = .yellow
    case .green: self = .green
    case .unknown: self = .dark
    }
  }

  /// `state`, but `dark` for green shown on one frame alone between frames shown dark (or
  /// the recording's ends): a green seen once with no light around it is not trusted, since
  /// a red read as green is the one mistake that must not happen. Red and yellow stand.
  static func distrustingLoneGreen(_ state: LightState, between before: LightState, and after: LightState)
    -> LightState
  {
    state == .green && before == .dark && after == .dark ? .dark : state
  }

  /// The colour shown for this state.
  public var color: SignalColor {
    switch self {
    case .red: .red
    case .yellow: .yellow
    case .green: .green
    case .dark: .unknown
    }
  }
}

/// What one frame says about the light, as a smoother takes it: the colour read, how sure
/// the reading is, and whether the frame could be read at all.
public struct FrameObservation: Sendable, Equatable {
  /// The frame's own colour.
  public var color: SignalColor
  /// The reading's confidence, 0 to 1.
  public var confidence: Double
  /// False when the frame could not be read (or has no region to read): then it says
  /// nothing of the light.
  public var wasRead: Bool

  /// An observation of `color` at `confidence`; `wasRead` false for a frame that gave nothing.
  public init(color: SignalColor, confidence: Double, wasRead: Bool = true) {
    self.color = color
    self.confidence = confidence
    self.wasRead = wasRead
  }

  /// What `reading` says: its primary region's colour and confidence, `unknown` when it has
  /// no region (no light found, no box); a failed reading, and one whose colour was too unsure
  /// to name (`LightDecision.lowConfidence`), say nothing.
  public init(_ reading: ImageReading) {
    guard case .success = reading.outcome else {
      self.init(color: .unknown, confidence: 0, wasRead: false)
      return
    }
    guard let primary = reading.primary else {
      self.init(color: .unknown, confidence: 0)
      return
    }
    let decision = primary.result.decision
    self.init(
      color: decision.color, confidence: decision.confidence,
      wasRead: decision.decidedBy != LightDecision.lowConfidence)
  }
}

/// A hidden-state model of a traffic light seen frame by frame: the states are `LightState`,
/// each frame's reading is evidence for them, and each switch of state costs evidence.
///
/// All scores are in one unit: the evidence of one frame read with good confidence. A frame
/// that reads colour X at confidence `c` scores 0 for X and, for every other colour, minus its
/// weight: `weakWeight + (1 - weakWeight) * min(1, c / goodConfidence)`, so a weak reading
/// counts less and a good one fully (and `dark`, `litEvidence` less again); a red reading rules green out altogether (red
/// evidence vetoes green). A frame read with no colour (no light found, dark lamps) scores
/// `-darkEvidence` for each colour; a frame that could not be read, or whose colour was too
/// unsure to name, scores nothing, but for a tie-break of `tieBreak` per step in the order red,
/// yellow, dark, green, so that the frames of a gap between two colours take the more
/// restrictive one, and green last.
///
/// A switch costs `switchCost` towards a more restrictive colour (green to yellow or red,
/// yellow to red), `switchCost + releaseCost` from red to green (the cycle's way back),
/// `switchCost + againstCycleCost` against the cycle away from red (yellow to green, red to
/// yellow), and `darkSwitchCost` into or out of `dark`.
///
/// `problem` holds the values to the promises the smoothers make: a switch between colours
/// costs more than half a good frame and less than a whole one (one good frame of another
/// colour inside a state is flicker; a colour read with good confidence on two frames in a
/// row is always kept), and a switch into or out of `dark` less than half the weakest frame's
/// weight against dark (a colour read between dark frames is never taken away).
public struct LightStateModel: Sendable, Equatable, Codable {
  /// The confidence from which a reading counts as one full frame of evidence.
  public var goodConfidence: Double = 0.5
  /// The cost of a switch towards a more restrictive colour.
  public var switchCost: Double = 0.6
  /// What a switch from red to green costs beyond `switchCost`.
  public var releaseCost: Double = 0.1
  /// What a switch against the cycle, away from red, costs beyond `switchCost`.
  public var againstCycleCost: Double = 0.2
  /// The cost of a switch into or out of `dark`.
  public var darkSwitchCost: Double = 0.24
  /// How much a frame read with no colour counts against each colour.
  public var darkEvidence: Double = 0.2
  /// The weight of a reading with no confidence; a good one weighs 1.
  public var weakWeight: Double = 0.75
  /// How much more a colour read counts against `dark` than against another colour: a light
  /// seen lit was lit.
  public var litEvidence: Double = 0.3
  /// The tie-break per step of restrictiveness on a frame that could not be read.
  public var tieBreak: Double = 0.001

  /// The model with these values (the defaults are the project's).
  public init(
    goodConfidence: Double = 0.5, switchCost: Double = 0.6, releaseCost: Double = 0.1,
    againstCycleCost: Double = 0.2, darkSwitchCost: Double = 0.24, darkEvidence: Double = 0.2,
    weakWeight: Double = 0.75, litEvidence: Double = 0.3, tieBreak: Double = 0.001
  ) {
    self.goodConfidence = goodConfidence
    self.switchCost = switchCost
    self.releaseCost = releaseCost
    self.againstCycleCost = againstCycleCost
    self.darkSwitchCost = darkSwitchCost
    self.darkEvidence = darkEvidence
    self.weakWeight = weakWeight
    self.litEvidence = litEvidence
    self.tieBreak = tieBreak
  }

  /// The number of states.
  static let stateCount = LightState.allCases.count

  /// The score of each state (indexed by `LightState.rawValue`) given `observation`.
  func emission(_ observation: FrameObservation) -> SIMD4<Double> {
    guard observation.wasRead else {
      return SIMD4(0, -tieBreak, -3 * tieBreak, -2 * tieBreak)
    }
    guard observation.color != .unknown else {
      return SIMD4(-darkEvidence, -darkEvidence, -darkEvidence, 0)
    }
    let strength = min(1, max(0, observation.confidence) / goodConfidence)
    let weight = weakWeight + (1 - weakWeight) * strength
    var scores = SIMD4<Double>(-weight, -weight, -weight, -weight - litEvidence)
    scores[LightState(observation.color).rawValue] = 0
    if observation.color == .red { scores[LightState.green.rawValue] = -.infinity }
    return scores
  }

  /// The cost of going from state `from` to state `to` between two frames (0 for staying).
  func transitionCost(from: LightState, to: LightState) -> Double {
    switch (from, to) {
    case _ where from == to: 0
    case (.dark, _), (_, .dark): darkSwitchCost
    case (.green, _), (.yellow, .red): switchCost
    case (.red, .green): switchCost + releaseCost
    default: switchCost + againstCycleCost
    }
  }

  /// `-transitionCost` for every pair, `[from][to]`.
  var transitionScores: [SIMD4<Double>] {
    LightState.allCases.map { from in
      var row = SIMD4<Double>()
      for to in LightState.allCases { row[to.rawValue] = -transitionCost(from: from, to: to) }
      return row
    }
  }

  enum CodingKeys: String, CodingKey {
    case goodConfidence, switchCost, releaseCost, againstCycleCost, darkSwitchCost, darkEvidence, weakWeight,
      litEvidence, tieBreak
  }

  /// Decodes the JSON form; keys left out take the defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    goodConfidence = try container.decodeIfPresent(Double.self, forKey: .goodConfidence) ?? goodConfidence
    switchCost = try container.decodeIfPresent(Double.self, forKey: .switchCost) ?? switchCost
    releaseCost = try container.decodeIfPresent(Double.self, forKey: .releaseCost) ?? releaseCost
    againstCycleCost =
      try container.decodeIfPresent(Double.self, forKey: .againstCycleCost) ?? againstCycleCost
    darkSwitchCost = try container.decodeIfPresent(Double.self, forKey: .darkSwitchCost) ?? darkSwitchCost
    darkEvidence = try container.decodeIfPresent(Double.self, forKey: .darkEvidence) ?? darkEvidence
    weakWeight = try container.decodeIfPresent(Double.self, forKey: .weakWeight) ?? weakWeight
    litEvidence = try container.decodeIfPresent(Double.self, forKey: .litEvidence) ?? litEvidence
    tieBreak = try container.decodeIfPresent(Double.self, forKey: .tieBreak) ?? tieBreak
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    let values = [
      ("goodConfidence", goodConfidence), ("switchCost", switchCost), ("releaseCost", releaseCost),
      ("againstCycleCost", againstCycleCost), ("darkSwitchCost", darkSwitchCost),
      ("darkEvidence", darkEvidence), ("weakWeight", weakWeight), ("litEvidence", litEvidence),
      ("tieBreak", tieBreak),
    ]
    for (name, value) in values where !(value.isFinite && value >= 0) {
      return "smoothing model: \(name) must be a finite number from 0, not \(value)"
    }
    if !(goodConfidence > 0 && goodConfidence <= 1) {
      return "smoothing model: goodConfidence must be above 0 and at most 1, not \(goodConfidence)"
    }
    let colours: [LightState] = [.red, .yellow, .green]
    let costs = colours.flatMap { from in
      colours.filter { $0 != from }.map { transitionCost(from: from, to: $0) }
    }
    if costs.max()! >= 1 {
      return "smoothing model: a switch between colours must cost less than one good frame (1), or a colour "
        + "read on two good frames could be hidden"
    }
    if costs.min()! <= 0.5 {
      return "smoothing model: a switch between colours must cost more than half a good frame (0.5), or "
        + "one-frame flicker would be kept"
    }
    if !(weakWeight > 0 && weakWeight <= 1) {
      return "smoothing model: weakWeight must be above 0 and at most 1, not \(weakWeight)"
    }
    if !(darkSwitchCost > 0 && 2 * darkSwitchCost < weakWeight + litEvidence) {
      return
        "smoothing model: darkSwitchCost must be above 0 and below half of weakWeight + litEvidence, or a "
        + "colour read between dark frames could be taken away"
    }
    if !(tieBreak < 0.01) { return "smoothing model: tieBreak must be below 0.01, not \(tieBreak)" }
    return nil
  }
}
