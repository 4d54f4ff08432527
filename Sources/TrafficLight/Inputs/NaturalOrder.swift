/// "Natural" order for file names: runs of digits compare as numbers, so `frame_2` comes
/// before `frame_10`; everything else compares byte by byte.
public enum NaturalOrder {
  /// Whether `a` sorts before `b`.
  ///
  /// Complexity: O(length of the shorter string).
  public static func precedes(_ a: String, _ b: String) -> Bool {
    precedes(Array(a.utf8)[...], Array(b.utf8)[...])
  }

  /// `paths` in natural order.
  public static func sorted(_ paths: [String]) -> [String] {
    sorted(paths, by: { $0 })
  }

  /// `items` in the natural order of their names (`name`), equal names in the order given.
  public static func sorted<Item>(_ items: [Item], by name: (Item) -> String) -> [Item] {
    // Each name's bytes once, not once per comparison.
    let bytes = items.map { Array(name($0).utf8) }
    return items.indices.sorted { precedes(bytes[$0][...], bytes[$1][...]) }.map { items[$0] }
  }

  /// `precedes(_:_:)` on the names' UTF-8.
  private static func precedes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    var x = a
    var y = b
    while let p = x.first, let q = y.first {
      if isDigit(p) && isDigit(q) {
        let left = takeDigits(&x)
        let right = takeDigits(&y)
        // Without leading zeros, a longer run is a larger number.
        let l = left.drop { $0 == UInt8(ascii: "0") }
        let r = right.drop { $0 == UInt8(ascii: "0") }
        if l.count != r.count { return l.count < r.count }
        if !l.elementsEqual(r) { return l.lexicographicallyPrecedes(r) }
        // Same number: fewer leading zeros first, so the order is total.
        if left.count != right.count { return left.count < right.count }
      } else {
        if p != q { return p < q }
        x.removeFirst()
        y.removeFirst()
      }
    }
    return x.isEmpty && !y.isEmpty
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func takeDigits(_ bytes: inout ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let end = bytes.firstIndex { !isDigit($0) } ?? bytes.endIndex
    defer { bytes = bytes[end...] }
    return bytes[..<end]
  }
}
