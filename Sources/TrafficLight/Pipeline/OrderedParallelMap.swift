import Foundation

/// Work items run on several threads, their results taken in item order.
package enum OrderedParallelMap {
  /// `transform(i)` for i in `0..<count`, on up to `jobs` threads at once, in index order.
  package static func map<T: Sendable>(count: Int, jobs: Int, _ transform: @escaping @Sendable (Int) -> T)
    -> [T]
  {
    var results: [T] = []
    results.reserveCapacity(count)
    stream(count: count, jobs: jobs, window: max(1, count)) {
      transform($0)
    } consume: { _, value in
      results.append(value)
      return true
    }
    return results
  }

  /// Runs `transform(i)` for i in `0..<count` on up to `jobs` worker threads, never more than
  /// `window` items ahead of the consumer, and hands each result to `consume` on the calling
  /// thread, in index order, as soon as it and all before it are ready. There is no barrier
  /// between groups of items: a worker starts the next item as soon as it is free. When
  /// `consume` returns false, no further item starts, and the call returns once the running
  /// ones have ended (their results are dropped).
  ///
  /// Memory: at most `window` results are held at once.
  package static func stream<T: Sendable>(
    count: Int, jobs: Int, window: Int, _ transform: @escaping @Sendable (Int) -> T,
    consume: (Int, T) -> Bool
  ) {
    precondition(window >= 1, "the window holds at least one result")
    let workers = max(1, min(jobs, count))
    guard workers > 1 else {
      for i in 0..<count where !consume(i, transform(i)) { return }
      return
    }
    let state = StreamState<T>(count: count, window: window, workers: workers)
    // Threads of their own, not Dispatch's global queue, which runs about one block per core
    // at a time: `--jobs` above the core count (for files on slow storage) means what it says.
    for _ in 0..<workers {
      WorkerThread.start { state.work(transform) }
    }
    for i in 0..<count {
      let value = state.take(i)
      if !consume(i, value) {
        state.stop()
        break
      }
    }
    state.waitForWorkers()
  }

  /// The shared state of `stream`, guarded by one condition lock.
  private final class StreamState<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    /// Result i waits in ring[i % window] until it is taken.
    private var ring: [T?]
    private var next = 0
    private var taken = 0
    private var stopped = false
    private var running: Int

    init(count: Int, window: Int, workers: Int) {
      self.count = count
      self.window = window
      ring = Array(repeating: nil, count: window)
      running = workers
    }

    /// A worker's loop: claim the next index within the window, run it, store the result.
    func work(_ transform: (Int) -> T) {
      condition.lock()
      while !stopped && next < count {
        guard next < taken + window else {
          condition.wait()
          continue
        }
        let i = next
        next += 1
        condition.unlock()
        let value = transform(i)
        condition.lock()
        ring[i % window] = value
        condition.broadcast()
      }
      running -= 1
      condition.broadcast()
      condition.unlock()
    }

    /// Result `i`, once ready; frees its place in the window.
    func take(_ i: Int) -> T {
      condition.lock()
      defer { condition.unlock() }
      while ring[i % window] == nil { condition.wait() }
      let value = ring[i % window]!
      ring[i % window] = nil
      taken += 1
      condition.broadcast()
      return value
    }

    func stop() {
      condition.lock()
      stopped = true
      condition.broadcast()
      condition.unlock()
    }

    func waitForWorkers() {
      condition.lock()
      while running > 0 { condition.wait() }
      condition.unlock()
    }
  }
}
