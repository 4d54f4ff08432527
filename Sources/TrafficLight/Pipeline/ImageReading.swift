import TrafficLightKernels

/// One region of an image and what was read there.
public struct RegionReading: Sendable, Equatable {
  /// The label box the region came from, with `--labels`.
  public let box: LabelBox?
  /// What was read there.
  public let result: FrameResult
  /// The light found there, when the lights were searched for: its lit lamp decided the
  /// result.
  public let light: FoundLight?

  /// The reading of one region, from label box `box` (nil for none) or found `light`.
  public init(box: LabelBox?, result: FrameResult, light: FoundLight? = nil) {
    self.box = box
    self.result = result
    self.light = light
  }

  /// The reading of a found light: `decision`, or when there is none its lamp's colour and
  /// the finder's confidence, decided by `LightDecision.litLamp`; the region its housing.
  public init(found light: FoundLight, decision: LightDecision? = nil) {
    let decision =
      decision
      ?? LightDecision(
        samples: [], counts: ColorCounts(), color: light.color, decidedBy: LightDecision.litLamp,
        confidence: light.confidence)
    self.init(box: nil, result: FrameResult(decision: decision, region: light.box), light: light)
  }
}

/// What was read from one input file.
public struct ImageReading: Sendable, Equatable {
  /// The file read.
  public let path: String
  /// Every region read (one per box with labels; none when a label file has no box of the
  /// class), or why the file gave nothing.
  public let outcome: Result<[RegionReading], InputError>
  /// Damage the decoder patched over, when damaged images are accepted.
  public let damage: String?
  /// With lights found and pictures asked for: the frame with its lights drawn on it
  /// (`FoundLightsPicture`).
  public var picture: RGBImage? = nil
  /// Whether the image was searched for its lights (a frame): its regions are the lights
  /// found, none when it shows none.
  public var searchedForLights = false
  /// How the light that matters is chosen among the lights found: the searching finder's.
  public var choice = LightChoice()

  /// The reading of `path`: its regions' results, or why it failed, and the damage accepted.
  public init(path: String, outcome: Result<[RegionReading], InputError>, damage: String? = nil) {
    self.path = path
    self.outcome = outcome
    self.damage = damage
  }

  /// The reading that stands for the frame: of found lights, the light that matters
  /// (`LampFinder.lightThatMatters(in:minimumConfidence:near:choice:)`, by `choice`); otherwise the largest region (the first of equal
  /// ones); `nil` when there is none.
  public var primary: RegionReading? {
    guard case .success(let readings) = outcome else { return nil }
    let lights = readings.compactMap(\.light)
    if !lights.isEmpty {
      let chosen = LampFinder.lightThatMatters(in: lights, choice: choice)
      return readings.first { $0.light == chosen }
    }
    return readings.enumerated().max { a, b in
      let areaA = a.element.result.region.map { $0.width * $0.height } ?? 0
      let areaB = b.element.result.region.map { $0.width * $0.height } ?? 0
      return areaA != areaB ? areaA < areaB : a.offset > b.offset
    }?.element
  }

  /// The frame's colour: the primary region's, else `unknown`.
  public var frameColor: SignalColor { primary?.result.color ?? .unknown }

  /// This reading without class maps, pictures or sample points (counts, colours and boxes
  /// kept), for keeping: what a sequence holds of a frame its smoother has not decided yet,
  /// and what a command holds until it writes the row.
  public func forKeeping() -> ImageReading {
    var reading = ImageReading(
      path: path,
      outcome: outcome.map { readings in
        readings.map { region in
          let decision = region.result.decision
          let kept = LightDecision(
            samples: [], counts: decision.counts, color: decision.color, decidedBy: decision.decidedBy,
            confidence: decision.confidence)
          return RegionReading(
            box: region.box,
            result: FrameResult(decision: kept, region: region.result.region, light: region.result.light),
            light: region.light)
        }
      }, damage: damage)
    reading.searchedForLights = searchedForLights
    reading.choice = choice
    return reading
  }
}
