import TrafficLightKernels

/// The decision stage of the pipeline: from a light's sampled points to the frame's colour.
///
/// A decider is profile data: it is stored in a profile's JSON as an object whose `"kind"`
/// names the type (`FrameDeciders.kinds` lists them), and it says which of its values the
/// calibrator may search (`tuning`). Adding a decider is a new conforming type and a line in
/// `FrameDeciders.kinds`.
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

  /// The values the calibrator searches, each over a grid of its own.
  var tuning: [TuningAxis<Self>] { get }

  /// This decider with the values that follow the pixel thresholds (hue windows, floors)
  /// set from `thresholds`: the calibrator keeps such values tied to the thresholds it
  /// searches.
  func tied(to thresholds: HSVThresholds) -> Self
}

extension FrameDecider {
  /// Points, unless a decider says otherwise.
  public var readsPixels: Bool { false }

  /// Not called for a decider that reads points.
  public func decide(pixelsOf region: PixelRegion, in image: RGBImage) -> FrameDecision {
    preconditionFailure("\(Self.kind) reads sampled points, not pixels")
  }

  /// No tuning axes, unless a decider declares some.
  public var tuning: [TuningAxis<Self>] { [] }
  /// The decider unchanged, unless its windows follow the thresholds.
  public func tied(to thresholds: HSVThresholds) -> Self { self }

  /// Whether `other` is this decider: the same kind with the same values.
  func isEqual(to other: any FrameDecider) -> Bool { (other as? Self) == self }

  static func decoded(from decoder: any Decoder) throws -> any FrameDecider { try Self(from: decoder) }

  /// The axes of this decider as axes of the profile that holds it.
  func profileTuning() -> [TuningAxis<Profile>] {
    tuning.map { axis in
      axis.lifted(
        get: { (profile: Profile) in profile.decider as! Self },
        set: { (profile: inout Profile, decider: Self) in profile.decider = decider })
    }
  }
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
