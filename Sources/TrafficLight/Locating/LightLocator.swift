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
}

extension LightLocator {
  func isEqual(to other: any LightLocator) -> Bool { (other as? Self) == self }

  static func decoded(from decoder: any Decoder) throws -> any LightLocator { try Self(from: decoder) }
}

/// A light found by a locator: its box in the image's pixels and the way its lamps run.
public struct LocatedLight: Sendable, Equatable {
  /// The light's box, in the image's pixels.
  public var box: PixelRegion
  /// The way the lamps run, or `nil` to keep the profile's.
  public var orientation: Orientation?

  /// A light in `box`, its lamps running as `orientation` says (nil: the profile's way).
  public init(box: PixelRegion, orientation: Orientation? = nil) {
    self.box = box
    self.orientation = orientation
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

/// The locators a profile may name.
public enum LightLocators {
  /// Every locator kind, by the name JSON gives it.
  public static let kinds: [any LightLocator.Type] = [WholeRegion.self]

  static func decode(from decoder: any Decoder) throws -> any LightLocator {
    try KindKey.decode(from: decoder, kinds: kinds.map { type in (type.kind, type.decoded) })
  }

  static func encode(_ locator: any LightLocator, to encoder: any Encoder) throws {
    try KindKey.encode(locator, kind: type(of: locator).kind, to: encoder)
  }
}
