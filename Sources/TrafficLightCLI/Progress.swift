#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A live progress line on stderr (count, frames per second, time left), shown only when
/// stderr is a terminal and there are more than a few inputs.
struct Progress {
  let total: Int
  let enabled: Bool
  private let start = Progress.now()
  private var lastDraw = 0.0

  init(total: Int) {
    self.total = total
    enabled = isatty(STDERR_FILENO) == 1 && total > 5
  }

  /// Redraws the line for `done` inputs, at most ten times a second.
  mutating func update(done: Int) {
    guard enabled else { return }
    let now = Progress.now()
    guard now - lastDraw >= 0.1 || done == total else { return }
    lastDraw = now
    let elapsed = max(now - start, 1e-9)
    let rate = Double(done) / elapsed
    let left = rate > 0 ? Double(total - done) / rate : 0
    let line = "\r\(done)/\(total)  \(Int(rate.rounded())) frames/s  \(Progress.clock(left)) left\u{1B}[K"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
  }

  /// Clears the line.
  func finish() {
    guard enabled else { return }
    let clear = "\r\u{1B}[K"
    _ = clear.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
  }

  static func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return whole >= 3600
      ? "\(whole / 3600):\(twoDigits(whole / 60 % 60)):\(twoDigits(whole % 60))"
      : "\(whole / 60):\(twoDigits(whole % 60))"
  }

  private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
