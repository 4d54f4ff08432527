import CImageCodecs

extension tl_codec_report {
  /// The error message, as text.
  var messageText: String {
    let text = Self.text(message)
    return text.isEmpty ? "the codec gave no reason" : text
  }
  /// The first warning, as text.
  var warningText: String { Self.text(warning) }

  private static func text<T>(_ field: T) -> String {
    withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }
}
