#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A separable Gaussian blur of 8-bit RGB images.
///
/// The kernel has `2 * radius + 1` taps with `radius = ceil(3 * sigma)`, weights
/// `exp(-i^2 / (2 sigma^2))` normalised to sum to 1. Borders clamp to the edge pixel. Sigma 0
/// is the identity.
///
/// Schedule: for each output row, a vertical pass sums the `2 * radius + 1` source rows
/// around it (kept converted to `Float` in a ring, each source row converted once) into a row
/// buffer padded by `radius` replicated pixels on each side; a horizontal pass then reads that
/// row with no clamping in its inner loop. Both passes run on `SIMD16<Float>` across the
/// interleaved channels, with separate multiplies and adds (a fused multiply-add is a
/// library call on CPUs without FMA). Working memory is `(2 * radius + 2)` rows of floats,
/// however tall the image. Every output channel is within 1 of a `Double` blur rounded to
/// nearest (Float error is about 1e-5 of a level; the rest is the final rounding).
public struct GaussianBlur: Sendable {
  public let sigma: Double
  public let radius: Int
  /// The normalised weights, from offset `-radius` to `+radius`.
  public let weights: [Float]

  /// A blur of standard deviation `sigma` pixels (`0` for none).
  public init(sigma: Double) {
    precondition(sigma >= 0 && sigma.isFinite, "sigma must be finite and not negative")
    self.sigma = sigma
    guard sigma > 0 else {
      radius = 0
      weights = [1]
      return
    }
    radius = Int((3 * sigma).rounded(.up))
    let raw = (-radius...radius).map { i in
      let x = Double(i)
      return exp(-(x * x) / (2 * sigma * sigma))
    }
    let total = raw.reduce(0, +)
    weights = raw.map { Float($0 / total) }
  }

  /// The blurred image; `image` is not changed.
  ///
  /// Complexity: O(width * height * radius).
  public func apply(to image: RGBImage) -> RGBImage {
    guard radius > 0, image.pixelCount > 0 else { return image }
    let width = image.width
    let height = image.height
    let rowCount = width * 3
    let taps = 2 * radius + 1
    let padding = radius * 3
    let paddedCount = rowCount + 2 * padding
    // The ring of converted source rows, then the padded vertical-sum row.
    let scratch = UnsafeMutablePointer<Float>.allocate(capacity: taps * rowCount + paddedCount)
    defer { scratch.deallocate() }
    let ring = scratch
    let padded = scratch + taps * rowCount

    return RGBImage(width: width, height: height) { output in
      image.read { input in
        let source = input.baseAddress!
        let destination = output.baseAddress!
        weights.withUnsafeBufferPointer { weightBuffer in
          let weights = weightBuffer.baseAddress!
          var converted = -1  // the last source row converted into the ring
          for y in 0..<height {
            let last = min(height - 1, y + radius)
            while converted < last {
              converted += 1
              Self.convertRow(
                source + converted * rowCount, into: ring + (converted % taps) * rowCount,
                count: rowCount)
            }
            Self.verticalSum(
              ring: ring, rowCount: rowCount, taps: taps, centre: y, height: height,
              weights: weights, into: padded + padding)
            Self.replicateEdges(padded, rowCount: rowCount, padding: padding)
            Self.horizontalPass(
              padded, rowCount: rowCount, taps: taps, weights: weights,
              into: destination + y * rowCount)
          }
        }
      }
    }
  }

  @inline(__always)
  static func convertRow(_ source: UnsafePointer<UInt8>, into row: UnsafeMutablePointer<Float>, count: Int) {
    let raw = UnsafeRawPointer(source)
    let out = UnsafeMutableRawPointer(row)
    var i = 0
    while i + 16 <= count {
      let bytes = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
      out.storeBytes(
        of: SIMD16<Float>(SIMD16<Int32>(truncatingIfNeeded: bytes)), toByteOffset: i * 4,
        as: SIMD16<Float>.self)
      i &+= 16
    }
    while i < count {
      row[i] = Float(source[i])
      i &+= 1
    }
  }

  /// Sums the clamped source rows `centre - radius ... centre + radius` of the ring, each
  /// group of 16 channels accumulated in registers across all taps and stored once.
  @inline(__always)
  static func verticalSum(
    ring: UnsafeMutablePointer<Float>, rowCount: Int, taps: Int, centre: Int, height: Int,
    weights: UnsafePointer<Float>, into sum: UnsafeMutablePointer<Float>
  ) {
    let radius = taps / 2
    // The source row of each tap, taken once per output row.
    withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: taps) { rows in
      for tap in 0..<taps {
        let row = min(max(centre + tap - radius, 0), height - 1)
        rows[tap] = UnsafeRawPointer(ring + (row % taps) * rowCount)
      }
      let out = UnsafeMutableRawPointer(sum)
      var i = 0
      while i + 16 <= rowCount {
        let offset = i &* 4
        var s =
          rows[0].loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
          * SIMD16(repeating: weights[0])
        for tap in 1..<taps {
          s +=
            rows[tap].loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            * SIMD16(repeating: weights[tap])
        }
        out.storeBytes(of: s, toByteOffset: offset, as: SIMD16<Float>.self)
        i &+= 16
      }
      while i < rowCount {
        var s = rows[0].load(fromByteOffset: i * 4, as: Float.self) * weights[0]
        for tap in 1..<taps { s = s + rows[tap].load(fromByteOffset: i * 4, as: Float.self) * weights[tap] }
        sum[i] = s
        i &+= 1
      }
    }
  }

  /// Copies the first and last pixel of the row into the `padding` floats before and after it.
  @inline(__always)
  static func replicateEdges(_ padded: UnsafeMutablePointer<Float>, rowCount: Int, padding: Int) {
    let first = padded + padding
    let last = padded + padding + rowCount - 3
    for i in stride(from: 0, to: padding, by: 3) {
      padded[i] = first[0]
      padded[i + 1] = first[1]
      padded[i + 2] = first[2]
      let after = padded + padding + rowCount + i
      after[0] = last[0]
      after[1] = last[1]
      after[2] = last[2]
    }
  }

  /// Output channel `i` is the weighted sum of padded channels `i + 3 * tap`, rounded to
  /// nearest and stored as a byte.
  ///
  /// Rounding without a float-to-integer conversion (which the standard library does
  /// element by element, with range checks): adding 2^23 to a value in 0...256 leaves the
  /// value rounded to the nearest integer (ties to even) in the low mantissa bits, whose
  /// low byte is the result.
  @inline(__always)
  static func horizontalPass(
    _ padded: UnsafeMutablePointer<Float>, rowCount: Int, taps: Int,
    weights: UnsafePointer<Float>, into output: UnsafeMutablePointer<UInt8>
  ) {
    let input = UnsafeRawPointer(padded)
    let out = UnsafeMutableRawPointer(output)
    let magic = SIMD16<Float>(repeating: roundingMagic)
    var i = 0
    while i + 16 <= rowCount {
      var s = SIMD16<Float>(repeating: 0)
      for tap in 0..<taps {
        let v = input.loadUnaligned(fromByteOffset: (i &+ 3 &* tap) &* 4, as: SIMD16<Float>.self)
        s += v * SIMD16<Float>(repeating: weights[tap])
      }
      let bits = unsafeBitCast(s + magic, to: SIMD16<UInt32>.self)
      out.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: bits), toByteOffset: i, as: SIMD16<UInt8>.self)
      i &+= 16
    }
    while i < rowCount {
      var s: Float = 0
      for tap in 0..<taps { s += padded[i + 3 * tap] * weights[tap] }
      output[i] = roundedByte(s)
      i &+= 1
    }
  }

  /// 2^23: see `horizontalPass`.
  static let roundingMagic: Float = 8_388_608

  /// `value` (in 0...255.5) rounded to nearest, ties to even, as `horizontalPass` rounds.
  @inline(__always)
  static func roundedByte(_ value: Float) -> UInt8 {
    UInt8(truncatingIfNeeded: (value + roundingMagic).bitPattern)
  }
}
