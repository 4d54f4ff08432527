import Foundation

extension ImageReader {
  /// The readings of `paths`, in their order, as they are ready: `jobs` threads read ahead of
  /// the consumer (at most `4 * jobs` readings waiting). When the consumer stops iterating or
  /// its task is cancelled, no further file is started. Readings the consumer has not taken
  /// yet are held by the stream.
  public func readings(
    of paths: [String], jobs: Int = ProcessInfo.processInfo.activeProcessorCount
  ) -> AsyncStream<ImageReading> {
    AsyncStream { continuation in
      let stop = StopFlag()
      continuation.onTermination = { _ in stop.set() }
      let reader = self
      WorkerThread.start {
        OrderedParallelMap.stream(count: paths.count, jobs: max(1, jobs), window: 4 * max(1, jobs)) { i in
          stop.isSet ? ImageReading(path: paths[i], outcome: .success([])) : reader.read(paths[i])
        } consume: { _, reading in
          guard !stop.isSet else { return false }
          continuation.yield(reading)
          return !stop.isSet
        }
        continuation.finish()
      }
    }
  }
}

/// A flag one thread sets and others read.
private final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
}

/// The steps of a sequence whose readings arrive asynchronously (from `ImageReader.readings`,
/// or fed by the caller through an `AsyncStream`): each reading through one
/// `SequenceClassifier`, in order; the steps come out as the smoother decides them (with
/// `offline` smoothing, all of them once the readings end).
public struct SequenceSteps<Base: AsyncSequence>: AsyncSequence where Base.Element == ImageReading {
  /// Each reading's step.
  public typealias Element = SequenceStep
  let base: Base
  let smoothing: Smoothing
  let fps: Double?

  /// The iterator: the base's readings, fed one at a time.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    var classifier: SequenceClassifier
    var ready: [SequenceStep] = []
    var next = 0
    var finished = false

    /// The next step, or nil when the readings end and every step was given.
    public mutating func next() async throws -> SequenceStep? {
      while next == ready.count {
        guard !finished else { return nil }
        ready = []
        next = 0
        if let reading = try await base.next() {
          ready = classifier.feed(reading)
        } else {
          finished = true
          ready = classifier.finish().steps
        }
      }
      defer { next += 1 }
      return ready[next]
    }
  }

  /// An iterator with a smoother of its own.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(
      base: base.makeAsyncIterator(), classifier: SequenceClassifier(smoothing: smoothing, fps: fps))
  }
}

extension AsyncSequence where Element == ImageReading {
  /// These readings as the frames of one sequence, smoothed by a vote over `window` frames.
  public func sequenceSteps(window: Int = 10) -> SequenceSteps<Self> {
    SequenceSteps(base: self, smoothing: Smoothing(kind: .vote, window: window), fps: nil)
  }

  /// These readings as the frames of one sequence, smoothed as `smoothing` says (a profile's
  /// `smoothing`), the frames coming `fps` a second when known.
  public func sequenceSteps(smoothing: Smoothing, fps: Double? = nil) -> SequenceSteps<Self> {
    SequenceSteps(base: self, smoothing: smoothing, fps: fps)
  }
}
