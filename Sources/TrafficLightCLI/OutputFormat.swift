import TrafficLight

/// How results are written to stdout.
enum OutputFormat: String, CaseIterable {
  /// An aligned table for people.
  case text
  /// One JSON object per line, for scripts.
  case jsonl
  /// Comma-separated values with a header row, for spreadsheets.
  case csv

  static func parse(_ text: String) throws(CommandError) -> OutputFormat {
    guard let format = OutputFormat(rawValue: text) else {
      throw CommandError(
        "unknown format '\(text)' (choose \(allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    return format
  }
}

/// A JSON object written key by key, in order, on one line.
struct JSONLine {
  private(set) var text = "{"

  mutating func add(_ key: String, _ value: String) {
    separate(key)
    text += JSONLine.quoted(value)
  }

  mutating func add(_ key: String, _ value: Int) {
    separate(key)
    text += String(value)
  }

  mutating func add(_ key: String, _ value: Bool) {
    separate(key)
    text += value ? "true" : "false"
  }

  mutating func add(_ key: String, object: JSONLine) {
    separate(key)
    text += object.closed
  }

  mutating func add(_ key: String, _ value: Double) {
    separate(key)
    text += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  mutating func add(_ key: String, integers: [Int]) {
    separate(key)
    text += "[" + integers.map(String.init).joined(separator: ",") + "]"
  }

  mutating func add(_ key: String, array: [JSONLine]) {
    separate(key)
    text += "[" + array.map(\.closed).joined(separator: ",") + "]"
  }

  var closed: String { text + "}" }

  private mutating func separate(_ key: String) {
    if text != "{" { text += "," }
    text += JSONLine.quoted(key) + ":"
  }

  /// `value` as a JSON string literal.
  static func quoted(_ value: String) -> String {
    var out = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// `text` safe to show on a terminal: control characters (C0 but `keeping`, DEL, C1) become
/// `\xNN` (`\u{NNNN}` for C1), so a file name cannot move the cursor, retitle the window or
/// break a line of a table.
func terminalSafe(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
  // Printable ASCII (most paths) has nothing to escape.
  if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
  // Bytes of a name that are not UTF-8 (FileSystemPath) show as \xNN too.
  let text = FileSystemPath.displayed(text)
  guard text.unicodeScalars.contains(where: { isControl($0) && !kept.contains($0) }) else { return text }
  var out = ""
  for scalar in text.unicodeScalars {
    if isControl(scalar) && !kept.contains(scalar) {
      out +=
        scalar.value < 0x100 && scalar.value < 0x80
        ? "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        : "\\u{" + String(scalar.value, radix: 16) + "}"
    } else {
      out.unicodeScalars.append(scalar)
    }
  }
  return out
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
  scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
}

/// Pads `text` on the right to `width` characters.
func padded(_ text: String, to width: Int) -> String {
  // ASCII has a character a byte: no walk over grapheme clusters to count them.
  let count = text.utf8.allSatisfy { $0 < 0x80 } ? text.utf8.count : text.count
  return count >= width ? text : text + String(repeating: " ", count: width - count)
}
