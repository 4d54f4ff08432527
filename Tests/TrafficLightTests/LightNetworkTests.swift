import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight
@testable import TrafficLightStudy

/// What `scripts/train_light_network.py --fixtures` wrote with the shipped network.
private struct Fixtures: Decodable {
  struct Thumbnail: Decodable {
    let width: Int
    let height: Int
    let values: [Float]
  }
  struct Scores: Decodable {
    let file: String
    let state: String
    let thumbnail: [Float]
    let scores: [Float]
  }
  let thumbnails: [Thumbnail]
  let scores: [Scores]

  static func load() throws -> Fixtures {
    let path = TestPaths.packageRoot.appendingPathComponent(
      "Tests/TrafficLightTests/Fixtures/light-network.json")
    return try JSONDecoder().decode(Fixtures.self, from: Data(contentsOf: path))
  }
}

/// The made-up image the training script's `made_up_image` makes.
private func madeUpImage(width: Int, height: Int) -> RGBImage {
  var image = RGBImage(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width {
      image[x, y] = (UInt8((x * 7 + y * 3) % 256), UInt8((x * y) % 256), UInt8((x + 2 * y) % 256))
    }
  }
  return image
}

private var fittedReader: LightNetworkDecider { Profile.fitted.decider as! LightNetworkDecider }

@Suite struct LightNetworkTests {
  /// The thumbnail is the training script's, value for value, upright or turned.
  @Test func thumbnails_matchTheTrainingScript() throws {
    let fixtures = try Fixtures.load()
    try #require(fixtures.thumbnails.count == 3)
    for fixture in fixtures.thumbnails {
      let image = madeUpImage(width: fixture.width, height: fixture.height)
      let thumbnail = try #require(
        LightThumbnail(
          of: image, region: PixelRegion(x: 0, y: 0, width: image.width, height: image.height), width: 24,
          height: 48,
          floor: 64))
      #expect(thumbnail.values == fixture.values, "\(fixture.width) x \(fixture.height)")
    }
  }

  /// The shipped network's scores are PyTorch's for the same thumbnails, at every level.
  @Test func scores_matchPyTorch_atEveryLevel() throws {
    let network = fittedReader.network
    let fixtures = try Fixtures.load()
    try #require(fixtures.scores.count == 4)
    for fixture in fixtures.scores {
      let thumbnail = LightThumbnail(width: network.width, height: network.height, values: fixture.thumbnail)
      for level in KernelLevel.supported {
        let scores = network.readout.scores(network.features(of: thumbnail, level: level))
        for (ours, theirs) in zip(scores, fixture.scores) {
          #expect(
            abs(ours - theirs) < 1e-4 * max(1, abs(theirs)),
            "\(fixture.file) at \(level): \(scores) against \(fixture.scores)")
        }
      }
      // The most probable class is the label of these crops.
      let probabilities = network.probabilities(of: thumbnail)
      let best = probabilities.indices.max { probabilities[$0] < probabilities[$1] }!
      #expect(network.classes[best].rawValue == fixture.state, "\(fixture.file)")
    }
  }

  /// Every level, `portable` too, gives the bits of a plain loop over the same sums.
  @Test func convolution_levelsAgreeBitForBit() throws {
    var generator = SeededGenerator(seed: 42)
    // The network's layers, and shapes that leave blocks of pixels and of outputs over.
    let shapes = [
      (3, 12, 48, 24), (12, 24, 24, 12), (24, 24, 12, 6), (5, 7, 3, 9), (2, 13, 4, 11), (1, 3, 5, 8),
      (4, 20, 3, 6), (3, 16, 1, 5), (2, 4, 2, 7),
    ]
    for (inputs, outputs, height, width) in shapes {
      let weights = (0..<(9 * inputs * outputs)).map { _ in Float.random(in: -1...1, using: &generator) }
      let bias = (0..<outputs).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
      let input = (0..<(height * width * inputs)).map { _ in Float.random(in: 0...1, using: &generator) }
      let layer = try #require(Convolution3x3(inputs: inputs, outputs: outputs, weights: weights, bias: bias))
      #expect(layer.weights == weights, "the layout round-trips")
      let reference = Self.plainConvolution(
        input, height: height, width: width, inputs: inputs, outputs: outputs, weights: weights, bias: bias)
      #expect(
        reference.contains { $0 > 0 } && (reference.count < 100 || reference.contains { $0 == 0 }),
        "ReLU cuts some, not all")
      for level in KernelLevel.supported {
        let output = layer.apply(input, height: height, width: width, level: level)
        #expect(output.map(\.bitPattern) == reference.map(\.bitPattern), "\(level)")
      }
    }
  }

  /// The convolution as plain loops over PyTorch's `[output][input][dy][dx]` weights: each
  /// output its bias plus the products by kernel row, column and input channel, each product
  /// rounded before it is added, then ReLU.
  static func plainConvolution(
    _ input: [Float], height: Int, width: Int, inputs: Int, outputs: Int, weights: [Float], bias: [Float]
  ) -> [Float] {
    var output = [Float](repeating: 0, count: height * width * outputs)
    for y in 0..<height {
      for x in 0..<width {
        for o in 0..<outputs {
          var sum = bias[o]
          for dy in -1...1 where y + dy >= 0 && y + dy < height {
            for dx in -1...1 where x + dx >= 0 && x + dx < width {
              for i in 0..<inputs {
                let product =
                  input[((y + dy) * width + x + dx) * inputs + i]
                  * weights[(o * inputs + i) * 9 + (dy + 1) * 3 + dx + 1]
                sum = sum + product
              }
            }
          }
          output[(y * width + x) * outputs + o] = sum > 0 ? sum : 0
        }
      }
    }
    return output
  }

  @Test func redVetoesGreen() {
    let reader = fittedReader
    #expect(reader.network.classes == [.red, .yellow, .green, .unknown])
    let green = reader.decide(probabilities: [0.1, 0.0, 0.85, 0.05])
    #expect(green.color == .green && green.confidence == 0.85)
    let vetoed = reader.decide(probabilities: [reader.redVeto, 0.0, 0.7, 0.1])
    #expect(vetoed.color == .unknown && vetoed.decidedBy == LightNetworkDecider.vetoedByRed)
    let red = reader.decide(probabilities: [0.6, 0.0, 0.4, 0.0])
    #expect(red.color == .red)
    let dark = reader.decide(probabilities: [0.1, 0.1, 0.1, 0.7])
    #expect(dark.color == .unknown && dark.decidedBy == LightNetworkDecider.decidedBy)
    // Below the profile's minimum confidence, a colour is `unknown`.
    let weak = Profile.fitted.finished(
      reader.decide(probabilities: [0.45, 0.1, 0.1, 0.35]), placedFrom: nil, busyness: 0)
    #expect(Profile.fitted.minimumConfidence == 0.5)
    #expect(weak.color == .unknown && weak.decidedBy == LightDecision.lowConfidence)
  }

  /// The profile round-trips through JSON, and a misspelt or misshapen network is refused.
  @Test func profile_roundTrips_andRefusesUnknownKeys() throws {
    let json = Profile.fitted.json()
    #expect(try Profile.decode(json, path: "p.json") == Profile.fitted)
    var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    var decider = object["decider"] as! [String: Any]
    var network = decider["network"] as! [String: Any]
    network["brightnesFloor"] = 64
    decider["network"] = network
    object["decider"] = decider
    let misspelt = try JSONSerialization.data(withJSONObject: object)
    #expect(
      throws: ProfileError.invalid(
        path: "p.json", reason: "unknown key 'decider.network.brightnesFloor' (misspelt? nothing reads it)")
    ) {
      try Profile.decode(misspelt, path: "p.json")
    }
    network["brightnesFloor"] = nil
    var layers = network["convolutions"] as! [[String: Any]]
    layers[1]["weights"] = Array((layers[1]["weights"] as! [Double]).dropLast())
    network["convolutions"] = layers
    decider["network"] = network
    object["decider"] = decider
    let short = try JSONSerialization.data(withJSONObject: object)
    #expect(throws: ProfileError.self) { try Profile.decode(short, path: "p.json") }
    network["convolutions"] = Array(layers.prefix(1))
    decider["network"] = network
    object["decider"] = decider
    let unjoined = try JSONSerialization.data(withJSONObject: object)
    do {
      _ = try Profile.decode(unjoined, path: "p.json")
      Issue.record("a readout that does not fit the last layer was accepted")
    } catch {
      #expect("\(error)".contains("readout"), "\(error)")
    }
  }

  /// A crop read alone and the same light found in a frame get the same reading: one
  /// function reads both.
  @Test(arguments: [SignalColor.red, .yellow, .green])
  func aCropAndTheSameLightInAFrame_readAlike(color: SignalColor) throws {
    var frame = syntheticFrame()
    paste(syntheticLight(lit: color), into: &frame, x: 140, y: 40)
    let pipeline = FramePipeline(profile: .fitted)
    let lights = LampFinder().find(in: frame)
    try #require(lights.count == 1)
    let whole = PixelRegion(x: 0, y: 0, width: frame.width, height: frame.height)
    let read = pipeline.read(lights, seen: SeenPixels(image: frame, region: whole))
    let found = try #require(read.first?.decision)
    let alone = pipeline.classify(frame.cropped(to: lights[0].box)).decision
    #expect(found == alone)
    #expect(read[0].light.color == alone.color && read[0].light.confidence == alone.confidence)
  }

  /// On shared frames: each housing of cinta read as a crop (its box) and as the light the
  /// finder found on it give the same colour.
  @Test(.enabled(if: TestPaths.sharedFrames != nil, "needs ../shared/frames"))
  func sharedFrames_cropAndFoundLightReadAlike() throws {
    let folder = TestPaths.sharedFrames! + "/cinta"
    let frames = try BoxedFrames.load(folder).prefix(40)
    let pipeline = FramePipeline(profile: .fitted)
    let finder = Profile.fitted.frameFinder()
    var compared = 0
    for frame in frames {
      let bytes = try FileReader.readAll(frame.path, maxBytes: 1 << 26)
      let search = try finder.searched(inImageData: bytes, name: frame.path, decoder: ImageDecoder())
      let pixels = try ImageDecoder().decode(bytes, name: frame.path).pixels
      for (light, decision) in pipeline.read(search.lights, seen: search.seen) {
        let alone = pipeline.classify(pixels, region: light.box).decision
        #expect(decision?.color == alone.color, "\(frame.path) \(light.box)")
        compared += 1
      }
    }
    #expect(compared >= 20)
  }

  /// A fit recovers a readout from made-up measurements drawn from it.
  @Test func readoutFit_recoversKnownWeights() {
    var generator = SeededGenerator(seed: 7)
    let classes: [SignalColor] = [.red, .yellow, .green, .unknown]
    let truth = LightNetwork.Readout(
      weights: [[3, 0, -2, 1], [-1, 2.5, 0, -1], [0, -2, 3, 0.5], [-1, -0.5, -1, -1]],
      bias: [0, -0.5, 0.2, 1])
    var features: [[Float]] = []
    var labels: [Int] = []
    for _ in 0..<3000 {
      let x = (0..<4).map { _ in Float.random(in: -2...2, using: &generator) }
      let p = LightNetwork.softmax(truth.scores(x))
      var u = Double.random(in: 0..<1, using: &generator)
      var label = 0
      while label < 3 && u >= p[label] {
        u -= p[label]
        label += 1
      }
      features.append(x)
      labels.append(label)
    }
    var fit = ReadoutFit()
    fit.l2 = 0
    fit.redAsGreenCost = 0
    fit.steps = 600
    // Equal classes' weights: the fit's class weighting leaves the scores' differences as they are
    // only up to each class's offset, so compare differences against the last class.
    let fitted = fit.fit(features: features, labels: labels, classes: classes)
    for c in 0..<3 {
      for j in 0..<4 {
        let want = truth.weights[c][j] - truth.weights[3][j]
        let got = fitted.weights[c][j] - fitted.weights[3][j]
        #expect(abs(got - want) < 0.35, "class \(c) feature \(j): \(got) against \(want)")
      }
    }
  }
}
