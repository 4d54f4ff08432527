#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The time a frame's search spent in each of its stages, summed over one or more searches:
/// what `PipelineBenchmarks --stages` prints. Used by one thread at a time.
package final class StageClock {
  /// The stages, in the order first timed, each with its total in nanoseconds.
  package private(set) var stages: [(name: String, nanoseconds: UInt64)] = []
  /// A prefix for the stages timed now (`search: `, `re-read: `).
  package var phase = ""

  package init() {}

  /// `body`'s result, its time added to the stage `name` (within the current phase).
  package func time<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
    let start = Self.now()
    defer { add(phase + name, Self.now() - start) }
    return try body()
  }

  private func add(_ name: String, _ nanoseconds: UInt64) {
    if let index = stages.firstIndex(where: { $0.name == name }) {
      stages[index].nanoseconds += nanoseconds
    } else {
      stages.append((name, nanoseconds))
    }
  }

  private static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}

extension Optional where Wrapped == StageClock {
  /// `body`'s result, timed as stage `name` when there is a clock.
  func time<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
    guard let clock = self else { return try body() }
    return try clock.time(name, body)
  }
}
