/// A list of paths in a file, as a scheduler writes one: one path a line, or, when the text
/// holds a NUL byte, NUL-separated (as `find -print0` writes, for names with newlines).
public enum PathList {
  /// The paths in `bytes`: NUL-separated when there is a NUL, else one a line (a `\r`
  /// before the newline is dropped); empty entries are skipped. Names keep their bytes
  /// (`FileSystemPath`).
  public static func parse(_ bytes: [UInt8]) -> [String] {
    let separator: UInt8 = bytes.contains(0) ? 0 : 0x0A
    return bytes.split(separator: separator, omittingEmptySubsequences: true).compactMap { entry in
      var entry = entry[...]
      if separator == 0x0A, entry.last == 0x0D { entry = entry.dropLast() }
      return entry.isEmpty ? nil : FileSystemPath.string(fromBytes: entry)
    }
  }
}
