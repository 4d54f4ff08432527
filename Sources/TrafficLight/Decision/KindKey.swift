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
