import TrafficLight
import TrafficLightKernels

/// A light finder measured on whole frames with labelled boxes (`BoxedFrames`): the loop
/// behind `evaluate` on such folders and the finder's accuracy tests.
public struct FrameEvaluator: Sendable {
  /// The finder measured.
  public let finder: LampFinder
  /// The decoder the frames are read with.
  public let decoder: ImageDecoder

  /// The stages that read each light found, when its profile's decider reads pixels
  /// (`FramePipeline.read(_:seen:)`); nil: lights keep their lit lamp's colour.
  public let pipeline: FramePipeline?

  /// An evaluator of `finder`, reading frames with `decoder`, and the lights found with
  /// `pipeline`.
  public init(
    finder: LampFinder = LampFinder(), decoder: ImageDecoder = ImageDecoder(), pipeline: FramePipeline? = nil
  ) {
    self.finder = finder
    self.decoder = decoder
    self.pipeline = pipeline
  }

  /// What the finder did on one frame.
  public struct Outcome: Sendable, Equatable {
    /// The frame and its labels.
    public var frame: BoxedFrame
    /// The lights found, most confident first.
    public var lights: [FoundLight]
    /// For each labelled box, the index in `lights` of the light that found it, if any.
    public var matches: [Int?]
    /// How the frame's light is chosen among `lights`: the finder's.
    public var choice = LightChoice()

    /// Found lights that match no labelled box with a colour, leaving out those on a dark
    /// box (labelled `unknown`) that read `unknown`: a dark light is not a light to find, and
    /// `unknown` is its right reading; read as a colour, it is a false light.
    public var falseLights: Int { FrameEvaluator.falseLights(lights, matches: matches, boxes: frame.boxes) }

    /// The false lights that lie on a labelled box another light found: one light seen
    /// twice, not a light where there is none.
    public var secondLights: Int {
      let matched = Set(matches.compactMap { $0 })
      var onFoundBox = Set<Int>()
      // Housing boxes found: the lights whose centre they hold.
      let found = zip(frame.boxes, matches).filter { $0.1 != nil }.map(\.0)
      let housings = CentreIndex(found.filter { $0.kind == .light }.map(\.box))
      for index in lights.indices where !housings.holding(centreOf: lights[index].box).isEmpty {
        onFoundBox.insert(index)
      }
      // Lamp boxes found: the lights whose box holds their centre.
      let lightBoxes = CentreIndex(lights.map(\.box))
      for lamp in found where lamp.kind == .lamp {
        onFoundBox.formUnion(lightBoxes.holding(centreOf: lamp.box))
      }
      return onFoundBox.subtracting(matched).count
    }

    /// For each labelled box, the colour the light that found it should read: a housing's
    /// label; for a lit lamp, the most restrictive colour of the lit lamps that light found
    /// (the lamps of one head lit together, a red lamp and the arrow beside it, or red and
    /// yellow, read as the head's most restrictive colour, as a frame's labels are); nil for
    /// a box with no colour or that no light found.
    public var expectedColors: [SignalColor?] {
      FrameEvaluator.expectedColors(of: frame.boxes, matches: matches)
    }

    /// The frame's colour as read: the colour of the light that matters, `unknown` if none.
    public var color: SignalColor {
      LampFinder.lightThatMatters(in: lights, choice: choice)?.color ?? .unknown
    }
  }

  /// Totals over a folder of frames.
  public struct Report: Sendable, Equatable {
    /// Each frame's outcome, in input order; frames that could not be read are left out.
    public var outcomes: [Outcome] = []
    /// The frames that could not be read, and why, in input order: left out of every figure.
    public var unreadable: [(path: String, reason: String)] = []

    /// The labelled boxes with a colour (lit lights, or lit lamps).
    public var labelled: Int { outcomes.reduce(0) { $0 + $1.frame.boxes.filter { $0.color != nil }.count } }
    /// The labelled boxes a light was found for.
    public var found: Int {
      outcomes.reduce(0) { total, outcome in
        total + zip(outcome.frame.boxes, outcome.matches).filter { $0.color != nil && $1 != nil }.count
      }
    }
    /// Found lights that match no labelled box, over every frame.
    public var falseLights: Int { outcomes.reduce(0) { $0 + $1.falseLights } }
    /// The false lights that lie on a labelled box another light found, over every frame.
    public var secondLights: Int { outcomes.reduce(0) { $0 + $1.secondLights } }
    /// The found lights' colours against their boxes' labels: (right, red read green).
    /// A lamp box is read against its head's colour (`Outcome.expectedColors`).
    public var foundColors: (right: Int, redReadGreen: Int) {
      var right = 0
      var redReadGreen = 0
      for outcome in outcomes {
        for (color, match) in zip(outcome.expectedColors, outcome.matches) {
          guard let color, let match else { continue }
          let read = outcome.lights[match].color
          if read == color { right += 1 }
          if color == .red && read == .green { redReadGreen += 1 }
        }
      }
      return (right, redReadGreen)
    }
    /// Frames whose colour as read is their labels' colour.
    public var framesRight: Int { outcomes.filter { $0.color == $0.frame.color }.count }
    /// Frames whose labels say red read green.
    public var framesRedReadGreen: Int {
      outcomes.filter { $0.frame.color == .red && $0.color == .green }.count
    }
    /// Frames that could not be read.
    public var failures: Int { unreadable.count }

    /// What answering only lights at least `minimumConfidence` sure gives.
    public struct Coverage: Sendable, Equatable {
      /// The threshold: lights below it are dropped.
      public let minimumConfidence: Double
      /// Labelled boxes with a colour a kept light found.
      public let found: Int
      /// Kept lights that match no labelled box, over every frame.
      public let falseLights: Int
      /// Kept lights that found a box labelled red and read green.
      public let redReadGreen: Int
    }

    /// Lights found against false lights, for each threshold: the lights below it dropped and
    /// the rest matched again.
    public func coverage(at thresholds: [Double]) -> [Coverage] {
      thresholds.map { threshold in
        var (found, falseLights, redReadGreen) = (0, 0, 0)
        for outcome in outcomes {
          let kept = outcome.lights.filter { $0.confidence >= threshold }
          let matches = FrameEvaluator.match(kept, to: outcome.frame.boxes)
          let expected = FrameEvaluator.expectedColors(of: outcome.frame.boxes, matches: matches)
          for (color, match) in zip(expected, matches) where color != nil {
            guard let match else { continue }
            found += 1
            if color == .red && kept[match].color == .green { redReadGreen += 1 }
          }
          falseLights += FrameEvaluator.falseLights(kept, matches: matches, boxes: outcome.frame.boxes)
        }
        return Coverage(
          minimumConfidence: threshold, found: found, falseLights: falseLights, redReadGreen: redReadGreen)
      }
    }

    /// Whether two reports hold the same outcomes.
    public static func == (a: Report, b: Report) -> Bool {
      a.outcomes == b.outcomes && a.unreadable.map(\.path) == b.unreadable.map(\.path)
    }
  }

  /// Reads every frame of `frames` (`jobs` at a time) and matches the lights found with the
  /// labelled boxes.
  public func evaluate(_ frames: [BoxedFrame], jobs: Int = 1) -> Report {
    let (finder, decoder, pipeline) = (self.finder, self.decoder, self.pipeline)
    let read = OrderedParallelMap.map(count: frames.count, jobs: jobs) {
      index -> Result<Outcome, DecodeError> in
      let frame = frames[index]
      do throws(DecodeError) {
        let bytes = try FileReader.readAll(frame.path, maxBytes: decoder.maxFileBytes)
        let search = try finder.searched(inImageData: bytes, name: frame.path, decoder: decoder)
        let lights = pipeline?.read(search.lights, seen: search.seen).map(\.light) ?? search.lights
        return .success(
          Outcome(
            frame: frame, lights: lights, matches: Self.match(lights, to: frame.boxes), choice: finder.choice)
        )
      } catch {
        return .failure(error)
      }
    }
    var report = Report()
    for (frame, result) in zip(frames, read) {
      switch result {
      case .success(let outcome): report.outcomes.append(outcome)
      case .failure(let error): report.unreadable.append((frame.path, error.description))
      }
    }
    return report
  }

  /// A candidate lamp of a labelled frame, and whether it is one of the frame's lit lamps.
  public struct LabelledCandidate: Sendable, Equatable {
    /// The candidate, in the frame's pixels.
    public var candidate: LampCandidate
    /// Whether its light finds a labelled box of its colour (as `match(_:to:)` finds boxes,
    /// each box on its own): what the evidence model is fitted to say.
    public var isLitLamp: Bool
  }

  /// Every candidate lamp of each frame, searched at full size (`LampFinder.candidates(in:)`),
  /// labelled by the frame's boxes; a frame that cannot be read has none and its failure.
  public func candidates(of frames: [BoxedFrame], jobs: Int = 1) -> [(
    frame: BoxedFrame, candidates: [LabelledCandidate], failure: String?
  )] {
    let (finder, decoder) = (self.finder, self.decoder)
    return OrderedParallelMap.map(count: frames.count, jobs: jobs) { index in
      let frame = frames[index]
      do throws(DecodeError) {
        let bytes = try FileReader.readAll(frame.path, maxBytes: decoder.maxFileBytes)
        let pixels = try decoder.decode(bytes, name: frame.path).pixels
        let labelled = finder.candidates(in: pixels).map { candidate in
          let light = candidate.light
          let found = frame.boxes.contains { $0.color == light.color && $0.isFound(by: light) }
          return LabelledCandidate(candidate: candidate, isLitLamp: found)
        }
        return (frame, labelled, nil)
      } catch {
        return (frame, [], error.description)
      }
    }
  }

  /// `Outcome.expectedColors` for `boxes` matched as `matches` says.
  static func expectedColors(of boxes: [LabelledBox], matches: [Int?]) -> [SignalColor?] {
    var lampColors: [Int: [SignalColor]] = [:]
    for (box, match) in zip(boxes, matches) where box.kind == .lamp {
      if let match, let color = box.color { lampColors[match, default: []].append(color) }
    }
    return zip(boxes, matches).map { box, match in
      guard let color = box.color, let match else { return nil }
      guard box.kind == .lamp, let head = lampColors[match] else { return color }
      return SignalColor.byRestrictiveness.first { head.contains($0) } ?? color
    }
  }

  /// The false lights among `lights`, matched to `boxes` as `matches` says
  /// (`Outcome.falseLights`).
  static func falseLights(_ lights: [FoundLight], matches: [Int?], boxes: [LabelledBox]) -> Int {
    var (lit, dark) = (Set<Int>(), Set<Int>())
    for (box, match) in zip(boxes, matches) {
      guard let match else { continue }
      if box.color != nil { lit.insert(match) } else { dark.insert(match) }
    }
    return lights.indices.filter { !lit.contains($0) && !(dark.contains($0) && lights[$0].color == .unknown) }
      .count
  }

  /// For each labelled box, the most confident light that found it: a light finds a housing
  /// box when its box's centre lies inside it, and no earlier housing box took it (a light is
  /// one housing); it finds a lamp box when its box holds the lamp's centre, whatever other
  /// lamp boxes it holds (the lit lamps of one head, a red lamp and an arrow beside it, are
  /// all found with their housing).
  ///
  /// Complexity: near linear in lights and boxes (each is found through a `CentreIndex`).
  public static func match(_ lights: [FoundLight], to boxes: [LabelledBox]) -> [Int?] {
    // For each housing box, the lights whose centre it holds, in light order.
    let housings = CentreIndex(boxes.map(\.box))
    var inHousing = [[Int]](repeating: [], count: boxes.count)
    for (index, light) in lights.enumerated() {
      for box in housings.holding(centreOf: light.box) where boxes[box].kind == .light {
        inHousing[box].append(index)
      }
    }
    let lightBoxes = CentreIndex(lights.map(\.box))
    var taken = Set<Int>()
    return boxes.enumerated().map { number, label in
      switch label.kind {
      case .lamp:
        return lightBoxes.holding(centreOf: label.box).first
      case .light:
        let found = inHousing[number].first { !taken.contains($0) }
        if let found { taken.insert(found) }
        return found
      }
    }
  }
}

extension LabelledBox {
  /// Whether `light` finds this box, leaving aside which other boxes it finds: a housing box
  /// holds the centre of the light's box; a lamp box's centre lies in the light's box.
  func isFound(by light: FoundLight) -> Bool {
    switch kind {
    case .light: box.holdsCentre(of: light.box)
    case .lamp: light.box.holdsCentre(of: box)
    }
  }
}
