import TrafficLightKernels

/// The decision stage of the pipeline: from a light's sampled points to the frame's colour.
///
/// A decider is profile data: it is stored in a profile's JSON as an object whose `"kind"`
/// names the type (`FrameDeciders.kinds` lists them). Which of its values a fit searches is
/// the study's to say, not the decider's (`SearchSpace` in TrafficLightStudy). Adding a
/// decider is a new conforming type and a line in `FrameDeciders.kinds`.
public protocol FrameDecider: Sendable, Codable, Equatable {
  /// The `"kind"` that names this decider in JSON.
  static var kind: String { get }

  /// Whether the decider reads the light's pixels (`decide(pixelsOf:in:)`) rather than its
  /// sampled points (`decide(_:on:)`): the pipeline calls the one this names.
  var readsPixels: Bool { get }

  /// The colour of a light whose points on `grid` are `samples`, with the evidence.
  func decide(_ samples: [SamplePoint], on grid: SampleGrid) -> FrameDecision

  /// The colour of the light in `region` of `image`, for a decider that `readsPixels`.
  func decide(pixelsOf region: PixelRegion, in image: RGBImage) -> FrameDecision

  /// What is wrong with the values, if anything: a profile with a problem is refused.
  var problem: String? { get }
}

extension FrameDecider {
  /// Points, unless a decider says otherwise.
  public var readsPixels: Bool { false }

  /// Not called for a decider that reads points.
  public func decide(pixelsOf region: PixelRegion, in image: RGBImage) -> FrameDecision {
    preconditionFailure("\(Self.kind) reads sampled points, not pixels")
  }

  /// Whether `other` is this decider: the same kind with the same values.
  func isEqual(to other: any FrameDecider) -> Bool { (other as? Self) == self }

  static func decoded(from decoder: any Decoder) throws -> any FrameDecider { try Self(from: decoder) }
}

/// The deciders a profile may name.
public enum FrameDeciders {
  /// Every decider kind, by the name JSON gives it.
  public static let kinds: [any FrameDecider.Type] = [CascadeDecider.self, LightNetworkDecider.self]

  /// The decider the JSON object in `decoder` describes, by its `"kind"`.
  static func decode(from decoder: any Decoder) throws -> any FrameDecider {
    try KindKey.decode(from: decoder, kinds: kinds.map { type in (type.kind, type.decoded) })
  }

  static func encode(_ decider: any FrameDecider, to encoder: any Encoder) throws {
    try KindKey.encode(decider, kind: type(of: decider).kind, to: encoder)
  }
}
