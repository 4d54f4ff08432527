import CKernels

/// A 3x3 convolution with zero padding followed by ReLU, over a float image whose channels
/// are innermost: one layer of `LightNetwork`.
///
/// Every level gives the same bits: each output is its bias plus the products in the order
/// row of the kernel, column, input channel, each product rounded before it is added (the C
/// levels run their lanes across output channels and do not fuse, as `portable` does in
/// Swift SIMD types; the tests hold a plain loop as the reference).
public struct Convolution3x3: Sendable, Equatable {
  /// Channels read per pixel.
  public let inputs: Int
  /// Channels written per pixel.
  public let outputs: Int
  /// The weights as `[dy][dx][input][output]`.
  let taps: [Float]
  /// One per output channel.
  public let bias: [Float]

  /// A layer of these weights, given as `[output][input][dy][dx]` (PyTorch's `Conv2d`
  /// layout), and biases; nil when the counts do not match `inputs` and `outputs`.
  public init?(inputs: Int, outputs: Int, weights: [Float], bias: [Float]) {
    guard inputs > 0, outputs > 0, weights.count == 9 * inputs * outputs, bias.count == outputs else {
      return nil
    }
    self.inputs = inputs
    self.outputs = outputs
    self.bias = bias
    var taps = [Float](repeating: 0, count: weights.count)
    for o in 0..<outputs {
      for i in 0..<inputs {
        for t in 0..<9 { taps[(t * inputs + i) * outputs + o] = weights[((o * inputs + i) * 9) + t] }
      }
    }
    self.taps = taps
  }

  /// The weights as `[output][input][dy][dx]`, as given.
  public var weights: [Float] {
    var weights = [Float](repeating: 0, count: taps.count)
    for o in 0..<outputs {
      for i in 0..<inputs {
        for t in 0..<9 { weights[((o * inputs + i) * 9) + t] = taps[(t * inputs + i) * outputs + o] }
      }
    }
    return weights
  }

  /// The layer's output for `input`, `height` x `width` pixels of `inputs` channels.
  public func apply(_ input: [Float], height: Int, width: Int, level: KernelLevel = .best) -> [Float] {
    precondition(input.count == height * width * inputs, "input is not \(height) x \(width) x \(inputs)")
    var output = [Float](repeating: 0, count: height * width * outputs)
    if level == .portable {
      applyPortably(input, height: height, width: width, into: &output)
      return output
    }
    var sums = [Float](repeating: 0, count: outputs)
    tl_convolve3x3_relu(
      level.cLevel, input, Int32(height), Int32(width), Int32(inputs), taps, bias, Int32(outputs), &output,
      &sums)
    return output
  }

  /// `portable`: four pixels at a time where their taps fall on the image alike (else one),
  /// their output channels eight at a time in Swift SIMD types (then four, then the rest one
  /// at a time), each group's sums held while every tap is added, in the C levels' order
  /// with products not fused, so that it gives their bits.
  private func applyPortably(_ input: [Float], height: Int, width: Int, into output: inout [Float]) {
    input.withUnsafeBufferPointer { input in
      taps.withUnsafeBufferPointer { taps in
        bias.withUnsafeBufferPointer { bias in
          output.withUnsafeMutableBufferPointer { output in
            for y in 0..<height {
              var x = 0
              while x < width {
                let pixel = Pixel(y: y, x: x, height: height, width: width)
                // Four pixels whose taps all fall on the image alike are summed at once.
                let pixels =
                  x + 4 <= width
                    && Pixel(y: y, x: x + 3, height: height, width: width).columns == pixel.columns ? 4 : 1
                var first = 0
                while first + 8 <= outputs {
                  sum(SIMD8<Float>.self, from: first, at: pixel, pixels, input, taps, bias, output)
                  first += 8
                }
                if first + 4 <= outputs {
                  sum(SIMD4<Float>.self, from: first, at: pixel, pixels, input, taps, bias, output)
                  first += 4
                }
                for o in first..<outputs {
                  for k in 0..<pixels { sum(o, at: pixel.moved(by: k), input, taps, bias, output) }
                }
                x += pixels
              }
            }
          }
        }
      }
    }
  }

  /// A pixel and the taps of the kernel that fall on the image around it.
  private struct Pixel {
    let index: Int
    let rows: ClosedRange<Int>
    let columns: ClosedRange<Int>
    let width: Int

    init(y: Int, x: Int, height: Int, width: Int) {
      index = y * width + x
      rows = (y > 0 ? -1 : 0)...(y < height - 1 ? 1 : 0)
      columns = (x > 0 ? -1 : 0)...(x < width - 1 ? 1 : 0)
      self.width = width
    }

    private init(index: Int, rows: ClosedRange<Int>, columns: ClosedRange<Int>, width: Int) {
      (self.index, self.rows, self.columns, self.width) = (index, rows, columns, width)
    }

    /// The pixel `k` to the right, its taps taken as this one's.
    func moved(by k: Int) -> Pixel { Pixel(index: index + k, rows: rows, columns: columns, width: width) }
  }

  /// For each tap of the kernel that falls on the image around `pixel`, by kernel row then
  /// column: the index in the input of the channel 0 of the pixel it falls on, and the index in
  /// `taps` of its weight from input channel 0 to output channel `output`.
  @inline(__always)
  private func forEachTap(of pixel: Pixel, output: Int, _ body: (_ from: Int, _ tap: Int) -> Void) {
    for dy in pixel.rows {
      for dx in pixel.columns {
        body(
          (pixel.index &+ dy &* pixel.width &+ dx) &* inputs,
          ((dy &+ 1) &* 3 &+ (dx &+ 1)) &* inputs &* outputs &+ output)
      }
    }
  }

  /// Output channels `first` to `first + V.scalarCount` of `pixels` (1 or 4) pixels from
  /// `pixel` on, whose taps fall on the image as `pixel`'s: each its bias, then every tap's
  /// products by kernel row, column and input channel, then ReLU.
  @inline(__always)
  private func sum<V: SIMD>(
    _: V.Type, from first: Int, at pixel: Pixel, _ pixels: Int, _ input: UnsafeBufferPointer<Float>,
    _ taps: UnsafeBufferPointer<Float>, _ bias: UnsafeBufferPointer<Float>,
    _ output: UnsafeMutableBufferPointer<Float>
  ) where V.Scalar == Float {
    let stride = MemoryLayout<Float>.stride
    let weights = UnsafeRawPointer(taps.baseAddress!)
    let start = UnsafeRawPointer(bias.baseAddress!).loadUnaligned(fromByteOffset: first * stride, as: V.self)
    var sums = (start, start, start, start)
    // Two loops, so that the one pixel's has no test of `pixels` inside.
    if pixels == 4 {
      forEachTap(of: pixel, output: first) { from, tap in
        for i in 0..<inputs {
          let weight = weights.loadUnaligned(fromByteOffset: (tap &+ i &* outputs) &* stride, as: V.self)
          sums.0 = sums.0 + V(repeating: input[from &+ i]) * weight
          sums.1 = sums.1 + V(repeating: input[from &+ inputs &+ i]) * weight
          sums.2 = sums.2 + V(repeating: input[from &+ 2 &* inputs &+ i]) * weight
          sums.3 = sums.3 + V(repeating: input[from &+ 3 &* inputs &+ i]) * weight
        }
      }
    } else {
      forEachTap(of: pixel, output: first) { from, tap in
        for i in 0..<inputs {
          let weight = weights.loadUnaligned(fromByteOffset: (tap &+ i &* outputs) &* stride, as: V.self)
          sums.0 = sums.0 + V(repeating: input[from &+ i]) * weight
        }
      }
    }
    let out = UnsafeMutableRawPointer(output.baseAddress!)
    let place = (pixel.index * outputs + first) * stride
    let zero = V(repeating: 0)
    out.storeBytes(of: zero.replacing(with: sums.0, where: sums.0 .> zero), toByteOffset: place, as: V.self)
    guard pixels == 4 else { return }
    let next = outputs * stride
    out.storeBytes(
      of: zero.replacing(with: sums.1, where: sums.1 .> zero), toByteOffset: place + next, as: V.self)
    out.storeBytes(
      of: zero.replacing(with: sums.2, where: sums.2 .> zero), toByteOffset: place + 2 * next, as: V.self)
    out.storeBytes(
      of: zero.replacing(with: sums.3, where: sums.3 .> zero), toByteOffset: place + 3 * next, as: V.self)
  }

  /// Output channel `o` of `pixel`, as `sum(_:from:at:_:_:_:_:)` sums a group.
  private func sum(
    _ o: Int, at pixel: Pixel, _ input: UnsafeBufferPointer<Float>, _ taps: UnsafeBufferPointer<Float>,
    _ bias: UnsafeBufferPointer<Float>, _ output: UnsafeMutableBufferPointer<Float>
  ) {
    var sum = bias[o]
    forEachTap(of: pixel, output: o) { from, tap in
      for i in 0..<inputs {
        let product = input[from + i] * taps[tap + i * outputs]
        sum = sum + product
      }
    }
    output[pixel.index * outputs + o] = sum > 0 ? sum : 0
  }
}
