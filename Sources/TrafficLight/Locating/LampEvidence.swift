import Foundation

/// A patch that may be the lit lamp of a light: the light it would be, and what was measured
/// of it.
public struct LampCandidate: Sendable, Equatable {
  /// The light, its confidence the evidence model's.
  public var light: FoundLight
  /// What the confidence was computed from.
  public var measurements: LampMeasurements
}

/// What the finder measures of a candidate lamp, at the scale it was found, on the blurred
/// pixels: "value" is a pixel's largest channel, "chroma" its largest less its smallest, and
/// ratios are to the lamp patch's own mean value or chroma. The squares beside the lamp are
/// placed by the way the head would run (along its axis, across it) and the lamp's diameter
/// d (its patch's longer side).
public struct LampMeasurements: Sendable, Equatable {
  /// The names of `values`, in order (the columns of `evaluate --candidates`).
  public static let names = [
    "red", "yellow", "green", "logRelativeSize", "fill", "elongation", "value", "chroma",
    "unlitValueMax", "unlitValueMin", "unlitChromaMax", "unlitChromaMin", "sideValueMax",
    "sideValueMin", "sideChromaMax", "gapValue", "gapChroma", "surroundValue", "surroundChroma",
  ]

  /// The measurements in the order of `names`: the colour (1 for the patch's, 0 for the
  /// others); the log of d over the image's longer side; the share of the patch's box it
  /// fills; the log of its height over its width; its mean value and chroma (0 to 1); of the
  /// two squares of side d where the unlit lamps would be, the larger and smaller value ratio
  /// and chroma ratio; of the two squares of side d/2 centred 0.75 d either side across the
  /// axis (the housing; a square off the image counts 0), the larger and smaller value ratio
  /// and the larger chroma ratio; the value and chroma ratios of the square of side d/2 half
  /// a pitch towards the first unlit lamp (the housing between the lamps); and of the square
  /// of side 3 d around the lamp.
  public let values: [Double]

  /// Measurements given in the order of `names` (one value per name).
  public init(values: [Double]) {
    precondition(values.count == Self.names.count, "one value per measurement name")
    self.values = values
  }

  /// Measurements from their parts (ratios as described for `values`).
  init(
    color: SignalColor, relativeSize: Double, fill: Double, elongation: Double, value: Double,
    chroma: Double, unlitValues: (Double, Double), unlitChromas: (Double, Double),
    sideValues: (Double, Double), sideChroma: Double, gap: (Double, Double), surround: (Double, Double)
  ) {
    values = [
      color == .red ? 1 : 0, color == .yellow ? 1 : 0, color == .green ? 1 : 0, log(relativeSize), fill,
      elongation, value, chroma, unlitValues.0, unlitValues.1, unlitChromas.0, unlitChromas.1,
      sideValues.0, sideValues.1, sideChroma, gap.0, gap.1, surround.0, surround.1,
    ]
  }
}

/// How sure a candidate lamp is: a logistic model over its measurements m and every product
/// of two of them, the confidence 1 / (1 + e^-(bias + weights . terms)) where the terms are
/// m[0], ..., m[n-1], then m[i] * m[j] for each i <= j in row order (n + n(n+1)/2 terms).
/// Fitted to the shared frames' candidates, each labelled by whether its light finds a box
/// of its colour (`evaluate --candidates`, `scripts/fit_lamp_evidence.py`; CALIBRATION.md).
public struct LampEvidence: Sendable, Codable, Equatable {
  /// The log-odds of a candidate whose measurements are all 0.
  public var bias: Double
  /// One weight per term, in the order above.
  public var weights: [Double]

  /// The number of terms a model over `LampMeasurements.names` has.
  public static let termCount = LampMeasurements.names.count * (LampMeasurements.names.count + 3) / 2

  /// A model with these values.
  public init(bias: Double, weights: [Double]) {
    self.bias = bias
    self.weights = weights
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    guard weights.count == Self.termCount else {
      return "weights must have \(Self.termCount) values, one per term, not \(weights.count)"
    }
    guard bias.isFinite, weights.allSatisfy(\.isFinite) else { return "bias and weights must be finite" }
    return nil
  }

  /// The confidence, 0 to 1, of a candidate measured as `measurements`.
  public func confidence(of measurements: LampMeasurements) -> Double {
    let m = measurements.values
    var logOdds = bias
    var term = 0
    for value in m {
      logOdds += weights[term] * value
      term += 1
    }
    for i in m.indices {
      for j in i..<m.count {
        logOdds += weights[term] * m[i] * m[j]
        term += 1
      }
    }
    return 1 / (1 + exp(-logOdds))
  }

  /// The model fitted to the shared frames (CALIBRATION.md).
  public static let fitted = LampEvidence(
    bias: -0.272157,
    weights: [
      -2.16519, 1.33472, 0.48919, 0.900999, 4.79091, -1.54372, 1.71677, 2.04918, -1.2111, 2.3546, -3.28993,
      -1.25283, -1.37629, 1.54034, 0.759914, -2.42142, 0.624404, -1.06322, -2.17871, -2.16519, 0.0,
      0.0, 0.259354, 0.0173225, -1.20355, 2.95901, -0.474918, -0.498297, 1.98826, -3.93323, -4.27841,
      -0.914124, 1.96796, 0.396139, 3.10045, -0.330641, 2.80307, 1.1123, 1.33472, 0.0, -0.0514893,
      2.57317, -1.5898, -0.570888, 0.155387, -1.02884, 0.286268, -0.946984, 0.767308, -1.90675, -0.493336,
      0.118822, -4.94652, 0.746369, -1.45771, -0.702338, 0.48919, -0.0319984, -2.24715, -1.89325, -1.80426,
      1.63625, 1.40335, 0.937993, -2.642, -4.6688, 2.43633, 1.03126, 0.763776, 2.72909, -0.213475,
      -1.78615, -2.55066, 0.116474, 0.558547, -0.92469, -0.695103, -1.03453, -0.788098, 0.0665833,
      0.154946, 0.210853, 0.5255, 0.836529, -0.621254, -0.103957, 0.0503465, 0.935033, -0.348585, 2.89287,
      -1.03011, -2.76431, -3.06239, -1.09995, 3.15722, -0.471802, 1.37853, -0.243599, 1.68566, 0.92608,
      1.38409, -0.0296901, -2.02057, -0.804653, -5.26143, 2.53896, -0.966154, 2.89753, -1.1236, 0.945701,
      0.34218, 2.36236, -3.18862, 0.360442, -0.711088, -2.25685, 2.54798, -3.68906, -4.28709, -0.275501,
      -0.985492, 7.4692, -3.14252, 3.76245, -1.61738, -2.67406, -4.43037, -1.38432, 2.967, 6.54049,
      0.954553, -3.88761, -4.92036, -8.99511, 0.649259, -9.95345, 1.60967, -0.992925, -2.10199, 3.5011,
      0.678242, 6.18006, 14.1701, -1.2776, -0.656945, 3.35197, 5.19411, 1.5687, 2.46787, 1.04189, -2.15907,
      0.176443, -5.54393, -4.52189, -1.70068, 0.518649, 4.92418, -2.99908, -1.25177, -3.15098, -0.944709,
      0.309414, 0.90881, -5.45987, 1.43854, -1.41966, 0.842235, 3.21385, 2.21808, 2.54405, 2.17473,
      -2.3334, -0.944873, -3.15241, -0.241729, 2.88635, -1.20184, -2.41324, -0.962332, 4.67028, 1.08937,
      1.0702, -0.470003, 1.49112, -1.16022, 0.0183771, 0.626553, -1.0781, -2.5069, -3.66134, 0.512561,
      -0.902853, 4.65519, 0.407253, -0.143394, 2.68998, -0.0733748, -2.1446, -0.583306, 0.16853, 0.253945,
      -4.81503, -3.17775, 0.499971, -1.00872, -0.787177, 7.24736, 2.4735, 2.62527,
    ])
}
