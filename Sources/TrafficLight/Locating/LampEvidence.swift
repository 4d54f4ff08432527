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
    bias: 3.00867,
    weights: [
      -1.44764, 1.32001, -0.0278982, 0.21664, 3.15512, -1.19238, -1.35367, 1.17677, -2.13556, 0.343103,
      -2.34617, 0.0354331, -1.17736, 0.118114, 0.495675, -3.11147, -0.423022, -1.58393, -1.7107, -1.44764,
      0.0, 0.0, 0.179291, -0.293228, -0.63236, 1.56496, -0.52142, -1.60071, 0.832104, -2.00988, -0.768275,
      -1.20506, 1.6371, 0.137799, 2.29396, -1.16246, 2.3749, 0.735778, 1.32001, 0.0, -0.0111627, 1.68897,
      -1.51867, -0.750398, 0.939518, -0.875734, -0.322403, -0.273142, 1.752, -1.4993, -1.28171, -0.151347,
      -4.55749, 1.03992, -3.44688, 1.16162, -0.0278982, -0.132996, -1.1647, -1.33066, -0.85306, 0.0221902,
      0.845151, 0.136754, -1.7564, -1.58509, 1.91925, -0.13845, 0.702496, 0.324623, 0.292115, -0.237444,
      -3.20996, 0.0793779, 0.0190477, -0.6463, 0.331045, -0.692418, -0.534377, -0.305559, 0.102584,
      -0.162349, 0.479503, 0.620596, -0.343191, 0.13591, 0.0974008, 0.795303, -0.242683, 3.08099, 0.382406,
      -1.3232, -0.0243316, -1.20515, 1.04224, -0.102697, 1.29707, -1.36226, -0.113037, 0.289511, 0.566507,
      0.419494, -2.05942, -0.51778, -5.77588, 2.00054, 0.344671, 2.13825, -1.08525, 1.79008, 0.34208,
      2.23092, -4.14326, 0.170411, -0.668314, -1.8742, 1.41661, -3.42058, -2.66209, -1.1712, -0.75782,
      4.95859, -4.02543, 0.7278, -1.40921, -0.199469, -2.36955, 0.585619, 1.94677, 6.48674, 1.30466,
      -4.44213, -3.28161, -3.99503, 0.637427, -9.10641, -0.434737, -2.49894, -0.930143, 3.54545, 2.11684,
      7.64174, 10.398, 0.02757, 0.462447, 3.89671, 5.42169, 0.4538, 1.69605, 0.92774, -2.80401, 0.212606,
      -3.03176, -2.74887, -1.82878, 1.38519, 6.21443, -2.61543, -1.15042, -3.01638, -2.48988, 2.19959,
      0.0957011, -3.27028, 0.094299, -2.32116, 0.541852, 2.6952, 2.76292, 0.454208, 0.801378, -1.61727,
      0.544222, -2.76177, -2.42908, 2.15026, -0.786804, -4.06776, -1.62991, 3.17505, 1.80457, 1.61722,
      0.695398, 1.20424, 0.641897, 0.285727, 1.45964, -1.64527, -1.83176, -2.72293, 1.95093, -1.05289,
      3.82283, 0.357438, -0.735853, 1.94934, 0.735837, -1.66934, -0.201558, 0.653071, 0.485541, -2.66029,
      -3.59646, 0.911505, -1.39632, -1.34816, 5.04972, 0.272258, 2.79594,
    ])
}
