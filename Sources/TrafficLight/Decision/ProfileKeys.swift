import Foundation
import TrafficLightKernels

/// Finds keys in a profile's JSON that nothing reads: a misspelt key (`"sigmaa"`, `"lowr"`)
/// would otherwise leave its value at the default without a word.
///
/// Each part is decoded on its own and encoded again; a key of the input that the encoding
/// does not have, at the same place, is unknown. (Null values, and keys a part leaves out when
/// they hold their default, are not at issue: the encoding of a part has every key it reads.)
enum ProfileKeys {
  /// The first unknown key, as a dotted path, or nil.
  static func firstUnknown(in json: Data) -> String? {
    guard let top = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else { return nil }
    let known: Set<String> = [
      "name", "sigma", "thresholds", "points", "columns", "orientation", "locator", "decider",
      "minimumConfidence", "maximumBusyness", "lampOrder", "positionWeight", "relativeBrightness",
      "warmSplit", "faintLamp", "brightnessFallback", "smoothing", "networkFallback",
    ]
    for key in top.keys.sorted() where !known.contains(key) { return key }
    let parts: [(String, (Data) throws -> Data)] = [
      ("thresholds", { try JSONEncoder().encode(try JSONDecoder().decode(HSVThresholds.self, from: $0)) }),
      ("locator", { try JSONEncoder().encode(try JSONDecoder().decode(AnyLocator.self, from: $0)) }),
      ("decider", { try JSONEncoder().encode(try JSONDecoder().decode(AnyDecider.self, from: $0)) }),
      ("warmSplit", { try JSONEncoder().encode(try JSONDecoder().decode(WarmSplit.self, from: $0)) }),
      ("smoothing", { try JSONEncoder().encode(try JSONDecoder().decode(Smoothing.self, from: $0)) }),
      (
        "networkFallback",
        { try JSONEncoder().encode(try JSONDecoder().decode(NetworkFallback.self, from: $0)) }
      ),
      ("faintLamp", { try JSONEncoder().encode(try JSONDecoder().decode(FaintLamp.self, from: $0)) }),
      (
        "brightnessFallback",
        { try JSONEncoder().encode(try JSONDecoder().decode(BrightnessFallback.self, from: $0)) }
      ),
    ]
    for (key, roundTrip) in parts {
      guard let input = top[key], input is [String: Any] else { continue }
      if key == "decider", let unknown = unknownInDecider(input, path: key) { return unknown }
      if key == "decider" { continue }
      if let unknown = compare(input, roundTrip, path: key) { return unknown }
    }
    return nil
  }

  /// A decider's keys, its rules one by one (a rule switched off is not encoded with the
  /// decider, so each is round-tripped alone).
  private static func unknownInDecider(_ input: Any, path: String) -> String? {
    guard var decider = input as? [String: Any] else { return nil }
    let rules = decider.removeValue(forKey: "rules") as? [Any] ?? []
    let roundTrip: (Data) throws -> Data = {
      try JSONEncoder().encode(try JSONDecoder().decode(AnyDecider.self, from: $0))
    }
    if let unknown = compare(decider, roundTrip, path: path, ignoring: ["rules"]) { return unknown }
    for (index, rule) in rules.enumerated() {
      let roundTrip: (Data) throws -> Data = {
        try JSONEncoder().encode(try JSONDecoder().decode(AnyRule.self, from: $0))
      }
      if let unknown = compare(rule, roundTrip, path: "\(path).rules.\(index)") { return unknown }
    }
    return nil
  }

  /// Round-trips `input` and compares; nil when it does not decode (the decoder says why).
  private static func compare(
    _ input: Any, _ roundTrip: (Data) throws -> Data, path: String, ignoring: Set<String> = []
  ) -> String? {
    guard let data = try? JSONSerialization.data(withJSONObject: input),
      let encoded = try? roundTrip(data),
      let output = try? JSONSerialization.jsonObject(with: encoded)
    else { return nil }
    return extra(input, beyond: output, path: path, ignoring: ignoring)
  }

  /// The first key of `input` that `output` lacks at the same place.
  private static func extra(_ input: Any, beyond output: Any, path: String, ignoring: Set<String> = [])
    -> String?
  {
    if let input = input as? [String: Any], let output = output as? [String: Any] {
      for key in input.keys.sorted() where !ignoring.contains(key) && !(input[key] is NSNull) {
        guard let value = output[key] else { return "\(path).\(key)" }
        if let unknown = extra(input[key]!, beyond: value, path: "\(path).\(key)") { return unknown }
      }
    } else if let input = input as? [Any], let output = output as? [Any] {
      for (index, (a, b)) in zip(input, output).enumerated() {
        if let unknown = extra(a, beyond: b, path: "\(path).\(index)") { return unknown }
      }
    }
    return nil
  }

  private struct AnyLocator: Codable {
    let value: any LightLocator
    init(from decoder: any Decoder) throws { value = try LightLocators.decode(from: decoder) }
    func encode(to encoder: any Encoder) throws { try LightLocators.encode(value, to: encoder) }
  }

  private struct AnyDecider: Codable {
    let value: any LightDecider
    init(from decoder: any Decoder) throws { value = try LightDeciders.decode(from: decoder) }
    func encode(to encoder: any Encoder) throws { try LightDeciders.encode(value, to: encoder) }
  }

  private struct AnyRule: Codable {
    let value: any CascadeRule
    init(from decoder: any Decoder) throws { value = try CascadeRules.decode(from: decoder) }
    func encode(to encoder: any Encoder) throws { try CascadeRules.encode(value, to: encoder) }
  }
}
