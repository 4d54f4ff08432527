import Foundation
import TrafficLightKernels

/// Why a profile could not be loaded.
public enum ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The argument is neither a built-in profile name nor a readable file.
  case notFound(String)
  case unreadable(path: String, reason: String)
  case invalid(path: String, reason: String)

  /// The profile and what is wrong, for a message.
  public var description: String {
    switch self {
    case .notFound(let name):
      "no profile named '\(name)' (built in: \(Profile.builtInNames.joined(separator: ", "))) and no such file"
    case .unreadable(let path, let reason): "\(path): cannot read profile: \(reason)"
    case .invalid(let path, let reason): "\(path): invalid profile: \(reason)"
    }
  }
}

/// Everything that decides how a frame is read: the blur, the per-pixel thresholds, where
/// the points are, how the light is located and how the points are decided. A profile is
/// data: a built-in one by name, or a JSON file.
///
/// JSON form (keys other than `thresholds` may be left out and take the seed's values):
/// ```json
/// {"name": "night", "sigma": 2.0, "points": 9, "columns": 3, "orientation": "vertical",
///  "thresholds": {"saturationFloor": 0.5, "valueFloor": 0.3,
///                 "green": {"lower": 100, "upper": 220, "saturationFloor": 0.2},
///                 "yellow": {"lower": 5, "upper": 60}, "red": {"lower": 340, "upper": 5}},
///  "locator": {"kind": "wholeRegion"},
///  "decider": {"kind": "cascade", "lampOrder": ["red", "yellow", "green"],
///              "positionWeight": 3, "relativeBrightness": 0.5,
///              "rules": [{"kind": "warmSplit", "hue": 10, "lower": 335, "upper": 65,
///                         "saturationFloor": 0.15, "valueFloor": 0.35},
///                        {"kind": "brightnessFallback", "margin": 0.02, "floor": 0.3}]}}
/// ```
/// The flat form of earlier versions, with the cascade's keys (`lampOrder`,
/// `positionWeight`, `relativeBrightness`, `warmSplit`, `faintLamp`, `brightnessFallback`)
/// at the top level instead of a `decider`, is still read, as a cascade with its rules in
/// that order: warm split, faint lamp, brightness fallback.
public struct Profile: Sendable, Equatable, Codable {
  /// The name shown in reports (`custom` when the JSON has none).
  public var name: String
  /// Gaussian blur sigma in pixels; 0 for none.
  public var sigma: Double
  /// The per-pixel classifier's rules.
  public var thresholds: HSVThresholds
  /// Where the points are read on the light (JSON: `points`, `columns`, `orientation`).
  public var grid: SampleGrid
  /// Where the light is in the region read.
  public var locator: any LightLocator
  /// From the points to the frame's colour.
  public var decider: any LightDecider
  /// A colour named with less confidence than this (0 to 1) is answered `unknown`
  /// (JSON `minimumConfidence`, default 0: every colour named stands).
  public var minimumConfidence: Double = 0
  /// The busiest a light's region may be (`RGBImage.busyness(in:)`) for a colour to be named
  /// when the light was not placed from a lit lamp: above it the answer is `unknown`
  /// (`LightDecision.inRegion(ofBusyness:atMost:)`). Nil, the default: no bound
  /// (JSON `maximumBusyness`).
  public var maximumBusyness: Double? = nil
  /// How a sequence's frames are smoothed over time (JSON `smoothing`; left out, the
  /// article's ten-frame vote).
  public var smoothing = Smoothing.vote
  /// Where the decider names no colour, or is unsure of the one it names, a second reading of
  /// the region read, by a network (`NetworkFallback`; JSON `networkFallback`). Nil, the
  /// default: none.
  public var networkFallback: NetworkFallback? = nil

  /// A profile of these parts; the defaults are the seed's.
  public init(
    name: String, sigma: Double = 2, thresholds: HSVThresholds, grid: SampleGrid = SampleGrid(),
    locator: any LightLocator = WholeRegion(), decider: any LightDecider = CascadeDecider(),
    maximumBusyness: Double? = nil, smoothing: Smoothing = .vote
  ) {
    self.name = name
    self.sigma = sigma
    self.thresholds = thresholds
    self.grid = grid
    self.locator = locator
    self.decider = decider
    self.maximumBusyness = maximumBusyness
    self.smoothing = smoothing
  }

  /// The article's method exactly: sigma 2, its thresholds, seven points down the centre,
  /// the plain count.
  public static let seed = Profile(name: "seed", thresholds: .seed)

  /// The project's best profile: what `traffic-light calibrate --from
  /// profiles/untrained.json` fitted to the shared datasets (with the lamp finder of the
  /// time, CALIBRATION.md), with bounds added after the fit, not searched: the brightness
  /// fallback names a lamp only when its third leads the next by 5% of full scale or is a
  /// bright disc in its housing (`BrightnessFallback.lead`, `disc`), and its light is white
  /// or of the lamp's hue (`tint`); the faint lamp only when its third holds more faint points
  /// than any other (`FaintLamp.lead`) and they are no darker than a tenth of full scale
  /// below the light's centre line elsewhere (`shade`); and a red point as dim beside a lit
  /// green lamp as an unlit lens does not veto green (`RedVetoesGreen.unlitRatio`, the
  /// finder's `unlitRatio`); and where no lit lamp placed the light, a region as busy as
  /// foliage or rendered terrain names no colour (`maximumBusyness`); where the rules name no
  /// colour, or one less than 0.7 sure, `fitted`'s network reads the region, its red or yellow
  /// at least 0.7 sure filling no colour and any other colour standing where the region shows
  /// it (`networkFallback`). A sequence is smoothed by the most likely states of the light
  /// over the whole recording (`Smoothing.Kind.offline`).
  /// It reads vertical lights: its locator looks for vertical heads only (`oriented(_:)`
  /// turns it), with the finder's own defaults (`LampFinder()`).
  /// Its values are data, `Sources/TrafficLight/Profiles/default.json`, compiled into the
  /// library; CALIBRATION.md says what each value is for and what its neighbours read.
  public static let `default` = builtIn(PackageResources.default_json, named: "default.json")

  /// The finder this profile searches whole frames with: its locator's
  /// (`LitLampRegion.finder`, the same notion of a lit lamp as in a crop) or, for a locator
  /// that finds no lamps, `LampFinder()`; looking for heads that run `heads` (a frame may
  /// hold lights of both ways, so `auto` by default, whatever way the locator's crops run).
  public func frameFinder(heads: Orientation = .auto) -> LampFinder {
    var finder = (locator as? LitLampRegion)?.finder ?? LampFinder()
    finder.heads = heads
    return finder
  }

  /// This profile reading lights that run `orientation`: the grid's rows go that way, and a
  /// locator that finds lamps (`LitLampRegion`) looks only for heads running that way
  /// (`auto`: the grid tells a region's way by its shape, and the locator looks for both).
  public func oriented(_ orientation: Orientation) -> Profile {
    var profile = self
    profile.grid.orientation = orientation
    if var litLamp = locator as? LitLampRegion {
      litLamp.finder.heads = orientation
      profile.locator = litLamp
    }
    return profile
  }

  /// The light network fitted to the shared folders (`LightNetworkDecider`): each crop, and
  /// each light the lamp finder finds in a frame, read from its thumbnail;
  /// `scripts/train_light_network.py` trains it and wrote its JSON,
  /// `Sources/TrafficLight/Profiles/fitted.json`, compiled into the library.
  public static let fitted = builtIn(PackageResources.fitted_json, named: "fitted.json")

  /// The profile whose JSON is compiled into the library. Its keys are not checked against
  /// what reads them (the tests do that, and the check costs more than the decoding);
  /// its values are.
  private static func builtIn(_ json: [UInt8], named file: String) -> Profile {
    do {
      let profile = try JSONDecoder().decode(Profile.self, from: Data(json))
      if let problem = profile.problem { throw ProfileError.invalid(path: file, reason: problem) }
      return profile
    } catch {
      preconditionFailure("the built-in profile \(file) does not load: \(error)")
    }
  }

  /// The names of the built-in profiles.
  public static let builtInNames = ["seed", "default", "fitted"]

  /// The profiles known by name: `seed`, `default` and `fitted`.
  public static var builtIn: [Profile] { [.seed, .default, .fitted] }

  /// A built-in profile by name, or else the JSON profile at that path. Only the profile
  /// named is loaded.
  ///
  /// - Throws: `ProfileError`.
  public static func named(_ nameOrPath: String) throws(ProfileError) -> Profile {
    switch nameOrPath {
    case "seed": return .seed
    case "default": return .default
    case "fitted": return .fitted
    default: break
    }
    var status = stat()
    guard FileSystemPath.status(nameOrPath, &status) else { throw .notFound(nameOrPath) }
    return try read(fileAt: nameOrPath)
  }

  /// The JSON profile in the file at `path` (at most 16 MB).
  static func read(fileAt path: String) throws(ProfileError) -> Profile {
    let data: [UInt8]
    do {
      data = try FileReader.readAll(path, maxBytes: 16 << 20)
    } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    return try decode(Data(data), path: path)
  }

  /// A profile from its JSON form; `path` names it in errors.
  public static func decode(_ json: Data, path: String) throws(ProfileError) -> Profile {
    let profile: Profile
    do {
      profile = try JSONDecoder().decode(Profile.self, from: json)
    } catch let error as DecodingError {
      throw .invalid(path: path, reason: Self.describe(error))
    } catch {
      throw .invalid(path: path, reason: "\(error)")
    }
    if let key = ProfileKeys.firstUnknown(in: json) {
      throw .invalid(path: path, reason: "unknown key '\(key)' (misspelt? nothing reads it)")
    }
    if let problem = profile.problem { throw .invalid(path: path, reason: problem) }
    return profile
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    if !(sigma >= 0 && sigma <= 50) { return "sigma must be between 0 and 50, not \(sigma)" }
    if !(1...1000).contains(grid.points) { return "points must be between 1 and 1000, not \(grid.points)" }
    if !(1...100).contains(grid.columns) { return "columns must be between 1 and 100, not \(grid.columns)" }
    if !(minimumConfidence >= 0 && minimumConfidence <= 1) {
      return "minimumConfidence must be between 0 and 1, not \(minimumConfidence)"
    }
    if let bound = maximumBusyness, !(bound >= 0 && bound <= 100) {
      return "maximumBusyness must be between 0 and 100, not \(bound)"
    }
    if let problem = smoothing.problem { return problem }
    if let networkFallback {
      if decider.readsPixels { return "a networkFallback is for a decider that reads points" }
      if let problem = networkFallback.problem { return problem }
    }
    if let problem = decider.problem { return problem }
    if let problem = locator.problem { return "locator \(type(of: locator).kind): \(problem)" }
    return Self.problem(of: thresholds)
  }

  /// What is wrong with `t`, if anything: floors in 0..<1, hue bounds in 0...360.
  static func problem(of t: HSVThresholds) -> String? {
    if !(t.saturationFloor >= 0 && t.saturationFloor < 1) {
      return "saturationFloor must be in 0..<1, not \(t.saturationFloor)"
    }
    if !(t.valueFloor >= 0 && t.valueFloor < 1) { return "valueFloor must be in 0..<1, not \(t.valueFloor)" }
    for (label, range) in [("green", t.green), ("yellow", t.yellow), ("red", t.red)] {
      for bound in [range.lower, range.upper] where !(bound >= 0 && bound <= 360) {
        return "\(label) hue bounds must be in 0...360 degrees, not \(bound)"
      }
      if let floor = range.saturationFloor, !(floor >= 0 && floor < 1) {
        return "\(label) saturationFloor must be in 0..<1, not \(floor)"
      }
    }
    return nil
  }

  /// The JSON form of this profile, keys sorted, indented.
  public func json() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try! encoder.encode(self)  // plain numbers and strings: cannot fail
  }

  /// The frame's colour from its points on `grid`: the decider's answer, `unknown` below
  /// `minimumConfidence`, `unknown` for green when the light was placed from a lit red
  /// lamp (`placedFrom`, the locator's `LocatedLight.lampColor`; see
  /// `LightDecision.besideLitLamp(_:)`), and `unknown` when no lit lamp placed it and its
  /// region is busier than `maximumBusyness` (`busyness`, the region's
  /// `RGBImage.busyness(in:)`, measured only then).
  public func decide(
    _ samples: [SamplePoint], on grid: SampleGrid, placedFrom lamp: SignalColor? = nil,
    busyness: @autoclosure () -> Double = 0
  ) -> LightDecision {
    finished(decider.decide(samples, on: grid), placedFrom: lamp, busyness: busyness())
  }

  /// The colour of the light in `region` of `image`, for a decider that reads pixels
  /// (`LightDecider.readsPixels`), held to the same bounds as `decide(_:on:placedFrom:busyness:)`.
  public func decide(
    pixelsOf region: PixelRegion, in image: RGBImage, placedFrom lamp: SignalColor? = nil,
    busyness: @autoclosure () -> Double = 0
  ) -> LightDecision {
    finished(decider.decide(pixelsOf: region, in: image), placedFrom: lamp, busyness: busyness())
  }

  /// The decider's `decision` held to `minimumConfidence`, the lit lamp's colour and
  /// `maximumBusyness`.
  package func finished(
    _ decision: LightDecision, placedFrom lamp: SignalColor?, busyness: @autoclosure () -> Double
  ) -> LightDecision {
    let decision = decision.requiring(confidence: minimumConfidence).besideLitLamp(lamp)
    guard let bound = maximumBusyness, lamp == nil, decision.color != .unknown else { return decision }
    return decision.inRegion(ofBusyness: busyness(), atMost: bound)
  }

  /// Equal parts, the locator and decider compared by value.
  public static func == (a: Profile, b: Profile) -> Bool {
    a.name == b.name && a.sigma == b.sigma && a.thresholds == b.thresholds && a.grid == b.grid
      && a.minimumConfidence == b.minimumConfidence && a.maximumBusyness == b.maximumBusyness
      && a.locator.isEqual(to: b.locator) && a.decider.isEqual(to: b.decider) && a.smoothing == b.smoothing
      && a.networkFallback == b.networkFallback
  }

  enum CodingKeys: String, CodingKey {
    case name, sigma, thresholds, points, columns, orientation, locator, decider, minimumConfidence
    case maximumBusyness, smoothing, networkFallback
  }

  /// The cascade's keys in the flat form of earlier versions.
  private enum FlatCascadeKeys: String, CodingKey, CaseIterable {
    case lampOrder, positionWeight, relativeBrightness, warmSplit, faintLamp, brightnessFallback
  }

  /// Decodes the JSON form; keys left out take the seed's values. The values are not
  /// checked here: `Profile.decode` and `Profile.named` reject a profile with a `problem`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let seed = Profile.seed
    name = try container.decodeIfPresent(String.self, forKey: .name) ?? "custom"
    sigma = try container.decodeIfPresent(Double.self, forKey: .sigma) ?? seed.sigma
    thresholds = try container.decode(HSVThresholds.self, forKey: .thresholds)
    // Set field by field, past the initializer's preconditions: `problem` says what is wrong.
    grid = seed.grid
    // Read as numbers, then held to whole ones, so that 7.5 is named as the problem it is.
    func whole(_ key: CodingKeys) throws -> Int? {
      guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
      guard value.rounded() == value, abs(value) < 1e9 else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container, debugDescription: "must be a whole number, not \(value)")
      }
      return Int(value)
    }
    grid.points = try whole(.points) ?? grid.points
    grid.columns = try whole(.columns) ?? grid.columns
    grid.orientation =
      try container.decodeIfPresent(Orientation.self, forKey: .orientation) ?? grid.orientation
    minimumConfidence = try container.decodeIfPresent(Double.self, forKey: .minimumConfidence) ?? 0
    maximumBusyness = try container.decodeIfPresent(Double.self, forKey: .maximumBusyness)
    smoothing = try container.decodeIfPresent(Smoothing.self, forKey: .smoothing) ?? .vote
    networkFallback = try container.decodeIfPresent(NetworkFallback.self, forKey: .networkFallback)
    locator =
      container.contains(.locator)
      ? try LightLocators.decode(from: container.superDecoder(forKey: .locator)) : WholeRegion()
    let flat = try decoder.container(keyedBy: FlatCascadeKeys.self)
    if container.contains(.decider) {
      if let key = flat.allKeys.first {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: flat,
          debugDescription: "a cascade key beside a 'decider': move it into the decider")
      }
      decider = try LightDeciders.decode(from: container.superDecoder(forKey: .decider))
    } else {
      var cascade = CascadeDecider()
      cascade.lampOrder =
        try flat.decodeIfPresent([SignalColor].self, forKey: .lampOrder) ?? cascade.lampOrder
      cascade.positionWeight =
        try flat.decodeIfPresent(Double.self, forKey: .positionWeight) ?? cascade.positionWeight
      cascade.relativeBrightness =
        try flat.decodeIfPresent(Double.self, forKey: .relativeBrightness) ?? cascade.relativeBrightness
      let rules: [(any CascadeRule)?] = [
        try flat.decodeIfPresent(WarmSplit.self, forKey: .warmSplit),
        try flat.decodeIfPresent(FaintLamp.self, forKey: .faintLamp),
        try flat.decodeIfPresent(BrightnessFallback.self, forKey: .brightnessFallback),
      ]
      cascade.rules = rules.compactMap { $0 }
      decider = cascade
    }
  }

  /// Encodes the JSON form `decode` reads.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(sigma, forKey: .sigma)
    try container.encode(thresholds, forKey: .thresholds)
    try container.encode(grid.points, forKey: .points)
    try container.encode(grid.columns, forKey: .columns)
    try container.encode(grid.orientation, forKey: .orientation)
    if minimumConfidence != 0 { try container.encode(minimumConfidence, forKey: .minimumConfidence) }
    try container.encodeIfPresent(maximumBusyness, forKey: .maximumBusyness)
    try container.encode(smoothing, forKey: .smoothing)
    try container.encodeIfPresent(networkFallback, forKey: .networkFallback)
    try LightLocators.encode(locator, to: container.superEncoder(forKey: .locator))
    try LightDeciders.encode(decider, to: container.superEncoder(forKey: .decider))
  }

  private static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      return keys.isEmpty ? "the top level" : "'\(keys.joined(separator: "."))'"
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "missing key '\(key.stringValue)' in \(path(context))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "wrong type at \(path(context)): \(context.debugDescription)"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "not valid JSON" : "bad value at \(path(context)): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}
