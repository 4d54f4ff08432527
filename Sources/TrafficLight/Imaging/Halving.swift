import TrafficLightKernels

extension RGBImage {
  /// The image at half the size, each pixel the rounded mean of a 2x2 block (an odd last row
  /// or column is dropped).
  package func halved() -> RGBImage {
    let (w, h) = (width / 2, height / 2)
    let stride = width * 3
    guard w > 0 && h > 0 else { return RGBImage(width: w, height: h) }
    return read { source in
      RGBImage(width: w, height: h) { target in
        for y in 0..<h {
          let top = 2 * y * stride
          let out = y * w * 3
          let (upper, lower) = (source.baseAddress! + top, source.baseAddress! + top + stride)
          let row = target.baseAddress! + out
          for x in 0..<w {
            let (s, t) = (6 * x, 3 * x)
            for c in 0..<3 {
              let sum =
                UInt16(upper[s + c]) &+ UInt16(upper[s + c + 3]) &+ UInt16(lower[s + c])
                &+ UInt16(lower[s + c + 3]) &+ 2
              row[t + c] = UInt8(truncatingIfNeeded: sum >> 2)
            }
          }
        }
      }
    }
  }
}
