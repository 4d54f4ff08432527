#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the command writes: results to stdout (buffered, flushed by `flush()` and whenever
/// 64 KiB have gathered), notes and errors to stderr (at once).
struct Console {
  private var pending: [UInt8] = []
  /// Where results go instead of stdout (`--output`).
  var file: AtomicFile?
  /// The first failure to write to `file`, if any.
  private(set) var fileError: String?

  mutating func out(_ line: String, terminator: String = "\n") {
    pending.append(contentsOf: line.utf8)
    pending.append(contentsOf: terminator.utf8)
    if pending.count >= 1 << 16 { flush() }
  }

  mutating func err(_ line: String) {
    Self.write(Array((line + "\n").utf8), to: STDERR_FILENO)
  }

  mutating func flush() {
    if let file {
      if fileError == nil && !pending.withUnsafeBytes({ file.write($0) }) {
        fileError = "cannot write \(file.path): \(String(cString: strerror(errno)))"
      }
    } else {
      Self.write(pending, to: STDOUT_FILENO)
    }
    pending.removeAll(keepingCapacity: true)
  }

  private static func write(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }  // a closed pipe: nothing more can be said there
        offset += written
      }
    }
  }
}
