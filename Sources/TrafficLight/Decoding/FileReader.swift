#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads with errors that say what went wrong.
public enum FileReader {
  /// The bytes of the regular file at `path`.
  ///
  /// Opens without blocking, so a FIFO or device named like an image is refused instead of
  /// waited on.
  ///
  /// - Throws: `DecodeError.unreadable` naming `path`.
  public static func readAll(_ path: String, maxBytes: Int) throws(DecodeError) -> [UInt8] {
    let descriptor = FileSystemPath.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(path: path, reason: systemError()) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, reason: systemError()) }
    let kind = status.st_mode & S_IFMT
    guard kind == S_IFREG else {
      throw .unreadable(path: path, reason: kind == S_IFDIR ? "is a directory" : "not a regular file")
    }
    let size = Int(status.st_size)
    guard size <= maxBytes else {
      throw .unreadable(path: path, reason: "file is \(size) bytes, over the limit of \(maxBytes)")
    }
    // Read until end of file, not just st_size bytes: the file may change while it is read.
    // One spare byte lets the usual case see the end without growing the buffer.
    var bytes = [UInt8](repeating: 0, count: size + 1)
    var filled = 0
    while true {
      if filled == bytes.count {
        guard filled <= maxBytes else {
          throw .unreadable(path: path, reason: "file grew over the limit of \(maxBytes) bytes")
        }
        bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count)))
      }
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(path: path, reason: systemError())
      }
      if count == 0 { break }
      filled += count
    }
    bytes.removeSubrange(filled...)
    return bytes
  }

  static func systemError() -> String { String(cString: strerror(errno)) }
}
