extension GaussianBlur {
  /// Rows of the fixed-point blur (`tl_blur_rgb8` in `Sources/CKernels/include/kernels.h`)
  /// computed in Swift: the `portable` level's form wherever `fixedWeights` apply.
  ///
  /// It is the C form's arithmetic operation for operation, in 8 sixteen-bit lanes
  /// (`SIMD8<UInt16>`, whose products' high halves compile to one `pmulhuw` on x86-64), with
  /// the same scalar tails, so it gives the C levels' bits. One output row at a time: the
  /// vertical pass into one padded row of 7-bit fixed-point channels, the row's edge pixels
  /// repeated `radius` times on each side, then the horizontal pass out of it, rounded to
  /// bytes.
  ///
  /// - Parameters:
  ///   - source: the image's first pixel; rows `stride` bytes apart, `width` pixels of
  ///     interleaved RGB wide and `height` high.
  ///   - rows: the source rows to blur, output row k being `rows[k]`; nil for every row in
  ///     order.
  ///   - destination: the output, rows `width * 3` bytes apart; it must not overlap `source`.
  ///
  /// Complexity: O(output rows * width * radius).
  func fixedPointRows(
    of source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, rows: [Int]?,
    into destination: UnsafeMutablePointer<UInt8>
  ) {
    let radius = self.radius
    let channels = width * 3
    let padding = 3 * radius
    let count = rows?.count ?? height
    let bias = Self.passBias(radius: radius)
    withUnsafeTemporaryAllocation(of: UInt16.self, capacity: channels + 2 * padding) { scratch in
      withUnsafeTemporaryAllocation(of: SIMD8<UInt16>.self, capacity: radius + 2) { splats in
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: 2 * radius + 1) { taps in
          fixedWeights.withUnsafeBufferPointer { weights in
            let w = weights.baseAddress!
            Self.splat(w, count: radius + 1, into: splats.baseAddress!)
            let row = scratch.baseAddress! + padding
            // taps[radius + t]: the source row t rows from the output row's, clamped.
            let tap = taps.baseAddress! + radius
            for k in 0..<count {
              let y = rows?[k] ?? k
              for t in -radius...radius { tap[t] = source + min(max(y + t, 0), height - 1) * stride }
              Self.vertical(
                tap, radius: radius, splats: splats.baseAddress!, weights: w, bias: bias, into: row,
                count: channels)
              for t in 1...radius {
                (row - 3 * t).update(from: row, count: 3)
                (row + channels + 3 * (t - 1)).update(from: row + channels - 3, count: 3)
              }
              Self.horizontal(
                row, radius: radius, splats: splats.baseAddress!, weights: w, bias: bias &+ 64,
                into: destination + k * channels, count: channels)
            }
          }
        }
      }
    }
  }

  /// One channel of the fixed-point blur at (`x`, `y`) of an image, as `fixedPointRows`
  /// computes it: the vertical pass of the `2 * radius + 1` columns around `x`, then the
  /// horizontal pass (`tl_blur_rgb8_channel`).
  func fixedPointChannel(
    _ channel: Int, x: Int, y: Int, of source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int
  ) -> UInt8 {
    let radius = self.radius
    let bias = Self.passBias(radius: radius)
    return fixedWeights.withUnsafeBufferPointer { weights in
      withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 2 * radius + 1) { columns in
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>.self, capacity: 2 * radius + 1) { taps in
          let tap = taps.baseAddress! + radius
          for t in -radius...radius { tap[t] = source + min(max(y + t, 0), height - 1) * stride }
          let centre = columns.baseAddress! + radius
          for t in -radius...radius {
            let column = min(max(x + t, 0), width - 1) * 3 + channel
            centre[t] = Self.verticalChannel(
              tap, radius: radius, weights: weights.baseAddress!, bias: bias, at: column)
          }
          return Self.horizontalChannel(
            centre, step: 1, radius: radius, weights: weights.baseAddress!, bias: bias &+ 64)
        }
      }
    }
  }

  /// Each of the `count` weights in every lane, then the vertical pass's shift (7) in
  /// every lane. Out of line, so that the compiler knows neither: where it sees that a
  /// factor is one value in every lane, it splits each high product in two (two `pmulhuw`
  /// and a shuffle), and where it sees the shift it turns the high product into a full one
  /// (`pmullw`, `pmulhuw` and an interleave).
  @inline(never)
  static func splat(
    _ weights: UnsafePointer<UInt16>, count: Int, into splats: UnsafeMutablePointer<SIMD8<UInt16>>
  ) {
    for k in 0..<count { splats[k] = SIMD8(repeating: weights[k]) }
    splats[count] = SIMD8(repeating: 7)
  }

  /// Half the number of products a pass adds, in its last unit: each product's high half
  /// drops less than one unit, so starting from this centres the pass's error on zero.
  @inline(__always)
  static func passBias(radius: Int) -> UInt16 { UInt16(truncatingIfNeeded: (radius + 1) / 2) }

  /// The high half of each lane's 16-bit product.
  @inline(__always)
  static func highProduct(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
    SIMD8(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: a) &* SIMD8(truncatingIfNeeded: b)) &>> 16)
  }

  /// The high half of a 16-bit product: one lane of `highProduct`, for the scalar tails.
  @inline(__always)
  static func highProduct(_ a: UInt16, _ b: UInt16) -> UInt16 {
    UInt16(truncatingIfNeeded: (UInt32(a) &* UInt32(b)) &>> 16)
  }

  /// The 8 bytes at `p + offset`, widened.
  @inline(__always)
  static func bytes(_ p: UnsafePointer<UInt8>, _ offset: Int) -> SIMD8<UInt16> {
    SIMD8(truncatingIfNeeded: UnsafeRawPointer(p + offset).loadUnaligned(as: SIMD8<UInt8>.self))
  }

  /// The vertical pass of one row: channel i of `into` from channel i of the rows `tap[t]`,
  /// t = -radius...radius, with 7 fractional bits.
  ///
  /// Whole vectors go tap by tap over the row (which stays in the first-level cache), each
  /// tap's two rows and weight held in registers; the channels past the last whole vector
  /// are one more vector ending at the row's end, every tap at once, over channels already
  /// done (the same bits again). A row shorter than a vector goes channel by channel.
  @inline(__always)
  static func vertical(
    _ tap: UnsafeMutablePointer<UnsafePointer<UInt8>>, radius: Int, splats: UnsafePointer<SIMD8<UInt16>>,
    weights: UnsafePointer<UInt16>, bias: UInt16, into out: UnsafeMutablePointer<UInt16>, count: Int
  ) {
    guard count >= 8 else {
      for i in 0..<count {
        out[i] = verticalChannel(tap, radius: radius, weights: weights, bias: bias, at: i)
      }
      return
    }
    // Left by 7 bits: the shift `splat` stored after the weights.
    let up = SIMD8(repeating: splats[radius + 1][0])
    @inline(__always) func pair(
      _ above: UnsafePointer<UInt8>, _ below: UnsafePointer<UInt8>, _ weight: SIMD8<UInt16>, _ i: Int
    ) -> SIMD8<UInt16> {
      highProduct((bytes(above, i) &+ bytes(below, i)) &<< up, weight)
    }
    let start = SIMD8(repeating: bias)
    let raw = UnsafeMutableRawPointer(out)
    let whole = count & ~7
    let (centre, w0) = (tap[0], splats[0])
    var i = 0
    while i < whole {
      let s = start &+ highProduct(bytes(centre, i) &<< up, w0)
      raw.storeBytes(of: s, toByteOffset: i &* 2, as: SIMD8<UInt16>.self)
      i &+= 8
    }
    for k in 1...radius {
      let (above, below, weight) = (tap[-k], tap[k], splats[k])
      i = 0
      while i < whole {
        let s = raw.loadUnaligned(fromByteOffset: i &* 2, as: SIMD8<UInt16>.self)
        raw.storeBytes(of: s &+ pair(above, below, weight, i), toByteOffset: i &* 2, as: SIMD8<UInt16>.self)
        i &+= 8
      }
    }
    if whole < count {
      let last = count &- 8
      var s = start &+ highProduct(bytes(centre, last) &<< up, w0)
      for k in 1...radius { s &+= pair(tap[-k], tap[k], splats[k], last) }
      raw.storeBytes(of: s, toByteOffset: last &* 2, as: SIMD8<UInt16>.self)
    }
  }

  /// The horizontal pass of one padded row: output channel i from the row's channels
  /// `i + 3 t`, t = -radius...radius, rounded to a byte (255 where it passes it). The
  /// finder's radius (3) and the pipeline's default (6) have their taps written out.
  @inline(__always)
  static func horizontal(
    _ row: UnsafeMutablePointer<UInt16>, radius: Int, splats: UnsafePointer<SIMD8<UInt16>>,
    weights: UnsafePointer<UInt16>, bias: UInt16, into out: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    @inline(__always) func run(_ lanes: (Int) -> SIMD8<UInt16>) {
      @inline(__always) func store(_ i: Int) {
        let s = lanes(i)
        // Above 255 after the shift means bit 15 set: all ones then, whose low byte is 255.
        let value = (s &>> 7) | (SIMD8(repeating: 0) &- (s &>> 15))
        UnsafeMutableRawPointer(out + i).storeBytes(
          of: SIMD8<UInt8>(truncatingIfNeeded: value), as: SIMD8<UInt8>.self)
      }
      var i = 0
      while i &+ 8 <= count {
        store(i)
        i &+= 8
      }
      if i < count && count >= 8 {
        store(count - 8)
        i = count
      }
      while i < count {
        out[i] = horizontalChannel(row + i, step: 3, radius: radius, weights: weights, bias: bias)
        i &+= 1
      }
    }
    @inline(__always) func load(_ i: Int) -> SIMD8<UInt16> {
      UnsafeRawPointer(row + i).loadUnaligned(as: SIMD8<UInt16>.self)
    }
    @inline(__always) func pair(_ i: Int, _ k: Int, _ weight: SIMD8<UInt16>) -> SIMD8<UInt16> {
      highProduct(load(i &- 3 &* k) &+ load(i &+ 3 &* k), weight)
    }
    let start = SIMD8(repeating: bias)
    switch radius {
    case 3:
      run { i in
        start &+ highProduct(load(i), splats[0]) &+ pair(i, 1, splats[1]) &+ pair(i, 2, splats[2])
          &+ pair(i, 3, splats[3])
      }
    case 6:
      run { i in
        start &+ highProduct(load(i), splats[0]) &+ pair(i, 1, splats[1]) &+ pair(i, 2, splats[2])
          &+ pair(i, 3, splats[3]) &+ pair(i, 4, splats[4]) &+ pair(i, 5, splats[5])
          &+ pair(i, 6, splats[6])
      }
    default:
      run { i in
        var s = start &+ highProduct(load(i), splats[0])
        var k = 1
        while k <= radius {
          s &+= pair(i, k, splats[k])
          k &+= 1
        }
        return s
      }
    }
  }

  /// One channel of the vertical pass, at byte `i` of the rows `tap[t]`.
  @inline(__always)
  static func verticalChannel(
    _ tap: UnsafeMutablePointer<UnsafePointer<UInt8>>, radius: Int, weights: UnsafePointer<UInt16>,
    bias: UInt16, at i: Int
  ) -> UInt16 {
    var s = bias &+ highProduct(UInt16(tap[0][i]) &<< 7, weights[0])
    for k in 1...radius {
      s &+= highProduct((UInt16(tap[-k][i]) &+ UInt16(tap[k][i])) &<< 7, weights[k])
    }
    return s
  }

  /// One channel of the horizontal pass: `centre[0]` and the channels `step * k` on each
  /// side, rounded to a byte.
  @inline(__always)
  static func horizontalChannel(
    _ centre: UnsafeMutablePointer<UInt16>, step: Int, radius: Int, weights: UnsafePointer<UInt16>,
    bias: UInt16
  ) -> UInt8 {
    var s = bias &+ highProduct(centre[0], weights[0])
    for k in 1...radius {
      s &+= highProduct(centre[-step * k] &+ centre[step * k], weights[k])
    }
    return UInt8(min(s &>> 7, 255))
  }
}
