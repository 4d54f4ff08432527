import Foundation

/// Memory shared by the images being read at once: a worker reserves what an image needs
/// before decoding it and gives it back when the reading is done, so a run's peak stays under
/// the budget however many workers there are. An image that needs more than the whole budget
/// is refused, never waited for.
public final class MemoryBudget: @unchecked Sendable {
  /// The budget, in bytes.
  public let bytes: Int
  private let condition = NSCondition()
  private var reserved = 0

  /// A budget of `bytes` (at least 1).
  public init(bytes: Int) {
    precondition(bytes > 0, "a memory budget holds at least a byte")
    self.bytes = bytes
  }

  /// Reserves `amount` bytes, waiting while others hold too much of the budget; returns false
  /// at once when `amount` is more than the whole budget.
  public func reserve(_ amount: Int) -> Bool {
    guard amount <= bytes else { return false }
    condition.lock()
    defer { condition.unlock() }
    while reserved + amount > bytes { condition.wait() }
    reserved += amount
    return true
  }

  /// Gives back bytes reserved with `reserve`.
  public func release(_ amount: Int) {
    condition.lock()
    reserved -= amount
    condition.broadcast()
    condition.unlock()
  }

  /// The bytes reserved now.
  public var inUse: Int {
    condition.lock()
    defer { condition.unlock() }
    return reserved
  }

  /// Half the memory this process may use: the machine's, or its control group's limit
  /// (cgroup v2 `memory.max`, as containers set it) when that is lower.
  public static var defaultBytes: Int {
    let physical = Int(ProcessInfo.processInfo.physicalMemory)
    var limit = physical
    if let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
      let cgroup = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), cgroup > 0
    {
      limit = min(limit, cgroup)
    }
    return max(limit / 2, 64 << 20)
  }
}
