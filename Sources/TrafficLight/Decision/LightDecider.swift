import TrafficLightKernels

/// The decision stage of the pipeline: from a light's sampled points (or pixels) to its colour.
///
/// A decider is profile data: it is stored in a profile's JSON as an object whose `"kind"`
/// names the type (`LightDeciders.kinds` lists them). Which of its values a fit searches is
/// the study's to say, not the decider's (`SearchSpace` in TrafficLightStudy). Adding a
/// decider is a new conforming type and a line in `LightDeciders.kinds`.
public protocol LightDecider: Sendable, Codable, Equatable {
  /// The `"kind"` that names this decider in JSON.
  static var kind: String { get }

  /// Whether the decider reads the light's pixels (`decide(pixelsOf:in:)`) rather than its
  /// sampled points (`decide(_:on:)`): the pipeline calls the one this names.
  var readsPixels: Bool { get }

  /// The colour of a light whose points on `grid` are `samples`, with the evidence.
  func decide(_ samples: [SamplePoint], on grid: SampleGrid) -> LightDecision

  /// What the decider measures of the light in `region` of `image`, for a decider that
  /// `readsPixels`: the numbers it decides from (`decide(features:)`), which a fit keeps
  /// while it tries other values; nil when nothing can be measured there (the light reads
  /// `unknown`).
  func measure(pixelsOf region: PixelRegion, in image: RGBImage) -> [Float]?

  /// The colour of a light whose pixels measured `features` (`measure(pixelsOf:in:)`).
  func decide(features: [Float]) -> LightDecision

  /// What is wrong with the values, if anything: a profile with a problem is refused.
  var problem: String? { get }
}

extension LightDecider {
  /// Points, unless a decider says otherwise.
  public var readsPixels: Bool { false }

  /// Not called for a decider that reads points.
  public func measure(pixelsOf region: PixelRegion, in image: RGBImage) -> [Float]? {
    preconditionFailure("\(Self.kind) reads sampled points, not pixels")
  }

  /// Not called for a decider that reads points.
  public func decide(features: [Float]) -> LightDecision {
    preconditionFailure("\(Self.kind) reads sampled points, not pixels")
  }

  /// The colour of the light in `region` of `image`, for a decider that `readsPixels`: what
  /// it measures there, decided.
  public func decide(pixelsOf region: PixelRegion, in image: RGBImage) -> LightDecision {
    measure(pixelsOf: region, in: image).map(decide(features:)) ?? .empty
  }

  /// Whether `other` is this decider: the same kind with the same values.
  func isEqual(to other: any LightDecider) -> Bool { (other as? Self) == self }

  static func decoded(from decoder: any Decoder) throws -> any LightDecider { try Self(from: decoder) }
}

/// The deciders a profile may name.
public enum LightDeciders {
  /// Every decider kind, by the name JSON gives it.
  public static let kinds: [any LightDecider.Type] = [CascadeDecider.self, LightNetworkDecider.self]

  /// The decider the JSON object in `decoder` describes, by its `"kind"`.
  static func decode(from decoder: any Decoder) throws -> any LightDecider {
    try KindKey.decode(from: decoder, kinds: kinds.map { type in (type.kind, type.decoded) })
  }

  static func encode(_ decider: any LightDecider, to encoder: any Encoder) throws {
    try KindKey.encode(decider, kind: type(of: decider).kind, to: encoder)
  }
}

/// The decider's name before it was named for the light it reads.
@available(*, deprecated, renamed: "LightDecider")
public typealias FrameDecider = LightDecider

/// The deciders' list's name before it was named for the light they read.
@available(*, deprecated, renamed: "LightDeciders")
public typealias FrameDeciders = LightDeciders
