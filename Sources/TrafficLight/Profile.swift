import Foundation
import TrafficLightKernels

/// Why a profile could not be loaded.
public enum ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The argument is neither a built-in profile name nor a readable file.
  case notFound(String)
  case unreadable(path: String, reason: String)
  case invalid(path: String, reason: String)

  public var description: String {
    switch self {
    case .notFound(let name):
      "no profile named '\(name)' (built in: \(Profile.builtIn.map(\.name).joined(separator: ", "))) and no such file"
    case .unreadable(let path, let reason): "\(path): cannot read profile: \(reason)"
    case .invalid(let path, let reason): "\(path): invalid profile: \(reason)"
    }
  }
}

/// Everything that decides how a frame is read: the blur, the per-pixel thresholds and the
/// sampler. A profile is data: a built-in one by name, or a JSON file.
///
/// JSON form (keys other than `thresholds` may be left out and take the seed's values):
/// ```json
/// {"name": "night", "sigma": 2.0, "points": 7, "orientation": "vertical",
///  "thresholds": {"saturationFloor": 0.5, "valueFloor": 0.3,
///                 "green": {"lower": 100, "upper": 220}, "yellow": {"lower": 5, "upper": 60},
///                 "red": {"lower": 340, "upper": 5}}}
/// ```
public struct Profile: Sendable, Equatable, Codable {
  public var name: String
  /// Gaussian blur sigma in pixels; 0 for none.
  public var sigma: Double
  public var thresholds: HSVThresholds
  /// Points sampled along the light.
  public var points: Int
  public var orientation: Orientation

  public init(
    name: String, sigma: Double = 2, thresholds: HSVThresholds, points: Int = 7,
    orientation: Orientation = .vertical
  ) {
    self.name = name
    self.sigma = sigma
    self.thresholds = thresholds
    self.points = points
    self.orientation = orientation
  }

  /// The article's method exactly: sigma 2, its thresholds, seven points down the centre.
  public static let seed = Profile(name: "seed", thresholds: .seed)

  /// The project's best profile. For now the seed's rules.
  public static let `default` = Profile(name: "default", thresholds: .seed)

  public static let builtIn: [Profile] = [.seed, .default]

  /// A built-in profile by name, or else the JSON profile at that path.
  ///
  /// - Throws: `ProfileError`.
  public static func named(_ nameOrPath: String) throws(ProfileError) -> Profile {
    if let profile = builtIn.first(where: { $0.name == nameOrPath }) { return profile }
    guard FileManager.default.fileExists(atPath: nameOrPath) else { throw .notFound(nameOrPath) }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: nameOrPath))
    } catch {
      throw .unreadable(path: nameOrPath, reason: error.localizedDescription)
    }
    return try decode(data, path: nameOrPath)
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
    if let problem = profile.problem { throw .invalid(path: path, reason: problem) }
    return profile
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    if !(sigma >= 0 && sigma <= 50) { return "sigma must be between 0 and 50, not \(sigma)" }
    if !(1...1000).contains(points) { return "points must be between 1 and 1000, not \(points)" }
    let t = thresholds
    if !(t.saturationFloor >= 0 && t.saturationFloor < 1) {
      return "saturationFloor must be in 0..<1, not \(t.saturationFloor)"
    }
    if !(t.valueFloor >= 0 && t.valueFloor < 1) { return "valueFloor must be in 0..<1, not \(t.valueFloor)" }
    for (label, range) in [("green", t.green), ("yellow", t.yellow), ("red", t.red)] {
      for bound in [range.lower, range.upper] where !(bound >= 0 && bound <= 360) {
        return "\(label) hue bounds must be in 0...360 degrees, not \(bound)"
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

  enum CodingKeys: String, CodingKey {
    case name, sigma, thresholds, points, orientation
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decodeIfPresent(String.self, forKey: .name) ?? "custom"
    sigma = try container.decodeIfPresent(Double.self, forKey: .sigma) ?? Profile.seed.sigma
    thresholds = try container.decode(HSVThresholds.self, forKey: .thresholds)
    points = try container.decodeIfPresent(Int.self, forKey: .points) ?? Profile.seed.points
    orientation =
      try container.decodeIfPresent(Orientation.self, forKey: .orientation) ?? Profile.seed.orientation
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
