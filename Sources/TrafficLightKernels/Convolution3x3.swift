import CKernels

/// A 3x3 convolution with zero padding followed by ReLU, over a float image whose channels
/// are innermost: one layer of `LightNetwork`.
///
/// Every level gives the same bits: each output is its bias plus the products in the order
/// row of the kernel, column, input channel, each product rounded before it is added (the C
/// levels run their lanes across output channels and do not fuse; `portable` is the plain
/// Swift loop, the reference).
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

  /// The reference: plain loops, the same order of additions as the C levels.
  private func applyPortably(_ input: [Float], height: Int, width: Int, into output: inout [Float]) {
    var sums = [Float](repeating: 0, count: outputs)
    for y in 0..<height {
      for x in 0..<width {
        for o in 0..<outputs { sums[o] = bias[o] }
        for dy in -1...1 where y + dy >= 0 && y + dy < height {
          for dx in -1...1 where x + dx >= 0 && x + dx < width {
            let pixel = ((y + dy) * width + (x + dx)) * inputs
            let tap = ((dy + 1) * 3 + (dx + 1)) * inputs * outputs
            for i in 0..<inputs {
              let value = input[pixel + i]
              for o in 0..<outputs {
                let product = value * taps[tap + i * outputs + o]
                sums[o] = sums[o] + product
              }
            }
          }
        }
        for o in 0..<outputs { output[(y * width + x) * outputs + o] = max(sums[o], 0) }
      }
    }
  }
}
