import Foundation
import Testing

@testable import TrafficLight

/// The worker pool behind `--jobs`.
@Suite struct OrderedParallelMapTests {
  /// Counts the items running at once; each item waits (up to a deadline) until `target` are.
  final class Gate: @unchecked Sendable {
    let condition = NSCondition()
    var running = 0
    var most = 0
    let target: Int
    init(target: Int) { self.target = target }

    func enter() {
      condition.lock()
      running += 1
      most = max(most, running)
      condition.broadcast()
      let deadline = Date().addingTimeInterval(3)
      while most < target && condition.wait(until: deadline) {}
      running -= 1
      condition.unlock()
    }
  }

  /// More jobs than cores all run at once (files on slow storage are what they are for); the
  /// results still come in order.
  @Test func jobsAboveTheCoreCount_allRunAtOnce() {
    let jobs = ProcessInfo.processInfo.activeProcessorCount + 6
    let gate = Gate(target: jobs)
    // As many items as jobs: each waits (3 s at most) for all the others to have started.
    let results = OrderedParallelMap.map(count: jobs, jobs: jobs) { i -> Int in
      gate.enter()
      return i * i
    }
    #expect(gate.most == jobs)
    #expect(results == (0..<jobs).map { $0 * $0 })
  }
}
