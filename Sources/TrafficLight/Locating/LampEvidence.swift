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

  /// The lamp patch's mean value (its pixels' largest channel), 0 to 1.
  public var value: Double { values[Self.valueIndex] }

  private static let valueIndex = names.firstIndex(of: "value")!

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

  /// The largest bias or weight either way: far beyond any fitted one, small enough that no
  /// sum of terms over finite measurements overflows.
  public static let largestWeight = 1e6

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
    // Bounded, not only finite: a weight of 1e308 times a measurement is infinite, and two
    // such terms of opposite signs make every confidence NaN.
    guard abs(bias) <= Self.largestWeight, weights.allSatisfy({ abs($0) <= Self.largestWeight }) else {
      return
        "bias and weights must be finite numbers from -\(Int(Self.largestWeight)) to \(Int(Self.largestWeight))"
    }
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
    // A measurement that is not finite (a ratio to nothing) makes no light.
    guard !logOdds.isNaN else { return 0 }
    return 1 / (1 + exp(-logOdds))
  }

  /// The model fitted to the shared frames (CALIBRATION.md).
  public static let fitted = LampEvidence(
    bias: 0.820454,
    weights: [
      -2.02908, 0.954827, 0.841004, 0.71744, 4.49231, -1.50343, 0.119547, 0.429855, -1.34038, 1.70888,
      -3.26882, -1.93044, -1.09929, 1.82962, 0.843962, -2.54316, 0.075444, -1.44429, -3.20958, -2.02908, 0.0,
      0.0, 0.173086, 1.14932, -0.907076, 2.00082, -1.85801, -0.668921, 2.6135, -3.42952, -4.58708, -1.14074,
      2.58362, -1.03317, 2.65442, -0.805609, 2.45406, 1.09403, 0.954827, 0.0, -0.0208426, 1.97244, -1.82476,
      0.0335, 1.29325, -1.08542, -0.186886, -1.18053, 0.398906, -1.79194, -0.599484, 0.73134, -4.46412,
      1.02775, -1.15968, -1.5629, 0.841004, -0.014271, -2.74739, -1.34475, -2.05874, 0.966028, 1.51504,
      0.447211, -2.35849, -5.54689, 2.75067, 1.10088, 0.800145, 2.45113, -0.827108, -1.9718, -2.04798,
      0.0904173, 0.715669, -0.999501, -0.521843, -1.12395, -0.904518, -0.0410454, 0.118043, 0.307845,
      0.403888, 0.987845, -0.643152, -0.218277, 0.181632, 0.962863, -0.668044, 1.48145, -0.905852, -1.15135,
      -1.72971, -0.341025, 2.38222, -0.34464, -0.00976607, 0.659078, 1.13874, 2.39002, 2.69401, 0.0632141,
      -1.87468, -0.799916, -5.48193, 0.760718, 0.150499, 2.64604, 0.1617, 1.62278, 0.469914, 2.10358,
      -3.12426, -0.165125, -0.428209, -2.02827, 1.74771, -4.28434, -2.84985, 0.0119728, -1.61624, 8.35581,
      -3.95834, 4.9909, -2.92795, -3.42578, -3.92281, -1.93547, 4.77468, 6.62652, 0.907885, -3.59054,
      -5.05746, -9.71273, 0.43547, -7.9914, 1.44158, -0.768899, -0.830294, 1.21428, 2.80048, 7.34491, 13.1428,
      -0.365019, -1.13077, 3.45786, 4.80443, 0.962784, 2.65935, -0.0250437, -2.3296, -0.578914, -5.43909,
      -4.7426, -0.833893, 0.623941, 5.26768, -2.10589, -1.89597, -2.55332, -0.877314, -0.596074, -0.0424567,
      -3.97868, 1.83338, -1.66379, 0.450307, 3.10844, 2.94899, 1.80218, 1.71721, -1.87505, -0.17312, -2.931,
      0.682868, 1.90555, -0.29531, -1.91753, -1.10644, 5.1286, 1.26239, 0.878421, -0.0639625, 0.409998,
      -0.973758, -0.021646, 0.798436, -2.31517, -2.52285, -2.6913, 0.477256, -0.578152, 4.38596, 1.27251,
      -0.919943, 1.79934, 0.711183, -2.11985, -1.66387, 0.340523, -0.33357, -4.50959, -2.64779, 0.477141,
      -0.827249, 0.353647, 7.35924, 2.39578, 1.50558,
    ])
}
