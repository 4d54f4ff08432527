/// A light's colour, the points read, the points of each colour that voted, and what named
/// the colour.
public struct LightDecision: Sendable, Equatable {
  /// `decidedBy` when the points' vote named the colour (or, with no vote and no rule that
  /// answered, `unknown`).
  public static let vote = "vote"

  /// The points read, in grid order.
  public let samples: [SamplePoint]
  /// How many points voted for each colour.
  public let counts: ColorCounts
  /// The colour named.
  public let color: SignalColor
  /// What named the colour: `LightDecision.vote`, the kind of the rule that did, or
  /// `LightDecision.lowConfidence`.
  public let decidedBy: String
  /// How sure the decider is of `color`, 0 to 1; 0 for `unknown` named by the decider.
  public let confidence: Double

  /// `decidedBy` when a colour was named below the profile's `minimumConfidence`, and the
  /// answer is `unknown` (with the named colour's confidence).
  public static let lowConfidence = "lowConfidence"

  /// `decidedBy` when a found light's lit lamp named the colour (`LampFinder`).
  public static let litLamp = "litLamp"

  /// A decision: its points, their counts, the colour, what named it and how sure it is.
  public init(
    samples: [SamplePoint], counts: ColorCounts, color: SignalColor, decidedBy: String = vote,
    confidence: Double = 0
  ) {
    self.samples = samples
    self.counts = counts
    self.color = color
    self.decidedBy = decidedBy
    self.confidence = confidence
  }

  /// This decision, or `unknown` when its colour's confidence is below `minimum`.
  public func requiring(confidence minimum: Double) -> LightDecision {
    guard color != .unknown, confidence < minimum else { return self }
    return LightDecision(
      samples: samples, counts: counts, color: .unknown, decidedBy: Self.lowConfidence, confidence: confidence
    )
  }

  /// `decidedBy` when green was named in a light placed from a lit red lamp, and the answer
  /// is `unknown` (`RedEvidence.litRedLamp`).
  public static let litRedLamp = RedEvidence.litRedLamp.decidedBy

  /// This decision, or `unknown` when it names green and the light was placed from a lit
  /// lamp of colour `lamp` that is red: the lamp the locator saw is red evidence the points
  /// may have missed (a blown-out or pink lamp; `RedEvidence.litRedLamp`).
  public func besideLitLamp(_ lamp: SignalColor?) -> LightDecision {
    lamp == .red ? RedEvidence.litRedLamp.veto(self) : self
  }

  /// `decidedBy` when a colour was named in a region too busy to be a light's, with no lit
  /// lamp seen, and the answer is `unknown`.
  public static let busyRegion = "busyRegion"

  /// This decision, or `unknown` when its region's `busyness` is above `bound`: points of a
  /// lamp's colour in foliage, wires or rendered terrain are no lamp's light.
  public func inRegion(ofBusyness busyness: Double, atMost bound: Double) -> LightDecision {
    guard color != .unknown, busyness > bound else { return self }
    return LightDecision(samples: samples, counts: counts, color: .unknown, decidedBy: Self.busyRegion)
  }

  /// No points: an empty light.
  public static let empty = LightDecision(samples: [], counts: ColorCounts(), color: .unknown)

  /// Why this decision names no colour, in a few words, or nil when it names one: no
  /// coloured point, a colour below the confidence asked for, green beside red evidence, a
  /// region too busy to be a light's, or the network sure of no colour.
  public var whyUnknown: String? {
    guard color == .unknown else { return nil }
    if let evidence = RedEvidence(behind: self) { return evidence.reason }
    switch decidedBy {
    case Self.lowConfidence: return "low confidence"
    case Self.busyRegion: return "busy region"
    case LightNetworkDecider.decidedBy: return "no colour likely enough"
    case Self.vote:
      return counts.red + counts.yellow + counts.green == 0 ? "dark lamps: no coloured point" : "a tie"
    default: return "no rule named a colour"
    }
  }
}

/// The decision's name before it was named for the light it reads.
@available(*, deprecated, renamed: "LightDecision")
public typealias FrameDecision = LightDecision
