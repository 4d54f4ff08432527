import CKernels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A separable Gaussian blur of 8-bit RGB images.
///
/// The kernel has `2 * radius + 1` taps with `radius = ceil(3 * sigma)`, weights
/// `exp(-i^2 / (2 sigma^2))` normalised to sum to 1. Borders clamp to the edge pixel. Sigma 0
/// is the identity, and so is any sigma whose square is 0 in `Double`. Every output channel is within 1 of a `Double` blur rounded to nearest,
/// at every `KernelLevel` (tested).
///
/// Two arithmetics compute it. Up to a radius of `TL_BLUR_MAX_RADIUS` (sigma 16/3), every
/// level runs a fixed-point blur on 16-bit lanes (`tl_blur_rgb8` in
/// `Sources/CKernels/include/kernels.h`): the weights in units of 2^-16 (`fixedWeights`), the
/// taps at the same distance added before their one multiply, 7 fractional bits kept
/// between the passes. The C levels (`generic`, `sse2`, `avx2`, `avx512`) run it in C, the
/// `portable` level in Swift SIMD (`fixedPointRows`); all give the same bits. Past that
/// radius every level runs the Swift SIMD form in `Float`, described at
/// `apply(to:stripWidth:)`.
public struct GaussianBlur: Sendable {
  /// The standard deviation, in pixels (0: no blur).
  public let sigma: Double
  /// How many taps on each side of the centre: `ceil(3 * sigma)`.
  public let radius: Int
  /// The normalised weights, from offset `-radius` to `+radius`.
  public let weights: [Float]
  /// The weights of the fixed-point form in units of 2^-16, the centre first, then offsets
  /// 1 ... radius: each side weight rounded to nearest, the centre taking what makes the
  /// total 65536. Empty when the fixed-point form does not apply (sigma 0, or a radius
  /// above its limit).
  public let fixedWeights: [UInt16]
  /// The level asked for.
  public let level: KernelLevel

  /// A blur of standard deviation `sigma` pixels (`0` for none), run at `level`.
  public init(sigma: Double, level: KernelLevel = .best) {
    precondition(sigma >= 0 && sigma.isFinite, "sigma must be finite and not negative")
    self.sigma = sigma
    self.level = level
    // A sigma so small that its square is 0 (below about 1e-162) is the identity too: the
    // weights' formula would divide 0 by 0 at the centre.
    guard sigma * sigma > 0 else {
      radius = 0
      weights = [1]
      fixedWeights = []
      return
    }
    let radius = Int((3 * sigma).rounded(.up))
    self.radius = radius
    // (Finders and pipelines make a blur per image: the Gaussian's values stay on the stack.)
    let taps = 2 * radius + 1
    (weights, fixedWeights) = withUnsafeTemporaryAllocation(of: Double.self, capacity: taps) { raw in
      for i in raw.indices {
        let x = Double(i - radius)
        raw[i] = exp(-(x * x) / (2 * sigma * sigma))
      }
      let total = raw.reduce(0, +)
      let weights = raw.map { Float($0 / total) }
      guard radius <= Int(TL_BLUR_MAX_RADIUS) else { return (weights, []) }
      func side(_ k: Int) -> Int { Int((raw[radius + k] / total * 65536).rounded()) }
      let centre = 65536 - 2 * (1...radius).reduce(0) { $0 + side($1) }
      // A centre of 65536 means every side weight rounds to 0: the blur is the identity to
      // within 255 * 2 * radius / 65536 of a level, and `apply` returns the image.
      guard centre < 65536 else { return (weights, []) }
      let fixed = [UInt16](unsafeUninitializedCapacity: radius + 1) { buffer, count in
        buffer[0] = UInt16(centre)
        for k in 1...radius { buffer[k] = UInt16(side(k)) }
        count = radius + 1
      }
      return (weights, fixed)
    }
  }

  /// The level that runs: `level`, or `portable` (the `Float` form) where the fixed-point
  /// form does not apply.
  public var effectiveLevel: KernelLevel { fixedWeights.isEmpty ? .portable : level }

  /// Whether the blur leaves every image as it is (sigma 0, or side weights that round to
  /// nothing in the fixed-point form).
  var isIdentity: Bool { radius == 0 || (fixedWeights.isEmpty && radius <= Int(TL_BLUR_MAX_RADIUS)) }

  /// The blurred image; `image` is not changed.
  ///
  /// Complexity: O(width * height * radius).
  public func apply(to image: RGBImage) -> RGBImage {
    guard !isIdentity, image.pixelCount > 0 else { return image }
    guard !fixedWeights.isEmpty else { return apply(to: image, stripWidth: Self.stripWidth) }
    return RGBImage(width: image.width, height: image.height) { output in
      image.read { input in
        guard level != .portable else {
          return fixedPointRows(
            of: input.baseAddress!, stride: image.width * 3, width: image.width, height: image.height,
            rows: nil, into: output.baseAddress!)
        }
        fixedWeights.withUnsafeBufferPointer { w in
          let count = tl_blur_scratch_count(Int32(image.width), Int32(radius))
          withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { scratch in
            tl_blur_rgb8(
              level.cLevel, input.baseAddress!, image.width * 3, output.baseAddress!, Int32(image.width),
              Int32(image.height), Int32(radius), w.baseAddress!, scratch.baseAddress!)
          }
        }
      }
    }
  }

  /// Rows `rows` of the blurred `region` of `image`, as `apply` would compute them for the
  /// image cropped to `region`, bit for bit, at the same level: an image `region.width` wide
  /// and `rows.count` high, whose row k is the region's row `rows[k]`. The form for a
  /// decision that samples a few rows: the other rows are not blurred.
  ///
  /// Complexity: O(rows.count * region.width * radius).
  public func rows(_ rows: [Int], of image: RGBImage, region: PixelRegion) -> RGBImage {
    precondition(
      region.x >= 0 && region.y >= 0 && region.x + region.width <= image.width
        && region.y + region.height <= image.height, "region outside the image")
    precondition(rows.allSatisfy { $0 >= 0 && $0 < region.height }, "row outside the region")
    let rowBytes = region.width * 3
    guard !rows.isEmpty else { return RGBImage(width: region.width, height: 0) }
    guard !isIdentity, region.width > 0 else {
      let blurred = apply(to: image.cropped(to: region))
      return RGBImage(width: region.width, height: rows.count) { output in
        blurred.read { input in
          for (k, y) in rows.enumerated() where rowBytes > 0 {
            (output.baseAddress! + k * rowBytes).update(
              from: input.baseAddress! + y * rowBytes, count: rowBytes)
          }
        }
      }
    }
    if fixedWeights.isEmpty { return floatRows(rows, of: image, region: region) }
    return RGBImage(width: region.width, height: rows.count) { output in
      image.read { input in
        guard level != .portable else {
          return fixedPointRows(
            of: input.baseAddress! + (region.y * image.width + region.x) * 3, stride: image.width * 3,
            width: region.width, height: region.height, rows: rows, into: output.baseAddress!)
        }
        fixedWeights.withUnsafeBufferPointer { w in
          rows.map { Int32($0) }.withUnsafeBufferPointer { rows in
            let count = tl_blur_scratch_count(Int32(region.width), Int32(radius))
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { scratch in
              tl_blur_rgb8_rows(
                level.cLevel, input.baseAddress! + (region.y * image.width + region.x) * 3, image.width * 3,
                output.baseAddress!, Int32(region.width), Int32(region.height), Int32(radius), w.baseAddress!,
                scratch.baseAddress!, rows.baseAddress!, Int32(rows.count))
            }
          }
        }
      }
    }
  }

  /// `rows(_:of:region:)` by the `Float` form: each row's vertical taps summed into one
  /// padded row of floats, then the horizontal pass, the multiply-adds of
  /// `apply(to:stripWidth:)` in the same order, so the same bits.
  func floatRows(_ rows: [Int], of image: RGBImage, region: PixelRegion) -> RGBImage {
    let taps = 2 * radius + 1
    let count = region.width * 3
    let padding = radius * 3
    let sums = UnsafeMutablePointer<Float>.allocate(capacity: count + 2 * padding)
    defer { sums.deallocate() }
    let into = sums + padding
    return RGBImage(width: region.width, height: rows.count) { output in
      image.read { input in
        weights.withUnsafeBufferPointer { weightBuffer in
          let w = weightBuffer.baseAddress!
          let stride = image.width * 3
          let origin = UnsafeRawPointer(input.baseAddress! + region.y * stride + region.x * 3)
          for (k, y) in rows.enumerated() {
            // Source row of tap t: the region's row y - radius + t, clamped to the region.
            @inline(__always) func source(_ t: Int) -> UnsafeRawPointer {
              origin + min(max(y - radius + t, 0), region.height - 1) * stride
            }
            // Channels `i ..< i + V.scalarCount`, each tap's bytes loaded and converted.
            @inline(__always) func sum<V: BlurLanes>(_: V.Type, at i: Int) {
              var s = V(repeating: 0)
              for t in 0..<taps {
                s = Self.multiplyAdd(s, V.converting(from: source(t), offset: i), V(repeating: w[t]))
              }
              s.store(to: UnsafeMutableRawPointer(into), offset: i &* 4)
            }
            var i = 0
            while i + 16 <= count {
              sum(SIMD16<Float>.self, at: i)
              i &+= 16
            }
            if i + 8 <= count {
              sum(SIMD8<Float>.self, at: i)
              i &+= 8
            }
            while i < count {
              var s: Float = 0
              for t in 0..<taps {
                s = Self.multiplyAdd(s, Float(source(t).load(fromByteOffset: i, as: UInt8.self)), w[t])
              }
              into[i] = s
              i &+= 1
            }
            Self.replicateLeftEdge(sums, count: padding)
            Self.replicateRightEdge(sums, after: padding + count, count: padding)
            Self.horizontalPass(
              sums, count: count, taps: taps, weights: w, into: output.baseAddress! + k * count)
          }
        }
      }
    }
  }

  /// The blurred image by the `Float` form (the form past the fixed-point radius), worked in
  /// vertical strips of `stripWidth` pixels, whatever `level` says.
  ///
  /// The image is cut into vertical strips, so that a strip's working rows stay in the
  /// first-level cache. Down each strip, four output rows at a time, a vertical pass sums the
  /// `2 * radius + 4` source rows around them (kept converted to `Float` in a ring, each
  /// source row converted once per strip; each loaded vector feeds the four rows' sums) into
  /// row buffers that reach `radius` pixels past the strip on each side (replicated pixels at
  /// the image's edges); a horizontal pass then reads each row with no clamping in its inner
  /// loop. Both passes run on vectors of float channels (`BlurLanes`): the vertical pass on
  /// `SIMD8<Float>`, whose four sums fit x86-64's sixteen baseline registers where four
  /// `SIMD16<Float>` sums spill, its weights kept in every lane; the horizontal pass, which
  /// adds each pair of taps before one multiply, on `SIMD16<Float>`, then one
  /// `SIMD8<Float>` where at least 8 channels are left. Working memory
  /// is `2 * radius + 8` strip rows of floats, however large the image. Every output channel
  /// is within 1 of a `Double` blur rounded to nearest (Float error is about 1e-5 of a level;
  /// the rest is the final rounding), and the same bit for bit whatever the strips (tested):
  /// each channel's multiply-adds do not depend on them.
  public func apply(to image: RGBImage, stripWidth: Int) -> RGBImage {
    precondition(stripWidth > 0, "strips must be at least one pixel wide")
    guard radius > 0, image.pixelCount > 0 else { return image }
    let width = image.width
    let height = image.height
    let rowCount = width * 3
    let taps = 2 * radius + 1
    let padding = radius * 3
    // The image is blurred in vertical strips of output channels: a strip's ring of source
    // rows stays in the first-level cache from one sweep to the next (a whole 1080p ring,
    // 370 KB, does not). Each strip sums `padding` channels more on each side than it
    // outputs, for its horizontal taps.
    let stripChannels = 3 * min(stripWidth, width)
    let strip = rowCount <= stripChannels + 2 * padding ? rowCount : stripChannels
    let summedCount = min(rowCount, strip + 2 * padding)
    // Rows start on 64-byte boundaries: strides in whole vectors.
    let ringStride = (summedCount + 15) / 16 * 16
    let paddedStride = (strip + 2 * padding + 15) / 16 * 16
    let block = Self.rowsPerSweep
    // The ring holds the source rows of one sweep; then `block` padded vertical-sum rows.
    let ringRows = taps + block - 1
    // 16 floats of slack at the end, for whole-vector loads near the last row.
    let scratchCount = ringRows * ringStride + block * paddedStride + 16
    let scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchCount * 4, alignment: 64)
      .initializeMemory(as: Float.self, repeating: 0, count: scratchCount)
    defer { scratch.deallocate() }
    let ring = scratch
    let padded = scratch + ringRows * ringStride
    // blockWeights[j * block + q]: the weight of the sweep's source row j in output row q,
    // in every lane (the vertical pass multiplies by it as it is).
    var blockWeights = [SIMD8<Float>](repeating: .zero, count: ringRows * block)
    for j in 0..<ringRows {
      for q in 0..<block where j - q >= 0 && j - q < taps {
        blockWeights[j * block + q] = SIMD8(repeating: weights[j - q])
      }
    }

    return RGBImage(width: width, height: height) { output in
      image.read { input in
        let source = input.baseAddress!
        let destination = output.baseAddress!
        weights.withUnsafeBufferPointer { weightBuffer in
          blockWeights.withUnsafeBufferPointer { blockBuffer in
            let weights = weightBuffer.baseAddress!
            for first in stride(from: 0, to: rowCount, by: strip) {
              // Output channels first ..< end; summed channels low ..< high, which land in
              // the padded rows at `low - (first - padding)`.
              let end = min(first + strip, rowCount)
              let low = max(0, first - padding)
              let high = min(rowCount, end + padding)
              var converted = -1  // the last source row converted into the ring
              for top in stride(from: 0, to: height, by: block) {
                let last = min(height - 1, top + block - 1 + radius)
                while converted < last {
                  converted += 1
                  Self.convertRow(
                    source + converted * rowCount + low, into: ring + (converted % ringRows) * ringStride,
                    count: high - low)
                }
                Self.verticalSums(
                  ring: ring, ringRows: ringRows, ringStride: ringStride, top: top - radius,
                  height: height,
                  weights: blockBuffer.baseAddress!, count: high - low,
                  into: padded + (low - first + padding), paddedStride: paddedStride)
                for q in 0..<min(block, height - top) {
                  let row = padded + q * paddedStride
                  // Where the strip's reach passes the image's edge, the edge pixel repeats.
                  if first < padding { Self.replicateLeftEdge(row, count: padding - first) }
                  if end + padding > rowCount {
                    Self.replicateRightEdge(
                      row, after: rowCount - first + padding, count: end + padding - rowCount)
                  }
                  Self.horizontalPass(
                    row, count: end - first, taps: taps, weights: weights,
                    into: destination + (top + q) * rowCount + first)
                }
              }
            }
          }
        }
      }
    }
  }

  /// The blurred pixel at (`x`, `y`) of `region` of `image`, as `apply` would compute it for
  /// the image cropped to `region`, bit for bit, at the same level: the same clamping at the
  /// region's edges, the same arithmetic. The sparse path: a frame's decision needs the
  /// blurred value at a few points only.
  ///
  /// Complexity: O(radius^2) per pixel.
  public func pixel(x: Int, y: Int, in image: RGBImage, region: PixelRegion) -> (r: UInt8, g: UInt8, b: UInt8)
  {
    precondition(x >= 0 && x < region.width && y >= 0 && y < region.height, "pixel outside the region")
    guard !isIdentity else { return image[region.x + x, region.y + y] }
    if !fixedWeights.isEmpty {
      return image.read { bytes in
        let origin = bytes.baseAddress! + (region.y * image.width + region.x) * 3
        guard level != .portable else {
          @inline(__always) func channel(_ c: Int) -> UInt8 {
            fixedPointChannel(
              c, x: x, y: y, of: origin, stride: image.width * 3, width: region.width, height: region.height)
          }
          return (channel(0), channel(1), channel(2))
        }
        return fixedWeights.withUnsafeBufferPointer { w in
          @inline(__always) func channel(_ c: Int32) -> UInt8 {
            tl_blur_rgb8_channel(
              origin, image.width * 3, Int32(region.width), Int32(region.height), Int32(radius),
              w.baseAddress!, Int32(x), Int32(y), c)
          }
          return (channel(0), channel(1), channel(2))
        }
      }
    }
    let taps = 2 * radius + 1
    return image.read { bytes in
      weights.withUnsafeBufferPointer { w in
        var out: (UInt8, UInt8, UInt8) = (0, 0, 0)
        for channel in 0..<3 {
          // The vertical sum of the column `tap - radius` pixels from x.
          func column(_ tap: Int) -> Float {
            let column = region.x + min(max(x - radius + tap, 0), region.width - 1)
            var v: Float = 0
            for t in 0..<taps {
              let row = region.y + min(max(y - radius + t, 0), region.height - 1)
              v = Self.multiplyAdd(v, Float(bytes[(row * image.width + column) * 3 + channel]), w[t])
            }
            return v
          }
          var s = column(radius) * w[radius]
          for k in 1...radius {
            s = Self.multiplyAdd(s, column(radius - k) + column(radius + k), w[radius + k])
          }
          let value = Self.roundedByte(s)
          switch channel {
          case 0: out.0 = value
          case 1: out.1 = value
          default: out.2 = value
          }
        }
        return out
      }
    }
  }

  /// Output rows computed per sweep of the vertical pass: each source vector loaded feeds
  /// this many accumulators, which cuts the pass's memory traffic by about this factor.
  static let rowsPerSweep = 4

  /// Pixels per vertical strip: with 13 taps a strip's ring and padded rows take 20 rows of
  /// about 1.9 KB, under a 48 KB first-level data cache (the fastest of 80 to 320 pixels on
  /// 1080p frames here).
  public static let stripWidth = 144

  @inline(__always)
  static func convertRow(_ source: UnsafePointer<UInt8>, into row: UnsafeMutablePointer<Float>, count: Int) {
    let raw = UnsafeRawPointer(source)
    let out = UnsafeMutableRawPointer(row)
    var i = 0
    while i + 16 <= count {
      out.storeBytes(
        of: SIMD16<Float>.converting(from: raw, offset: i), toByteOffset: i * 4, as: SIMD16<Float>.self)
      i &+= 16
    }
    while i < count {
      row[i] = Float(source[i])
      i &+= 1
    }
  }

  /// The vertical sums of `rowsPerSweep` consecutive output rows: source rows
  /// `top ..< top + ringRows` (clamped to the image) weighted by `weights[j * rowsPerSweep + q]`
  /// (the weight in every lane) into row q of `sums` (rows `paddedStride` floats apart); ring
  /// row r is at `ring + r * ringStride`. Each group of 8 channels is loaded once per source
  /// row and accumulated in registers.
  @inline(__always)
  static func verticalSums(
    ring: UnsafeMutablePointer<Float>, ringRows: Int, ringStride: Int, top: Int,
    height: Int,
    weights: UnsafePointer<SIMD8<Float>>, count: Int, into sums: UnsafeMutablePointer<Float>,
    paddedStride: Int
  ) {
    withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: ringRows) { rows in
      for j in 0..<ringRows {
        let row = min(max(top + j, 0), height - 1)
        rows[j] = UnsafeRawPointer(ring + (row % ringRows) * ringStride)
      }
      let out = UnsafeMutableRawPointer(sums)
      let stride = paddedStride &* 4
      // The channels `offset / 4 ..< offset / 4 + V.scalarCount` of the four output rows.
      @inline(__always) func sweep<V: BlurLanes>(_: V.Type, offset: Int) {
        @inline(__always) func load(_ j: Int) -> V {
          V.load(from: rows[j], offset: offset)
        }
        @inline(__always) func weight(_ j: Int, _ q: Int) -> V {
          V.load(from: UnsafeRawPointer(weights + (j &* 4 &+ q)), offset: 0)
        }
        // Output row q takes source rows q ..< q + taps: the first three and last three
        // source rows skip the rows whose weight is zero.
        var a0 = V(repeating: 0)
        var a1 = a0
        var a2 = a0
        var a3 = a0
        let v0 = load(0)
        a0 = multiplyAdd(a0, v0, weight(0, 0))
        let v1 = load(1)
        a0 = multiplyAdd(a0, v1, weight(1, 0))
        a1 = multiplyAdd(a1, v1, weight(1, 1))
        let v2 = load(2)
        a0 = multiplyAdd(a0, v2, weight(2, 0))
        a1 = multiplyAdd(a1, v2, weight(2, 1))
        a2 = multiplyAdd(a2, v2, weight(2, 2))
        for j in 3..<(ringRows &- 3) {
          let v = load(j)
          a0 = multiplyAdd(a0, v, weight(j, 0))
          a1 = multiplyAdd(a1, v, weight(j, 1))
          a2 = multiplyAdd(a2, v, weight(j, 2))
          a3 = multiplyAdd(a3, v, weight(j, 3))
        }
        let u0 = load(ringRows &- 3)
        a1 = multiplyAdd(a1, u0, weight(ringRows &- 3, 1))
        a2 = multiplyAdd(a2, u0, weight(ringRows &- 3, 2))
        a3 = multiplyAdd(a3, u0, weight(ringRows &- 3, 3))
        let u1 = load(ringRows &- 2)
        a2 = multiplyAdd(a2, u1, weight(ringRows &- 2, 2))
        a3 = multiplyAdd(a3, u1, weight(ringRows &- 2, 3))
        a3 = multiplyAdd(a3, load(ringRows &- 1), weight(ringRows &- 1, 3))
        a0.store(to: out, offset: offset)
        a1.store(to: out, offset: offset &+ stride)
        a2.store(to: out, offset: offset &+ 2 &* stride)
        a3.store(to: out, offset: offset &+ 3 &* stride)
      }
      var i = 0
      while i + 8 <= count {
        sweep(SIMD8<Float>.self, offset: i &* 4)
        i &+= 8
      }
      while i < count {
        var a: (Float, Float, Float, Float) = (0, 0, 0, 0)
        for j in 0..<ringRows {
          let v = rows[j].load(fromByteOffset: i &* 4, as: Float.self)
          let w = weights + j &* 4
          a.0 = multiplyAdd(a.0, v, w[0][0])
          a.1 = multiplyAdd(a.1, v, w[1][0])
          a.2 = multiplyAdd(a.2, v, w[2][0])
          a.3 = multiplyAdd(a.3, v, w[3][0])
        }
        sums[i] = a.0
        sums[i + paddedStride] = a.1
        sums[i + 2 * paddedStride] = a.2
        sums[i + 3 * paddedStride] = a.3
        i &+= 1
      }
    }
  }

  /// Copies the pixel at `row + count` into the `count` floats before it (`count` is a
  /// multiple of 3).
  @inline(__always)
  static func replicateLeftEdge(_ row: UnsafeMutablePointer<Float>, count: Int) {
    let first = row + count
    for i in stride(from: 0, to: count, by: 3) {
      row[i] = first[0]
      row[i + 1] = first[1]
      row[i + 2] = first[2]
    }
  }

  /// Copies the pixel that ends at `row + end` into the `count` floats after it (`count` is
  /// a multiple of 3).
  @inline(__always)
  static func replicateRightEdge(_ row: UnsafeMutablePointer<Float>, after end: Int, count: Int) {
    let last = row + end - 3
    for i in stride(from: 0, to: count, by: 3) {
      let after = row + end + i
      after[0] = last[0]
      after[1] = last[1]
      after[2] = last[2]
    }
  }

  /// Output channel `i` is the weighted sum of padded channels `i + 3 * tap`, rounded to
  /// nearest and stored as a byte. The two taps at each distance from the centre are added
  /// before their one multiply (the weights are symmetric): the centre's product first,
  /// then the pairs from the nearest out, in every form (`pixel` too).
  ///
  /// Rounding without a float-to-integer conversion (which the standard library does
  /// element by element, with range checks): adding 2^23 to a value in 0...256 leaves the
  /// value rounded to the nearest integer (ties to even) in the low mantissa bits, whose
  /// low byte is the result.
  @inline(__always)
  static func horizontalPass(
    _ padded: UnsafeMutablePointer<Float>, count: Int, taps: Int,
    weights: UnsafePointer<Float>, into output: UnsafeMutablePointer<UInt8>
  ) {
    let input = UnsafeRawPointer(padded)
    let out = UnsafeMutableRawPointer(output)
    var i = 0
    let radius = taps / 2
    // Output channels `i ..< i + V.scalarCount`.
    @inline(__always) func step<V: BlurLanes>(_: V.Type, at i: Int) {
      @inline(__always) func load(_ tap: Int) -> V { V.load(from: input, offset: (i &+ 3 &* tap) &* 4) }
      var s = load(radius) * V(repeating: weights[radius])
      for k in 1...radius {
        s = multiplyAdd(s, load(radius &- k) + load(radius &+ k), V(repeating: weights[radius &+ k]))
      }
      s.storeRoundedBytes(to: out, offset: i)
    }
    while i + 16 <= count {
      step(SIMD16<Float>.self, at: i)
      i &+= 16
    }
    if i + 8 <= count {
      step(SIMD8<Float>.self, at: i)
      i &+= 8
    }
    while i < count {
      var s = padded[i + 3 * radius] * weights[radius]
      for k in 1...radius {
        s = multiplyAdd(s, padded[i + 3 * (radius - k)] + padded[i + 3 * (radius + k)], weights[radius + k])
      }
      output[i] = roundedByte(s)
      i &+= 1
    }
  }

  /// `s + v * w`, a multiply and an add (on the baseline target a fused multiply-add would be
  /// a library call per lane). Every pass, scalar or vector, goes through these two
  /// functions, so each output is computed the same way wherever it falls in a vector.
  @inline(__always)
  static func multiplyAdd<V: BlurLanes>(_ s: V, _ v: V, _ w: V) -> V {
    V.multiplyAdd(s, v, w)
  }

  @inline(__always)
  static func multiplyAdd(_ s: Float, _ v: Float, _ w: Float) -> Float {
    s + v * w
  }

  /// 2^23: see `horizontalPass`.
  static let roundingMagic: Float = 8_388_608

  /// `value` (in 0...255.5) rounded to nearest, ties to even, as `horizontalPass` rounds.
  @inline(__always)
  static func roundedByte(_ value: Float) -> UInt8 {
    UInt8(truncatingIfNeeded: (value + roundingMagic).bitPattern)
  }
}

/// A group of float channels the `Float` form's passes work on at once (`scalarCount` of
/// them).
protocol BlurLanes: SIMD where Scalar == Float {
  static func load(from base: UnsafeRawPointer, offset: Int) -> Self
  /// The bytes at `base + offset`, one per channel, as floats: each byte set in the low
  /// mantissa bits of 2^23, less 2^23, which is exact (the standard library's vector
  /// conversion from integers was a call, around which the rows form spilled every sum).
  static func converting(from base: UnsafeRawPointer, offset: Int) -> Self
  func store(to base: UnsafeMutableRawPointer, offset: Int)
  /// Stores each channel rounded to nearest as a byte, at `base + offset` (see
  /// `GaussianBlur.horizontalPass`).
  func storeRoundedBytes(to base: UnsafeMutableRawPointer, offset: Int)
  /// `s + v * w` (see `GaussianBlur.multiplyAdd`).
  static func multiplyAdd(_ s: Self, _ v: Self, _ w: Self) -> Self
}

extension BlurLanes {
  @inline(__always)
  static func load(from base: UnsafeRawPointer, offset: Int) -> Self {
    base.loadUnaligned(fromByteOffset: offset, as: Self.self)
  }

  @inline(__always)
  func store(to base: UnsafeMutableRawPointer, offset: Int) {
    base.storeBytes(of: self, toByteOffset: offset, as: Self.self)
  }

  @inline(__always)
  static func multiplyAdd(_ s: Self, _ v: Self, _ w: Self) -> Self {
    s + v * w
  }

  /// Bytes widened to 32-bit lanes, as floats: the trick `converting(from:offset:)` names.
  @inline(__always)
  static func converting<Wide: SIMD>(widened bytes: Wide) -> Self where Wide.Scalar == UInt32 {
    let magic = GaussianBlur.roundingMagic
    return unsafeBitCast(bytes | Wide(repeating: magic.bitPattern), to: Self.self) - Self(repeating: magic)
  }
}

extension SIMD16: BlurLanes where Scalar == Float {
  @inline(__always)
  static func converting(from base: UnsafeRawPointer, offset: Int) -> Self {
    let bytes = base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
    return converting(widened: SIMD16<UInt32>(truncatingIfNeeded: bytes))
  }

  @inline(__always)
  func storeRoundedBytes(to base: UnsafeMutableRawPointer, offset: Int) {
    let bits = unsafeBitCast(self + Self(repeating: GaussianBlur.roundingMagic), to: SIMD16<UInt32>.self)
    // Lane by lane, which compiles to one truncating store (`vpmovdb`); the vector
    // conversion `SIMD16<UInt8>(truncatingIfNeeded:)` became a truncate of half the lanes
    // and a byte permute.
    var bytes = SIMD16<UInt8>()
    for lane in 0..<16 { bytes[lane] = UInt8(truncatingIfNeeded: bits[lane]) }
    base.storeBytes(of: bytes, toByteOffset: offset, as: SIMD16<UInt8>.self)
  }
}

extension SIMD8: BlurLanes where Scalar == Float {
  @inline(__always)
  static func converting(from base: UnsafeRawPointer, offset: Int) -> Self {
    let bytes = base.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self)
    return converting(widened: SIMD8<UInt32>(truncatingIfNeeded: bytes))
  }

  @inline(__always)
  func storeRoundedBytes(to base: UnsafeMutableRawPointer, offset: Int) {
    let bits = unsafeBitCast(self + Self(repeating: GaussianBlur.roundingMagic), to: SIMD8<UInt32>.self)
    var bytes = SIMD8<UInt8>()
    for lane in 0..<8 { bytes[lane] = UInt8(truncatingIfNeeded: bits[lane]) }
    base.storeBytes(of: bytes, toByteOffset: offset, as: SIMD8<UInt8>.self)
  }
}
