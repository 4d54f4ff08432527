import TrafficLightKernels

extension RGBImage {
  /// How busy `region` (clipped to the image) is: the mean, over its pixels with all four
  /// neighbours inside it, of |4v - the neighbours' v| (v a pixel's largest channel), as a
  /// share of the region's mean v, that mean taken as at least 5% of full scale so that a
  /// black region's noise is not magnified without end. 0 for a flat region, and for one
  /// narrower or shorter than 3 pixels.
  ///
  /// A light's region is a flat housing around round lamps; foliage, wires and rendered
  /// terrain are busy (`Profile.maximumBusyness`).
  ///
  /// Complexity: O(pixels of the region).
  package func busyness(in region: PixelRegion) -> Double {
    guard let area = region.clipped(toWidth: width, height: height), area.width >= 3, area.height >= 3 else {
      return 0
    }
    let (w, h) = (area.width, area.height)
    return read { bytes in
      // Three rows of values at a time, in a ring: row y at (y % 3) * w. No sum can
      // overflow (a value is at most 255, a pixel's term at most 2040, 64-bit sums), so
      // they wrap, unchecked.
      var values = [Int32](repeating: 0, count: 3 * w)
      var total = 0
      var laplacian = 0
      values.withUnsafeMutableBufferPointer { ring in
        let ring = ring.baseAddress!
        for y in 0..<h {
          let source = bytes.baseAddress! + ((area.y + y) * width + area.x) * 3
          let row = ring + (y % 3) * w
          var rowTotal = 0
          for x in 0..<w {
            let v = Int32(Swift.max(Swift.max(source[3 * x], source[3 * x + 1]), source[3 * x + 2]))
            row[x] = v
            rowTotal &+= Int(v)
          }
          total &+= rowTotal
          guard y >= 2 else { continue }
          let (above, middle, below) = (ring + ((y - 2) % 3) * w, ring + ((y - 1) % 3) * w, row)
          var rowLaplacian = 0
          for x in 1..<(w - 1) {
            let sum =
              4 &* middle[x] &- above[x] &- below[x] &- middle[x - 1] &- middle[x + 1]
            rowLaplacian &+= Int(sum < 0 ? 0 &- sum : sum)
          }
          laplacian &+= rowLaplacian
        }
      }
      let meanLaplacian = Double(laplacian) / Double((w - 2) * (h - 2))
      let meanValue = Double(total) / Double(w * h)
      return meanLaplacian / Swift.max(meanValue, 0.05 * 255)
    }
  }
}
