/// One of `count` disjoint parts of a set of inputs, for running a large job on several
/// machines: the shards `0/N ... (N-1)/N` together take every input exactly once.
///
/// An input belongs to the shard its key hashes to (FNV-1a, 64 bits, over the key's UTF-8
/// bytes, modulo `count`): the split depends on the keys alone, not on their order, how many
/// there are, or which other shards run.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
  /// This shard, `0 ..< count`.
  public let index: Int
  /// How many shards there are.
  public let count: Int

  /// Shard `index` of `count` (0-based); nil when `index` is not from 0 to `count - 1`.
  public init?(index: Int, count: Int) {
    guard count >= 1, (0..<count).contains(index) else { return nil }
    self.index = index
    self.count = count
  }

  /// The whole set: one shard.
  public static let all = Shard(index: 0, count: 1)!

  /// `K/N`, K from 0 to N - 1; `nil` for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
    self.init(index: index, count: count)
  }

  /// Whether the input with `key` is in this shard.
  public func contains(_ key: String) -> Bool {
    count == 1 || Int(Self.hash(key) % UInt64(count)) == index
  }

  /// FNV-1a, 64 bits, of `key`'s UTF-8 bytes: the same on every machine and every run.
  static func hash(_ key: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// `K/N`, as `--shard` takes it.
  public var description: String { "\(index)/\(count)" }
}
