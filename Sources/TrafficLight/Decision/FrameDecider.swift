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

  /// The colour of a light whose points on `grid` are `samples`, with the evidence.
  func decide(_ samples: [SamplePoint], on grid: SampleGrid) -> FrameDecision

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
  public var tuning: [TuningAxis<Self>] { [] }
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
  public static let kinds: [any FrameDecider.Type] = [CascadeDecider.self]

  /// The decider the JSON object in `decoder` describes, by its `"kind"`.
  static func decode(from decoder: any Decoder) throws -> any FrameDecider {
    try KindKey.decode(from: decoder, kinds: kinds.map { type in (type.kind, type.decoded) })
  }

  static func encode(_ decider: any FrameDecider, to encoder: any Encoder) throws {
    try KindKey.encode(decider, kind: type(of: decider).kind, to: encoder)
  }
}

/// The `"kind"` key of a JSON object that stands for one of several types.
enum KindKey: String, CodingKey {
  case kind

  /// The value the JSON object in `decoder` describes, decoded by the entry of `kinds`
  /// that its `"kind"` names.
  static func decode<T>(from decoder: any Decoder, kinds: [(String, (any Decoder) throws -> T)]) throws -> T {
    let kind = try decoder.container(keyedBy: KindKey.self).decode(String.self, forKey: .kind)
    guard let entry = kinds.first(where: { $0.0 == kind }) else {
      throw unknown(kind, known: kinds.map { $0.0 }, in: decoder)
    }
    return try entry.1(decoder)
  }

  /// `value`'s fields and its `"kind"`, in one JSON object.
  static func encode(_ value: any Encodable, kind: String, to encoder: any Encoder) throws {
    try value.encode(to: encoder)
    var container = encoder.container(keyedBy: KindKey.self)
    try container.encode(kind, forKey: .kind)
  }

  /// The error for a kind no type answers to.
  static func unknown(_ kind: String, known: [String], in decoder: any Decoder) -> DecodingError {
    .dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath + [KindKey.kind],
        debugDescription: "unknown kind '\(kind)' (known: \(known.joined(separator: ", ")))"))
  }
}

/// A frame's colour, the points read, the points of each colour that voted, and what named
/// the colour.
public struct FrameDecision: Sendable, Equatable {
  /// `decidedBy` when the points' vote named the colour (or, with no vote and no rule that
  /// answered, `unknown`).
  public static let vote = "vote"

  public let samples: [SamplePoint]
  public let counts: ColorCounts
  public let color: SignalColor
  /// What named the colour: `FrameDecision.vote`, or the kind of the rule that did.
  public let decidedBy: String

  public init(samples: [SamplePoint], counts: ColorCounts, color: SignalColor, decidedBy: String = vote) {
    self.samples = samples
    self.counts = counts
    self.color = color
    self.decidedBy = decidedBy
  }

  /// No points: an empty light.
  public static let empty = FrameDecision(samples: [], counts: ColorCounts(), color: .unknown)
}
