import TrafficLightKernels

/// The locating stage of the pipeline: where, inside the region being read, the lights are.
///
/// A locator is profile data, stored in JSON as an object whose `"kind"` names the type
/// (`LightLocators.kinds` lists them). Adding a locator is a new conforming type and a line
/// in that list.
public protocol LightLocator: Sendable, Codable, Equatable {
  /// The `"kind"` that names this locator in JSON.
  static var kind: String { get }

  /// The lights found in `region` of `image` (in the image's pixels), the one to read first.
  func locate(in image: RGBImage, within region: PixelRegion) -> [LocatedLight]

  /// What is wrong with the values, if anything: a profile with a problem is refused.
  var problem: String? { get }
}

extension LightLocator {
  /// No problem: a locator without values has none.
  public var problem: String? { nil }

  func isEqual(to other: any LightLocator) -> Bool { (other as? Self) == self }

  static func decoded(from decoder: any Decoder) throws -> any LightLocator { try Self(from: decoder) }
}

/// A light found by a locator: its box in the image's pixels, the way its lamps run, and
/// the lit lamp it was placed from, with that lamp's colour.
public struct LocatedLight: Sendable, Equatable {
  /// The light's box, in the image's pixels.
  public var box: PixelRegion
  /// The way the lamps run, or `nil` to keep the profile's.
  public var orientation: Orientation?
  /// The lit lamp the light was placed from, in the image's pixels; nil when the locator saw
  /// none (the light is the region itself, as the article reads a crop).
  public var lamp: PixelRegion?
  /// The colour of the lit `lamp`; nil when the locator saw none. A reading of the light
  /// never answers green beside a lit red lamp (`LightDecision.besideLitLamp(_:)`).
  public var lampColor: SignalColor?

  /// A light in `box`, its lamps running as `orientation` says (nil: the profile's way),
  /// placed from the lit `lamp` of colour `lampColor` (nil: none seen).
  public init(
    box: PixelRegion, orientation: Orientation? = nil, lamp: PixelRegion? = nil, lampColor: SignalColor? = nil
  ) {
    self.box = box
    self.orientation = orientation
    self.lamp = lamp
    self.lampColor = lampColor
  }

  /// This light moved `dx` pixels right and `dy` down (into the pixels of a larger image).
  public func offset(by dx: Int, _ dy: Int) -> LocatedLight {
    let move = { (r: PixelRegion) in PixelRegion(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height) }
    return LocatedLight(box: move(box), orientation: orientation, lamp: lamp.map(move), lampColor: lampColor)
  }
}

/// The article's placement: the region read is the light, edge to edge.
public struct WholeRegion: LightLocator {
  /// The locator's kind in profile JSON.
  public static let kind = "wholeRegion"

  /// The locator; it has no parameters.
  public init() {}

  /// The region itself, as the one light.
  public func locate(in image: RGBImage, within region: PixelRegion) -> [LocatedLight] {
    [LocatedLight(box: region)]
  }
}

/// The light inside the region found by its lit lamp (`LampFinder`): the housing placed
/// from the lamp that matters (`LampFinder.lightThatMatters(in:minimumConfidence:near:choice:)`
/// with `LightChoice.mostRestrictive`), clipped to the region,
/// read the way its lamps run; the whole region when no lamp is found there, or the lamp
/// that matters is less than an eighth of the region's shorter side (the decision then has
/// only the region to go on), or the region is larger than a crop (`largestSearched`). The
/// finder's housing search (`LampFinder.housings`) is for frames: a crop is searched by its
/// lamps alone.
public struct LitLampRegion: LightLocator {
  /// The locator's kind in profile JSON.
  public static let kind = "litLamp"

  /// The finder it searches the region with.
  public var finder: LampFinder
  /// The most pixels a region may have to be searched: a larger one is a frame rather than a
  /// crop, and is read whole, at the cost of reading it (`--find-lights` searches frames).
  public var largestSearched: Int

  /// The locator searching with `finder` regions of at most `largestSearched` pixels.
  public init(finder: LampFinder = LampFinder(), largestSearched: Int = 512 * 512) {
    self.finder = finder
    self.largestSearched = largestSearched
  }

  private enum CodingKeys: String, CodingKey { case finder, largestSearched }

  /// Decodes the locator; a missing key takes the value `init()` gives it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    finder = try container.decodeIfPresent(LampFinder.self, forKey: .finder) ?? LampFinder()
    largestSearched = try container.decodeIfPresent(Int.self, forKey: .largestSearched) ?? 512 * 512
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    guard largestSearched >= 0 else { return "largestSearched must not be negative, not \(largestSearched)" }
    return finder.problem.map { "finder \($0)" }
  }

  /// The found light's housing, or the region itself.
  public func locate(in image: RGBImage, within region: PixelRegion) -> [LocatedLight] {
    guard region.width * region.height <= largestSearched else { return [LocatedLight(box: region)] }
    let crop = image.cropped(to: region)
    // The most restrictive lamp found decides where to look, so that a green glint never
    // draws the reading away from a red lamp; a lamp far smaller than the region is not the
    // light it was cut around (a glint, a distant light, LEDs seen as dots), and leaves the
    // region whole.
    // A crop is searched by its lamps: the housing search reads frames (where a light is to
    // be found, at a frame's cost), and a crop is the light already.
    var lamps = finder
    lamps.housings = nil
    guard let light = LampFinder.lightThatMatters(in: lamps.find(in: crop), choice: .mostRestrictive),
      max(light.lamp.width, light.lamp.height) >= min(region.width, region.height) / 8,
      let box = light.box.clipped(toWidth: region.width, height: region.height)
    else { return [LocatedLight(box: region)] }
    return [
      LocatedLight(box: box, orientation: light.orientation, lamp: light.lamp, lampColor: light.color)
        .offset(by: region.x, region.y)
    ]
  }
}

/// The locators a profile may name.
public enum LightLocators {
  /// Every locator kind, by the name JSON gives it.
  public static let kinds: [any LightLocator.Type] = [WholeRegion.self, LitLampRegion.self]

  static func decode(from decoder: any Decoder) throws -> any LightLocator {
    try KindKey.decode(from: decoder, kinds: kinds.map { type in (type.kind, type.decoded) })
  }

  static func encode(_ locator: any LightLocator, to encoder: any Encoder) throws {
    try KindKey.encode(locator, kind: type(of: locator).kind, to: encoder)
  }
}
