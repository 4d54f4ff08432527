import TrafficLightKernels

/// The value (largest channel) and chroma (largest less smallest channel) of an image's
/// pixels summed over every rectangle, each rectangle read in constant time: a summed-area
/// table of each, in 32 bits.
package struct SummedTable {
  /// The most pixels an image may have for its sums to fit in 32 bits.
  package static let largestImage = Int(UInt32.max / 255)
  /// One more than the image's width: the tables' row length.
  let stride: Int
  /// At `2 * (y * stride + x)`: the values of rows `0..<y` and columns `0..<x` summed; at the
  /// index after it, their chromas.
  let sums: [UInt32]

  /// The tables of `image`; nil when it has more than `largestImage` pixels.
  ///
  /// Complexity: O(pixels).
  package init?(_ image: RGBImage) {
    let (width, height) = (image.width, image.height)
    guard width * height <= Self.largestImage else { return nil }
    let stride = width + 1
    sums = [UInt32](unsafeUninitializedCapacity: 2 * stride * (height + 1)) { sums, count in
      count = 2 * stride * (height + 1)
      guard let sums = sums.baseAddress else { return }
      // Row 0 and column 0 sum nothing.
      sums.initialize(repeating: 0, count: 2 * stride)
      image.read { bytes in
        guard let pixels = bytes.baseAddress else { return }
        // A row's values and chromas, at every third byte (a pixel's at its first byte's).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(6 * width, 1)) { scratch in
          let (values, chromas) = (scratch.baseAddress!, scratch.baseAddress! + 3 * width)
          for y in 0..<height {
            valuesAndChromas(of: pixels + 3 * width * y, count: width, into: values, chromas)
            let (above, row) = (sums + 2 * y * stride, sums + 2 * (y + 1) * stride)
            (row[0], row[1]) = (0, 0)
            // The row's running sums, then the rows above added: both loops run straight on.
            var (value, chroma): (UInt32, UInt32) = (0, 0)
            for x in 0..<width {
              value &+= UInt32(values[3 &* x])
              chroma &+= UInt32(chromas[3 &* x])
              (row[2 &* x &+ 2], row[2 &* x &+ 3]) = (value, chroma)
            }
            for i in 2..<2 * stride { row[i] &+= above[i] }
          }
        }
      }
    }
    self.stride = stride
  }

  /// The summed value and chroma of rows `y0..<y1` and columns `x0..<x1`, inside the image.
  package func sums(x0: Int, x1: Int, y0: Int, y1: Int) -> (value: Int, chroma: Int) {
    let (a, b, c, d) = (
      2 * (y0 * stride + x0), 2 * (y0 * stride + x1), 2 * (y1 * stride + x0), 2 * (y1 * stride + x1)
    )
    return (
      Int(sums[d]) - Int(sums[b]) - Int(sums[c]) + Int(sums[a]),
      Int(sums[d + 1]) - Int(sums[b + 1]) - Int(sums[c + 1]) + Int(sums[a + 1])
    )
  }
}
