import Foundation

/// A patch that may be the lit lamp of a light: the light it would be, and what was measured
/// of it.
public struct LampCandidate: Sendable, Equatable {
  /// The light, its confidence the evidence model's.
  public var light: FoundLight
  /// What the confidence was computed from.
  public var measurements: LampMeasurements

  /// A candidate with these parts.
  package init(light: FoundLight, measurements: LampMeasurements) {
    self.light = light
    self.measurements = measurements
  }
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

  /// The model fitted to the shared frames (CALIBRATION.md): `scripts/fit_lamp_evidence.py`
  /// wrote its JSON, `Sources/TrafficLight/Profiles/lamp-evidence.json`, compiled into the
  /// library. The colours are one-hot, so its yellow terms are 0 (the fit leaves them out): a
  /// yellow lamp is scored as one neither red nor green.
  public static let fitted: LampEvidence = {
    do {
      let model = try JSONDecoder().decode(LampEvidence.self, from: Data(PackageResources.lamp_evidence_json))
      if let problem = model.problem {
        throw ProfileError.invalid(path: "lamp-evidence.json", reason: problem)
      }
      return model
    } catch {
      preconditionFailure("the built-in lamp evidence model does not load: \(error)")
    }
  }()
}
