/// "Natural" order for file names: runs of digits compare as numbers, so `frame_2` comes
/// before `frame_10`; everything else compares byte by byte.
public enum NaturalOrder {
  /// Whether `a` sorts before `b`.
  ///
  /// Complexity: O(length of the shorter string).
  public static func precedes(_ a: String, _ b: String) -> Bool {
    var x = Array(a.utf8)[...]
    var y = Array(b.utf8)[...]
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

  /// `paths` in natural order.
  public static func sorted(_ paths: [String]) -> [String] {
    paths.sorted(by: precedes)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func takeDigits(_ bytes: inout ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let end = bytes.firstIndex { !isDigit($0) } ?? bytes.endIndex
    defer { bytes = bytes[end...] }
    return bytes[..<end]
  }
}
