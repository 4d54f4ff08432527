import Foundation
import TrafficLightKernels

/// A small convolutional network that reads a light's thumbnail (`LightThumbnail`) and gives
/// each of its classes a probability: the `fitted` profile's reading.
///
/// Its layers: 3x3 convolutions with ReLU (`Convolution3x3`), each that `pool`s followed by a
/// 2x2 max pool; then each channel's largest response in the top, middle and bottom thirds of
/// the rows (so the lit lamp's place counts), and a linear readout from those features to the
/// classes' scores, turned into probabilities by softmax. The weights are data: trained by
/// `scripts/train_light_network.py` (PyTorch) and stored in a profile's JSON; `calibrate`
/// refits the readout (`Readout.fitted`).
public struct LightNetwork: Sendable, Equatable, Codable {
  /// One convolution layer as JSON holds it.
  public struct Layer: Sendable, Equatable, Codable {
    /// The convolution.
    public let convolution: Convolution3x3
    /// Whether a 2x2 max pool follows.
    public let pool: Bool

    /// A layer of this convolution, pooled or not.
    public init(_ convolution: Convolution3x3, pool: Bool) {
      self.convolution = convolution
      self.pool = pool
    }

    enum CodingKeys: String, CodingKey { case inputs, outputs, pool, weights, bias }

    /// Reads a layer's JSON (`inputs`, `outputs`, `pool`, `weights` as `[output][input][dy][dx]`,
    /// `bias`), refusing counts that do not fit.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let inputs = try container.decode(Int.self, forKey: .inputs)
      let outputs = try container.decode(Int.self, forKey: .outputs)
      guard (1...256).contains(inputs), (1...256).contains(outputs),
        let convolution = Convolution3x3(
          inputs: inputs, outputs: outputs, weights: try container.decode([Float].self, forKey: .weights),
          bias: try container.decode([Float].self, forKey: .bias))
      else {
        throw DecodingError.dataCorruptedError(
          forKey: .weights, in: container,
          debugDescription:
            "a layer of 1 to 256 inputs and outputs needs 9 * inputs * outputs weights and outputs biases")
      }
      self.convolution = convolution
      pool = try container.decode(Bool.self, forKey: .pool)
    }

    /// Writes the JSON `init(from:)` reads.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(convolution.inputs, forKey: .inputs)
      try container.encode(convolution.outputs, forKey: .outputs)
      try container.encode(pool, forKey: .pool)
      try container.encode(convolution.weights, forKey: .weights)
      try container.encode(convolution.bias, forKey: .bias)
    }
  }

  /// The linear map from features to class scores.
  public struct Readout: Sendable, Equatable, Codable {
    /// One row per class, one column per feature.
    public var weights: [[Float]]
    /// One per class.
    public var bias: [Float]

    /// A readout of these weights.
    public init(weights: [[Float]], bias: [Float]) {
      self.weights = weights
      self.bias = bias
    }

    /// The class scores of `features`.
    public func scores(_ features: [Float]) -> [Float] {
      zip(weights, bias).map { row, bias in
        var sum = bias
        for (w, f) in zip(row, features) { sum += w * f }
        return sum
      }
    }
  }

  /// Thumbnail cells across.
  public let width: Int
  /// Thumbnail cells down.
  public let height: Int
  /// The least the brightest cell is divided by (`LightThumbnail`), in 0...255.
  public let brightnessFloor: Double
  /// What each class is, in the readout's order.
  public let classes: [SignalColor]
  /// The convolutions, first to last.
  public let convolutions: [Layer]
  /// From features to classes.
  public var readout: Readout

  /// A network of these parts; `problem` says whether they fit together.
  public init(
    width: Int, height: Int, brightnessFloor: Double, classes: [SignalColor], convolutions: [Layer],
    readout: Readout
  ) {
    self.width = width
    self.height = height
    self.brightnessFloor = brightnessFloor
    self.classes = classes
    self.convolutions = convolutions
    self.readout = readout
  }

  /// How many features the readout reads: three per channel of the last layer.
  public var featureCount: Int { 3 * (convolutions.last?.convolution.outputs ?? 3) }

  /// What is wrong with the network, if anything.
  public var problem: String? {
    guard (4...256).contains(width), (6...256).contains(height) else {
      return "network: width must be 4 to 256 and height 6 to 256, not \(width) x \(height)"
    }
    guard brightnessFloor > 0 && brightnessFloor <= 255 else {
      return "network: brightnessFloor must be in 0 exclusive to 255, not \(brightnessFloor)"
    }
    guard Set(classes).count == classes.count, !classes.isEmpty else {
      return "network: classes must name each of red, yellow, green and unknown at most once"
    }
    var channels = 3
    var size = (width, height)
    for (index, layer) in convolutions.enumerated() {
      guard layer.convolution.inputs == channels else {
        return
          "network: layer \(index) reads \(layer.convolution.inputs) channels, not the \(channels) it is given"
      }
      channels = layer.convolution.outputs
      if layer.pool { size = (size.0 / 2, size.1 / 2) }
    }
    guard size.0 >= 1, size.1 >= 3 else { return "network: pooled away to \(size.0) x \(size.1) cells" }
    guard readout.weights.count == classes.count, readout.bias.count == classes.count,
      readout.weights.allSatisfy({ $0.count == 3 * channels })
    else {
      return
        "network: the readout needs \(classes.count) rows of \(3 * channels) weights and \(classes.count) biases"
    }
    let values =
      convolutions.flatMap { $0.convolution.weights + $0.convolution.bias } + readout.bias
      + readout.weights.joined()
    guard values.allSatisfy(\.isFinite) else { return "network: every weight must be a finite number" }
    return nil
  }

  /// The thumbnail this network reads of `region` of `image`; nil for an empty region.
  public func thumbnail(of image: RGBImage, region: PixelRegion) -> LightThumbnail? {
    LightThumbnail(of: image, region: region, width: width, height: height, floor: brightnessFloor)
  }

  /// The features of `thumbnail` (of this network's size): each last channel's largest
  /// response in the top, middle and bottom thirds, top's channels first.
  public func features(of thumbnail: LightThumbnail, level: KernelLevel = .best) -> [Float] {
    precondition(thumbnail.width == width && thumbnail.height == height, "a thumbnail of another size")
    var values = thumbnail.values
    var (w, h, channels) = (width, height, 3)
    for layer in convolutions {
      values = layer.convolution.apply(values, height: h, width: w, level: level)
      channels = layer.convolution.outputs
      if layer.pool {
        (values, w, h) = (Self.pooled(values, width: w, height: h, channels: channels), w / 2, h / 2)
      }
    }
    var features = [Float](repeating: 0, count: 3 * channels)
    values.withUnsafeBufferPointer { values in
      features.withUnsafeMutableBufferPointer { features in
        for third in 0..<3 {
          for y in (third * h / 3)..<((third + 1) * h / 3) {
            for x in 0..<w {
              for c in 0..<channels {
                features[third * channels + c] = max(
                  features[third * channels + c], values[(y * w + x) * channels + c])
              }
            }
          }
        }
      }
    }
    return features
  }

  /// The probability of each of `classes` for `thumbnail`.
  public func probabilities(of thumbnail: LightThumbnail, level: KernelLevel = .best) -> [Double] {
    Self.softmax(readout.scores(features(of: thumbnail, level: level)))
  }

  /// exp(s) / sum(exp), computed from the largest score down.
  package static func softmax(_ scores: [Float]) -> [Double] {
    let top = Double(scores.max() ?? 0)
    let exps = scores.map { Foundation.exp(Double($0) - top) }
    let total = exps.reduce(0, +)
    return exps.map { $0 / total }
  }

  /// 2x2 max pool, flooring odd sizes.
  static func pooled(_ values: [Float], width: Int, height: Int, channels: Int) -> [Float] {
    let (w, h) = (width / 2, height / 2)
    precondition(
      values.count >= width * height * channels, "values is not \(height) x \(width) x \(channels)")
    return [Float](unsafeUninitializedCapacity: w * h * channels) { out, count in
      values.withUnsafeBufferPointer { values in
        for y in 0..<h {
          for x in 0..<w {
            let top = (2 * y * width + 2 * x) * channels
            let bottom = top + width * channels
            for c in 0..<channels {
              let upper = max(values[top + c], values[top + channels + c])
              let lower = max(values[bottom + c], values[bottom + channels + c])
              out.initializeElement(at: (y * w + x) * channels + c, to: max(upper, lower))
            }
          }
        }
      }
      count = w * h * channels
    }
  }
}
