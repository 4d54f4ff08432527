import Foundation
import TrafficLightKernels

/// A traffic light found in an image by its lit lamp.
public struct FoundLight: Sendable, Equatable {
  /// The light's housing, in the image's pixels: placed from the lamp, its colour and the way
  /// the lamps run (red first, then yellow, then green), clipped to the image.
  public var box: PixelRegion
  /// The lit lamp's bounding box, in the image's pixels.
  public var lamp: PixelRegion
  /// The lit lamp's colour.
  public var color: SignalColor
  /// How sure the finder is, 0 to 1: the evidence model's confidence that the patch is the
  /// lit lamp of a light running this way (`LampEvidence`).
  public var confidence: Double
  /// The way the lamps run.
  public var orientation: Orientation

  /// A light with these parts.
  public init(
    box: PixelRegion, lamp: PixelRegion, color: SignalColor, confidence: Double, orientation: Orientation
  ) {
    self.box = box
    self.lamp = lamp
    self.color = color
    self.confidence = confidence
    self.orientation = orientation
  }
}

/// Finds traffic lights in a whole image by their lit lamps.
///
/// A candidate lamp is a connected patch of bright, saturated pixels of one lamp hue (red,
/// yellow or green; red and yellow pixels that touch are one warm patch, of its most
/// saturated pixel's colour: an orange lamp reads yellow at its centre and red at its rim;
/// looked for again with lower floors, `dimThresholds`), roughly round, no
/// wider than a third of the image's longer side, whose neighbours along the light's axis
/// (where the light's lamp order puts its unlit lamps, a lamp pitch apart) are not much
/// brighter than it (`unlitRatio`). What is measured around it (its unlit lamps, the housing
/// beside it and between the lamps, its surround: `LampMeasurements`) gives, through the
/// evidence model, how sure the finder is that it is the lit lamp of a light; a lit lamp is
/// a candidate at least `minimumConfidence` sure. A patch is tried as the lamp of a vertical
/// head, then of a horizontal one (`heads` restricts the search to one; `horizontalRed` says
/// at which end of a horizontal head red is). The search runs on
/// the image and on halvings of it (2x2 means) down to a quarter of its size, so that large
/// lamps whose LEDs show as dots are seen whole; a light found at two scales is kept once, at
/// its most confident. With `housings` (`HousingSearch`: a camera's, fitted by `calibrate` on
/// its recordings, for lamps that show no colour; or `default`'s, for every camera, fitted to
/// boxed frames), the housing search's lights join the lamps'.
public struct LampFinder: Sendable, Codable, Equatable {
  /// The blur applied before the pixels are judged, in pixels of each scale.
  public var sigma = 1.0
  /// The pixels a lit lamp is made of, by hue, saturation and brightness (the classifier of
  /// the reading pipeline, with its own thresholds): red from 330 to 18 degrees, yellow to
  /// 70, green from 95 to 195, saturation above 0.4 and the largest channel above 129.
  public var thresholds = HSVThresholds(
    saturationFloor: 0.4, valueFloor: 0.508, green: HueRange(95, 195), yellow: HueRange(18, 70),
    red: HueRange(330, 18))
  /// The pixels of a dim lamp (a distant one, or one the camera dulls), whose patches are
  /// candidates too, measured and scored as the others: the same hues, saturation above 0.45
  /// and the largest channel above 89. Nil: no second look.
  public var dimThresholds: HSVThresholds? = HSVThresholds(
    saturationFloor: 0.45, valueFloor: 0.35, green: HueRange(95, 195), yellow: HueRange(18, 70),
    red: HueRange(330, 18))
  /// The fewest pixels of a lamp, at the scale it is found.
  public var minimumArea = 4
  /// The most an unlit lamp's mean brightness may be, as a share of the lit lamp's: a patch
  /// with a brighter neighbour where an unlit lamp would be is no candidate, whatever the
  /// evidence model would say.
  public var unlitRatio = 0.8
  /// How sure a candidate is, from what was measured of it (fitted to the shared frames;
  /// CALIBRATION.md).
  public var evidence = LampEvidence.fitted
  /// How the light a frame shows is chosen among the lights found (`LightChoice`).
  public var choice = LightChoice()
  /// The distance between neighbouring lamps' centres, in lamp diameters; a lamp's diameter
  /// is its lit patch's width, across the light whatever way the lamps run, since visors
  /// shade lamps from above and halos spread them down.
  public var lampPitch = 1.25
  /// The most halvings of the image searched besides the image itself.
  public var halvings = 2
  /// The smallest side of an image that is halved again.
  public var smallestHalvedSide = 200
  /// The least confidence of a light found: lights less sure are dropped.
  public var minimumConfidence = 0.6
  /// Which heads are looked for: `auto`, vertical and horizontal (vertical first); `vertical`
  /// or `horizontal`, only those (where every light is known to run one way, the other way's
  /// false lights go).
  public var heads = Orientation.auto
  /// Which end of a horizontal head its red lamp is looked for at: `left` (right-hand
  /// traffic, as in Korea and the US: the lit lamp's unlit neighbours by red, yellow, green
  /// from the left), `right` (left-hand traffic, as in Indonesia and Japan: green, yellow,
  /// red) or `either` (each horizontal lamp tried both ways; more false lights where only
  /// one occurs). Vertical heads have red on top whatever this says.
  public var horizontalRed = HorizontalRed.left
  /// The least longer side a frame file is searched at: larger frames are searched at 1/2,
  /// 1/4 or 1/8 of their size while their longer side stays at least this
  /// (`find(inImageData:name:decoder:)`).
  public var searchSide = 900
  /// The largest `searchSide` a profile may give.
  public static let largestSearchSide = 2048
  /// A second search, by housings rather than lamps (`HousingSearch`): for a camera whose
  /// lamps burn out to white, fitted from a recording of it by `calibrate`, or `default`'s,
  /// for lights whose lamps the lamp search misses; its lights join the lamps' lights. Nil
  /// (`LampFinder()`): lamps only.
  public var housings: HousingSearch? = nil

  /// The finder with the defaults above (fitted to the shared frames; CALIBRATION.md).
  public init() {}

  private enum CodingKeys: String, CodingKey {
    case sigma, thresholds, dimThresholds, minimumArea, unlitRatio, lampPitch, halvings, smallestHalvedSide
    case minimumConfidence, searchSide, heads, horizontalRed, evidence, choice, housings
  }

  /// The end of a horizontal head its red lamp is at (`horizontalRed`).
  public enum HorizontalRed: String, Sendable, Codable, CaseIterable {
    /// Red, yellow, green from the left.
    case left
    /// Green, yellow, red from the left.
    case right
    /// Both tried.
    case either
  }

  /// Decodes a finder; a missing key keeps the value `init()` gives it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
      try container.decodeIfPresent(T.self, forKey: key) ?? fallback
    }
    sigma = try value(.sigma, sigma)
    thresholds = try value(.thresholds, thresholds)
    // An explicit null turns the second look off; a missing key keeps the default.
    if container.contains(.dimThresholds) {
      dimThresholds =
        try container.decodeNil(forKey: .dimThresholds)
        ? nil : try container.decode(HSVThresholds.self, forKey: .dimThresholds)
    }
    minimumArea = try value(.minimumArea, minimumArea)
    unlitRatio = try value(.unlitRatio, unlitRatio)
    lampPitch = try value(.lampPitch, lampPitch)
    halvings = try value(.halvings, halvings)
    smallestHalvedSide = try value(.smallestHalvedSide, smallestHalvedSide)
    minimumConfidence = try value(.minimumConfidence, minimumConfidence)
    searchSide = try value(.searchSide, searchSide)
    heads = try value(.heads, heads)
    horizontalRed = try value(.horizontalRed, horizontalRed)
    evidence = try value(.evidence, evidence)
    choice = try value(.choice, choice)
    housings = try container.decodeIfPresent(HousingSearch.self, forKey: .housings)
  }

  /// Encodes every value; no second look (`dimThresholds` nil) as null.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sigma, forKey: .sigma)
    try container.encode(thresholds, forKey: .thresholds)
    if let dimThresholds {
      try container.encode(dimThresholds, forKey: .dimThresholds)
    } else {
      try container.encodeNil(forKey: .dimThresholds)
    }
    try container.encode(minimumArea, forKey: .minimumArea)
    try container.encode(unlitRatio, forKey: .unlitRatio)
    try container.encode(lampPitch, forKey: .lampPitch)
    try container.encode(halvings, forKey: .halvings)
    try container.encode(smallestHalvedSide, forKey: .smallestHalvedSide)
    try container.encode(minimumConfidence, forKey: .minimumConfidence)
    try container.encode(searchSide, forKey: .searchSide)
    try container.encode(heads, forKey: .heads)
    try container.encode(horizontalRed, forKey: .horizontalRed)
    try container.encode(evidence, forKey: .evidence)
    try container.encode(choice, forKey: .choice)
    try container.encodeIfPresent(housings, forKey: .housings)
  }

  /// What is wrong with the values, if anything (a profile naming such a finder is refused).
  public var problem: String? {
    if !(sigma >= 0 && sigma <= 50) { return "sigma must be between 0 and 50, not \(sigma)" }
    if let problem = Profile.problem(of: thresholds) { return problem }
    if let dimThresholds, let problem = Profile.problem(of: dimThresholds) {
      return "dimThresholds: \(problem)"
    }
    if !(1...1_000_000).contains(minimumArea) {
      return "minimumArea must be between 1 and 1000000, not \(minimumArea)"
    }
    if !(minimumConfidence >= 0 && minimumConfidence <= 1) {
      return "minimumConfidence must be between 0 and 1, not \(minimumConfidence)"
    }
    if !(unlitRatio >= 0 && unlitRatio <= 1) {
      return "unlitRatio must be between 0 and 1, not \(unlitRatio)"
    }
    if let problem = evidence.problem { return "evidence: \(problem)" }
    if let problem = choice.problem { return problem }
    if let problem = housings?.problem { return problem }
    if !(lampPitch >= 0.5 && lampPitch <= 10) {
      return "lampPitch must be between 0.5 and 10, not \(lampPitch)"
    }
    if !(0...8).contains(halvings) { return "halvings must be between 0 and 8, not \(halvings)" }
    if !(1...1_000_000).contains(smallestHalvedSide) {
      return "smallestHalvedSide must be between 1 and 1000000, not \(smallestHalvedSide)"
    }
    // Bounded so that a large frame is always searched reduced: at full size the search of a
    // 25-megapixel frame took a minute.
    if !(64...Self.largestSearchSide).contains(searchSide) {
      return "searchSide must be between 64 and \(Self.largestSearchSide), not \(searchSide)"
    }
    return nil
  }

  /// The lights of `image`, most confident first: of each patch's candidates at least
  /// `minimumConfidence` sure the vertical head's, else the horizontal's, and one light where
  /// several overlap. Red and green evidence together never answer green: a green light
  /// with a red candidate lamp at least half `minimumConfidence` sure in line beside its
  /// lamp, within two lamp pitches (a red lamp lit with a green arrow, a head lit both ways),
  /// is dropped, and what it had hidden stays hidden. Where such a red lamp is of the green
  /// lamp's head (`isLamp(ofOneHeadWith:)`: of its size too), the head is one red light: the
  /// red light found there holds the green lamp in its box; where none was kept, the most
  /// confident such red candidate whose head runs towards the green lamp is that light, as
  /// sure as the green light was. A red candidate whose mean value is at most `unlitRatio`
  /// of the green lamp's is as dim beside it as an unlit lamp is (a sunlit green light's
  /// unlit red lens) and changes nothing. With `housings`, unless only horizontal heads are
  /// looked for (or, with its `searchedWith` vertical, unless only vertical heads are), the
  /// housing search's lights join them where no lamp's light is (a housing whose box overlaps
  /// such a light's is left out), one light where they overlap each other, as above; with its
  /// `ranksBelowLamps`, each as sure as `minimumConfidence` at most, so a lamp's light outranks
  /// it.
  ///
  /// Complexity: O(pixels * blur radius), and O(pixels * scales) more with `housings`.
  public func find(in image: RGBImage) -> [FoundLight] { find(in: image, clock: nil) }

  /// `find(in:)`, its stages timed on `clock`.
  package func find(in image: RGBImage, clock: StageClock?) -> [FoundLight] {
    let patches = candidatesByPatch(in: image, clock: clock)
    let lights = clock.time("choose") { choose(from: patches) }
    guard let housings, heads != .horizontal, housings.searchedWith == .auto || heads == .vertical else {
      return lights
    }
    // A housing found where a lamp's light is is that light again: the lamp placed it better.
    // With `ranksBelowLamps`, a housing's light is as sure as the least light kept, so that a
    // lamp's light, wherever it is, outranks it as the light a frame shows.
    let housingLights = clock.time("housings") { housings.lights(in: image) }.filter { housing in
      !lights.contains { $0.box.overlaps(housing.box) }
    }.map { housing in
      var light = housing
      if housings.ranksBelowLamps { light.confidence = min(housing.confidence, minimumConfidence) }
      return light
    }
    return Self.keepingOnePerLight(lights + housingLights)
  }

  /// The lights `find(in:)` keeps of the candidates of each patch.
  package func choose(from patches: [[LampCandidate]]) -> [FoundLight] {
    let chosen = patches.compactMap { patch in patch.first { $0.light.confidence >= minimumConfidence } }
    let reds = patches.joined().filter { candidate in
      candidate.light.color == .red && candidate.light.confidence >= minimumConfidence / 2
    }
    var lights = Self.keepingOnePerLight(chosen.map(\.light))
    var vetoed: [(green: FoundLight, ofItsHead: [FoundLight])] = []
    lights.removeAll { light in
      guard light.color == .green else { return false }
      let value = chosen.first { $0.light == light }?.measurements.value ?? 0
      let vetoes = reds.filter { red in
        light.lamp.isInLine(with: red.light.lamp, within: 2 * lampPitch)
          && red.measurements.value > unlitRatio * value
      }
      guard !vetoes.isEmpty else { return false }
      vetoed.append((light, vetoes.map(\.light).filter { $0.lamp.isLamp(ofOneHeadWith: light.lamp) }))
      return true
    }
    for (green, ofItsHead) in vetoed {
      if let kept = lights.firstIndex(where: { light in
        light.color == .red && ofItsHead.contains { light.box.holdsCentre(of: $0.lamp) }
      }) {
        lights[kept].box = lights[kept].box.covering(green.lamp)
      } else if let red = ofItsHead.filter({ $0.orientation == $0.lamp.direction(to: green.lamp) })
        .max(by: { $0.confidence < $1.confidence })
      {
        lights.append(
          FoundLight(
            box: red.box.covering(green.lamp), lamp: red.lamp, color: .red, confidence: green.confidence,
            orientation: red.orientation))
      }
    }
    return Self.keepingOnePerLight(lights)
  }

  /// Every candidate lamp of `image`, at every scale, before the confidence threshold and
  /// before overlapping lights are thinned out: what `find(in:)` chooses from, and what the
  /// evidence model is fitted to (`evaluate --candidates`).
  public func candidates(in image: RGBImage) -> [LampCandidate] {
    candidatesByPatch(in: image).flatMap { $0 }
  }

  /// The candidates in image pixels, grouped by the patch they were measured from.
  private func candidatesByPatch(in image: RGBImage, clock: StageClock? = nil) -> [[LampCandidate]] {
    let blur = GaussianBlur(sigma: sigma)
    let bright = HSVClassifier(thresholds: thresholds)
    let dim = dimThresholds.map { HSVClassifier(thresholds: $0) }
    var found: [[LampCandidate]] = []
    var level = image
    var scale = 1
    while true {
      let blurred = clock.time("blur") { blur.apply(to: level) }
      // The two looks share their hues: one pass of the classifier gives both maps. Each
      // look splits its warm patches where its red range ends.
      func plane(_ map: ClassMap, warmSplit: Double) -> LampPlane {
        LampPlane(blurred, classes: map.classes, warmSplit: warmSplit, minimumArea: minimumArea)
      }
      let maps = clock.time("classify") {
        dim.map { dim in
          let (brightMap, dimMap) = bright.classify(blurred, alongside: dim)
          return [(brightMap, thresholds.red.upper), (dimMap, dim.thresholds.red.upper)]
        } ?? [(bright.classify(blurred), thresholds.red.upper)]
      }
      let planes = clock.time("lamp plane") { maps.map { plane($0.0, warmSplit: $0.1) } }
      // The looks share their pixels: where their candidates ask for more pixels than the
      // scale has (a crop whose lamp fills much of it, a frame of many small patches), the
      // squares are read from one summed table of them, one pass over the scale; elsewhere
      // (a frame with a few small lamps) summed where asked.
      let asked = planes.reduce(0) { $0 + $1.pixelsAsked }
      let table = clock.time("evidence") {
        asked > blurred.width * blurred.height ? SummedTable(blurred) : nil
      }
      for plane in planes {
        var candidates = clock.time("evidence") { plane.candidates(finder: self, table: table) }
        for i in candidates.indices {
          for j in candidates[i].indices {
            candidates[i][j].light = candidates[i][j].light.scaled(
              by: scale, toWidth: image.width, height: image.height)
          }
        }
        found += candidates
      }
      if min(level.width, level.height) < smallestHalvedSide || scale >= 1 << halvings { break }
      level = clock.time("halve") { level.halved() }
      scale *= 2
    }
    return found
  }

  /// Drops each light whose box's centre lies inside a more confident one's box, and each
  /// whose box overlaps a more confident light's of the same colour: two housings cannot
  /// share pixels, so lamps of one colour in overlapping boxes are one light seen twice (the
  /// LEDs of a close-up lamp taken a cluster at a time, an arrow lit beside its lamp).
  package static func keepingOnePerLight(_ lights: [FoundLight]) -> [FoundLight] {
    var kept: [FoundLight] = []
    for light in lights.sorted(by: { $0.confidence > $1.confidence })
    where !kept.contains(where: {
      $0.box.holdsCentre(of: light.box)
        || ($0.color == light.color && $0.box.overlaps(light.box))
    }) {
      kept.append(light)
    }
    return kept
  }
}

extension FoundLight {
  /// This light in the pixels of an image `factor` times larger, its box clipped to that
  /// image's `width` x `height`.
  func scaled(by factor: Int, toWidth width: Int, height: Int) -> FoundLight {
    func scaled(_ region: PixelRegion) -> PixelRegion {
      let big = PixelRegion(
        x: region.x * factor, y: region.y * factor, width: region.width * factor,
        height: region.height * factor)
      return big.clipped(toWidth: width, height: height) ?? big
    }
    var light = self
    light.box = scaled(box)
    light.lamp = scaled(lamp)
    return light
  }
}

/// How the light a frame shows is chosen among the lights found in it
/// (`LampFinder.lightThatMatters(in:minimumConfidence:near:choice:)`). The defaults were
/// chosen with each shared frame folder left out in turn (CALIBRATION.md, "The frame's
/// light").
public struct LightChoice: Codable, Sendable, Equatable {
  /// What a light's size adds to its confidence in its score: `sizeWeight` times the natural
  /// log of its area over the largest light's, so a light of half the area scores about
  /// 0.035 less (default 0.05): a nearer light matters more.
  public var sizeWeight = 0.05
  /// Lights that score within `tie` of the best are equally sure, and the most restrictive
  /// colour among them wins (default 0.01).
  public var tie = 0.01

  /// The default choice.
  public init() {}

  /// The most restrictive colour among all the lights, whatever their scores, then the most
  /// confident: what a crop's locator looks at first, so that a green glint never draws the
  /// reading away from a red lamp.
  public static let mostRestrictive = LightChoice(sizeWeight: 0, tie: 1)

  /// A choice with these weights.
  public init(sizeWeight: Double, tie: Double) {
    self.sizeWeight = sizeWeight
    self.tie = tie
  }

  private enum CodingKeys: String, CodingKey { case sizeWeight, tie }

  /// Decodes a choice; a missing key keeps its default.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    sizeWeight = try container.decodeIfPresent(Double.self, forKey: .sizeWeight) ?? sizeWeight
    tie = try container.decodeIfPresent(Double.self, forKey: .tie) ?? tie
  }

  /// What is wrong with these values, or nil: `sizeWeight` from 0 to 10, `tie` from 0 to 1
  /// (1: every light is equally sure, and the most restrictive colour always wins).
  public var problem: String? {
    guard sizeWeight.isFinite, sizeWeight >= 0, sizeWeight <= 10 else {
      return "choice.sizeWeight must be between 0 and 10"
    }
    guard tie.isFinite, tie >= 0, tie <= 1 else { return "choice.tie must be between 0 and 1" }
    return nil
  }
}

extension LampFinder {
  /// The light whose colour a frame shows, among `lights` at least `minimumConfidence`
  /// sure. Each scores its confidence plus `choice.sizeWeight` times the log of its area
  /// over the largest's; of the lights within `choice.tie` of the best score, the most
  /// restrictive colour wins (red, then yellow, then green). Among the lights of that
  /// colour, the one nearest `tracked` (the light chosen in the frame before, in a sequence)
  /// when one lies within twice its box's longer side of it, else the best scored. Nil when
  /// no light is sure enough.
  public static func lightThatMatters(
    in lights: [FoundLight], minimumConfidence: Double = 0, near tracked: FoundLight? = nil,
    choice: LightChoice = LightChoice()
  ) -> FoundLight? {
    let sure = lights.filter { $0.confidence >= minimumConfidence }
    guard let largest = sure.map({ max(1, $0.box.width * $0.box.height) }).max() else { return nil }
    func score(_ light: FoundLight) -> Double {
      let area = max(1, light.box.width * light.box.height)
      return light.confidence + choice.sizeWeight * log(Double(area) / Double(largest))
    }
    let best = sure.map(score).max() ?? 0
    let equallySure = sure.filter { score($0) >= best - choice.tie }
    guard
      let color = SignalColor.byRestrictiveness.first(where: { color in
        equallySure.contains { $0.color == color }
      })
    else { return nil }
    let candidates = sure.filter { $0.color == color }
    if let tracked {
      let reach = 2 * max(tracked.box.width, tracked.box.height)
      let nearest = candidates.map { ($0, $0.lamp.distanceSquared(to: tracked.lamp)) }.min { $0.1 < $1.1 }
      if let nearest, nearest.1 <= reach * reach { return nearest.0 }
    }
    // The best scored, then the larger, then the first.
    return candidates.enumerated().max { a, b in
      let (x, y) = (a.element, b.element)
      let (sx, sy) = (score(x), score(y))
      if sx != sy { return sx < sy }
      let (ax, ay) = (x.box.width * x.box.height, y.box.width * y.box.height)
      return ax != ay ? ax < ay : a.offset > b.offset
    }?.element
  }
}
