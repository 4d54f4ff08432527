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

  /// Whether the process began with no standard output (`>&-`). `holdStandardStreams` then
  /// opened /dev/null there, so that no file the run opens takes descriptor 1 and receives
  /// results; anything written to standard output is an error.
  nonisolated(unsafe) static var standardOutputWasClosed = false

  /// Puts /dev/null on any of descriptors 0, 1 and 2 that is closed: a file opened later
  /// must not become standard output or error. Call once, first.
  static func holdStandardStreams() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
      if descriptor == STDOUT_FILENO { standardOutputWasClosed = true }
      let null = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
      if null >= 0 && null != descriptor {
        dup2(null, descriptor)
        close(null)
      }
    }
  }

  /// Whether standard output was closed by its reader (a pipe into `head`): the run can
  /// end, quietly.
  private(set) var outputClosed = false
  /// Why standard output could not be written, other than a closed pipe (a full disk,
  /// a closed descriptor): the run ends with this error and exit 1.
  private(set) var outputError: String?

  /// Writes a note or an error on stderr; control characters other than line breaks (file
  /// names can hold any) are shown escaped (`terminalSafe`).
  mutating func err(_ line: String) {
    _ = Self.write(Array((terminalSafe(line, keeping: ["\n"]) + "\n").utf8), to: STDERR_FILENO)
  }

  mutating func flush() {
    if let file {
      if fileError == nil && !pending.withUnsafeBytes({ file.write($0) }) {
        fileError = "cannot write \(file.path): \(String(cString: strerror(errno)))"
      }
    } else if !outputClosed && outputError == nil && !pending.isEmpty {
      guard !Self.standardOutputWasClosed else {
        outputError = "cannot write standard output: it was closed when the run began"
        pending.removeAll()
        return
      }
      let failure = Self.write(pending, to: STDOUT_FILENO)
      if failure == EPIPE {
        outputClosed = true
      } else if let failure {
        outputError = "cannot write standard output: \(String(cString: strerror(failure)))"
      }
    }
    pending.removeAll(keepingCapacity: true)
  }

  /// Writes all of `bytes` to `descriptor`; the `errno` of a failure, or `nil`.
  private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return written < 0 ? errno : EIO }
        offset += written
      }
      return nil
    }
  }
}
