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
    bias: 1.03363,
    weights: [
      -2.09741, 0.945618, 0.890927, 0.697206, 4.86028, -1.57291, -0.3415, 0.0456624, -1.46675, 1.78861,
      -3.31836, -1.70819, -1.16559, 1.80552, 0.634643, -2.57181, 0.0104259, -1.47308, -3.50362, -2.09741, 0.0,
      0.0, 0.166521, 1.46411, -0.891347, 1.92846, -2.0635, -0.933783, 2.8223, -3.4771, -4.30156, -1.23657,
      2.60512, -1.28792, 2.663, -0.938951, 2.57544, 1.14751, 0.945618, 0.0, -0.0115309, 1.8562, -1.92178,
      0.0602052, 1.37755, -1.05865, -0.201421, -1.23147, 0.444758, -1.8104, -0.576896, 0.631316, -4.47627,
      1.10946, -1.14331, -1.65923, 0.890927, -0.0218233, -2.85621, -1.38736, -2.1319, 0.8666, 1.51804,
      0.514979, -2.47685, -5.40294, 2.70002, 1.11596, 0.669803, 2.49348, -0.914683, -2.00577, -2.07445,
      0.0919454, 0.790495, -1.00127, -0.532503, -1.13886, -0.875651, -0.0700481, 0.136965, 0.240247, 0.381276,
      0.997024, -0.639668, -0.207591, 0.184077, 0.963376, -0.6596, 1.27027, -0.761198, -1.23745, -1.7123,
      0.235525, 1.86073, -0.430298, -0.454695, 0.691369, 1.1071, 2.77474, 2.75225, 0.0949899, -2.02714,
      -0.146478, -5.37716, 0.509933, 0.163965, 2.69061, 0.342586, 1.49953, 0.449267, 2.16173, -2.99478,
      -0.222579, -0.420477, -2.05026, 1.60896, -4.02283, -2.36508, 0.244901, -1.49419, 8.44089, -3.81149,
      4.55183, -3.03334, -3.40707, -3.83749, -2.06761, 4.84296, 6.70424, 0.532739, -3.78466, -5.12489,
      -10.1102, 0.756539, -8.13218, 1.74193, -0.890534, -0.732747, 1.40525, 3.04686, 7.18001, 14.1715,
      -0.476971, -0.942736, 3.46124, 4.93815, 0.952624, 2.82843, -0.293107, -2.37534, -0.533782, -5.42399,
      -5.37878, -0.436863, 0.35887, 5.4246, -2.12037, -1.904, -2.26164, -0.847161, -0.784004, -0.224722,
      -4.24209, 2.02122, -1.8769, 0.409285, 3.15378, 3.03706, 1.86678, 1.77021, -1.90081, 0.0436912, -2.9426,
      0.763016, 1.66939, -0.122988, -1.95735, -1.30403, 5.15152, 1.41116, 0.85034, -0.121615, 0.434566,
      -1.00099, -0.0608456, 0.887085, -2.28899, -2.52174, -2.61884, 0.480689, -0.635979, 4.4741, 1.29223,
      -0.927699, 1.66142, 0.754713, -2.00226, -1.93983, 0.379124, -0.427774, -4.41621, -2.71328, 0.546834,
      -0.768612, 0.546391, 7.33429, 2.52646, 1.55131,
    ])
}
