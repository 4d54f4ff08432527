import Foundation
import TrafficLightKernels

/// Finds a traffic light by its housing rather than by a coloured lamp: a column of three
/// lamps, one unlike the other two, in a housing that stands apart from what surrounds it.
/// It reads lights the lamp finder cannot: lamps blown out to white (no hue to find) in a
/// housing of any colour, as a camera set for the road shows a yellow temporary light. Its
/// weights are a camera's, fitted from a labelled recording of it (`calibrate` on
/// recordings: which light carries the frame's state is not given).
///
/// The search slides a window over the blurred image at each lamp diameter d (`smallestLamp`
/// times `scaleStep` to the k, for k below `scales`), in steps of `step` d: three squares of
/// side 0.6 d, `pitch` d apart down the window's centre line, are the lamps; strips beside
/// them (from 0.45 d to 0.7 d either side, over the three lamps' height) the housing; strips
/// from 0.95 d to 1.3 d either side what surrounds it. The lit lamp is the brightest of the
/// three (mean of each pixel's largest channel). Of an image's windows, the `kept` most like
/// a light by a fixed prior (the lit lamp standing out, the housing apart from its surround,
/// the unlit lamps alike: `litOverUnlit + housingContrast - unlitDifference`) are read: what
/// is measured of each (`names`) goes through a logistic model, and the window most sure, at
/// least `minimumConfidence`, is the light; its colour is its lit lamp's place (red at the
/// top, then yellow, then green). Vertical heads only.
public struct HousingSearch: Sendable, Codable, Equatable {
  /// The names of the measurements of a window, the model's inputs in order: the lit lamp's
  /// value less the brighter unlit one's, and less the housing's; the unlit lamps' mean less
  /// the housing's; the unlit lamps' difference; the housing's value less the surround's,
  /// and its size either way; the housing's, the surround's, the lit lamp's and the unlit
  /// lamps' chroma (largest less smallest channel); the log of d over the image's longer
  /// side. Values and chromas are means of 0 to 1.
  public static let names = [
    "litOverUnlit", "litOverHousing", "unlitOverHousing", "unlitDifference", "housingOverSurround",
    "housingContrast", "housingChroma", "surroundChroma", "litChroma", "unlitChroma", "logSize",
  ]

  /// The smallest lamp diameter searched, in pixels.
  public var smallestLamp = 6.0
  /// The ratio of one lamp diameter searched to the next.
  public var scaleStep = 1.2
  /// How many lamp diameters are searched.
  public var scales = 13
  /// The window's step, in lamp diameters (at least a pixel).
  public var step = 0.25
  /// The distance between neighbouring lamps' centres, in lamp diameters.
  public var pitch = 1.35
  /// The blur applied before the search, in pixels.
  public var sigma = 1.0
  /// How many of an image's windows the model reads: those most like a light by the prior.
  public var kept = 300
  /// The model's log-odds with every measurement 0.
  public var bias: Double
  /// One weight per name in `names`.
  public var weights: [Double]
  /// The least confidence of a housing found.
  public var minimumConfidence: Double

  /// A search with this model.
  public init(bias: Double, weights: [Double], minimumConfidence: Double) {
    self.bias = bias
    self.weights = weights
    self.minimumConfidence = minimumConfidence
  }

  private enum CodingKeys: String, CodingKey {
    case smallestLamp, scaleStep, scales, step, pitch, sigma, kept, bias, weights, minimumConfidence
  }

  /// Decodes a search; missing geometry keys take the defaults above, the model's are required.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    bias = try container.decode(Double.self, forKey: .bias)
    weights = try container.decode([Double].self, forKey: .weights)
    minimumConfidence = try container.decode(Double.self, forKey: .minimumConfidence)
    smallestLamp = try container.decodeIfPresent(Double.self, forKey: .smallestLamp) ?? smallestLamp
    scaleStep = try container.decodeIfPresent(Double.self, forKey: .scaleStep) ?? scaleStep
    scales = try container.decodeIfPresent(Int.self, forKey: .scales) ?? scales
    step = try container.decodeIfPresent(Double.self, forKey: .step) ?? step
    pitch = try container.decodeIfPresent(Double.self, forKey: .pitch) ?? pitch
    sigma = try container.decodeIfPresent(Double.self, forKey: .sigma) ?? sigma
    kept = try container.decodeIfPresent(Int.self, forKey: .kept) ?? kept
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    if weights.count != Self.names.count {
      return "housings: \(Self.names.count) weights, one per measurement, not \(weights.count)"
    }
    if !(weights + [bias]).allSatisfy({ $0.isFinite && abs($0) <= LampEvidence.largestWeight }) {
      return "housings: weights and bias must be finite, at most \(LampEvidence.largestWeight) either way"
    }
    if !(minimumConfidence > 0 && minimumConfidence < 1) {
      return "housings: minimumConfidence must be between 0 and 1, not \(minimumConfidence)"
    }
    if !(smallestLamp >= 2 && smallestLamp <= 1000) {
      return "housings: smallestLamp must be between 2 and 1000, not \(smallestLamp)"
    }
    if !(scaleStep >= 1.05 && scaleStep <= 4) {
      return "housings: scaleStep must be between 1.05 and 4, not \(scaleStep)"
    }
    if !(1...40).contains(scales) { return "housings: scales must be between 1 and 40, not \(scales)" }
    if !(step >= 0.05 && step <= 2) { return "housings: step must be between 0.05 and 2, not \(step)" }
    if !(pitch >= 0.8 && pitch <= 4) { return "housings: pitch must be between 0.8 and 4, not \(pitch)" }
    if !(sigma >= 0 && sigma <= 10) { return "housings: sigma must be between 0 and 10, not \(sigma)" }
    if !(1...100_000).contains(kept) { return "housings: kept must be between 1 and 100000, not \(kept)" }
    return nil
  }

  /// The model's log-odds for `measurements` (in the order of `names`).
  public func score(_ measurements: [Double]) -> Double {
    zip(weights, measurements).reduce(bias) { $0 + $1.0 * $1.1 }
  }

  /// The housing most sure in `image`, as a light, if one is at least `minimumConfidence` sure.
  ///
  /// Complexity: O(pixels * scales).
  public func find(in image: RGBImage) -> FoundLight? {
    var best: (score: Double, window: HousingWindow)?
    for window in windows(in: image) {
      let score = score(window.measurements)
      if score > best?.score ?? -.infinity { best = (score, window) }
    }
    guard let best else { return nil }
    let confidence = 1 / (1 + exp(-best.score))
    guard confidence >= minimumConfidence else { return nil }
    return best.window.light(confidence: confidence, inWidth: image.width, height: image.height)
  }

  /// The `kept` windows of `image` most like a light by the prior, most like first (of equal
  /// priors, the first scanned first).
  package func windows(in image: RGBImage) -> [HousingWindow] {
    // The best `kept` so far, and the least prior among them once there are that many.
    var best: [(prior: Double, order: Int, window: HousingWindow)] = []
    best.reserveCapacity(kept)
    var least = (prior: -Double.infinity, at: 0)
    var order = 0
    scan(image) { prior, window in
      defer { order += 1 }
      if best.count < kept {
        best.append((prior, order, window()))
        if best.count == kept { least = Self.least(of: best) }
      } else if prior > least.prior {
        best[least.at] = (prior, order, window())
        least = Self.least(of: best)
      }
    }
    return best.sorted { $0.prior != $1.prior ? $0.prior > $1.prior : $0.order < $1.order }.map(\.window)
  }

  /// The least prior of `kept` and where it is (the latest scanned of equal ones).
  private static func least(of kept: [(prior: Double, order: Int, window: HousingWindow)]) -> (
    prior: Double, at: Int
  ) {
    var at = 0
    for i in kept.indices
    where kept[i].prior < kept[at].prior
      || (kept[i].prior == kept[at].prior && kept[i].order > kept[at].order)
    {
      at = i
    }
    return (kept[at].prior, at)
  }

  /// Every window of `image` (blurred with `sigma` first), in scan order: its prior, and
  /// the window measured, made only when `visit` asks for it.
  package func scan(_ image: RGBImage, visit: (_ prior: Double, _ window: () -> HousingWindow) -> Void) {
    let blurred = sigma > 0 ? GaussianBlur(sigma: sigma).apply(to: image) : image
    guard let table = SummedTable(blurred) else { return }
    let (width, height) = (image.width, image.height)
    let longer = Double(max(width, height))
    // Every window's boxes start inside the image (at or right of 0, at or below 0), so a
    // coordinate's integer part is its floor.
    func mean(_ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> (value: Double, chroma: Double) {
      let (left, right) = (max(0, Int(x0)), min(width, Int(x1)))
      let (top, bottom) = (max(0, Int(y0)), min(height, Int(y1)))
      guard right > left, bottom > top else { return (0, 0) }
      let sums = table.sums(x0: left, x1: right, y0: top, y1: bottom)
      let count = Double(255 * (right - left) * (bottom - top))
      return (Double(sums.value) / count, Double(sums.chroma) / count)
    }
    var diameter = smallestLamp
    for _ in 0..<scales {
      defer { diameter *= scaleStep }
      let d = diameter
      let p = pitch * d
      let stride = max(1, step * d)
      let logSize = log(d / longer)
      let r = 0.3 * d
      var cy = p + 0.6 * d
      while cy < Double(height) - p - 0.6 * d {
        defer { cy += stride }
        let (y0, y1) = (cy - p - 0.55 * d, cy + p + 0.55 * d)
        var cx = 1.3 * d
        while cx < Double(width) - 1.3 * d {
          defer { cx += stride }
          let top = mean(cx - r, cx + r, cy - p - r, cy - p + r)
          let middle = mean(cx - r, cx + r, cy - r, cy + r)
          let bottom = mean(cx - r, cx + r, cy + p - r, cy + p + r)
          func strips(_ near: Double, _ far: Double) -> (value: Double, chroma: Double) {
            let (a, b) = (
              mean(cx - far * d, cx - near * d, y0, y1), mean(cx + near * d, cx + far * d, y0, y1)
            )
            return ((a.value + b.value) / 2, (a.chroma + b.chroma) / 2)
          }
          let housing = strips(0.45, 0.7)
          let surround = strips(0.95, 1.3)
          // The brightest lamp is lit (the first of equals); the other two are unlit.
          let lit =
            top.value >= middle.value
            ? (top.value >= bottom.value ? 0 : 2) : (middle.value >= bottom.value ? 1 : 2)
          let (litLamp, one, other) =
            switch lit {
            case 0: (top, middle, bottom)
            case 1: (middle, top, bottom)
            default: (bottom, top, middle)
            }
          let (brighter, dimmer) = (max(one.value, other.value), min(one.value, other.value))
          let prior = (litLamp.value - brighter) + abs(housing.value - surround.value) - (brighter - dimmer)
          visit(prior) {
            let measurements = [
              litLamp.value - brighter, litLamp.value - housing.value,
              (one.value + other.value) / 2 - housing.value,
              brighter - dimmer, housing.value - surround.value, abs(housing.value - surround.value),
              housing.chroma, surround.chroma, litLamp.chroma, (one.chroma + other.chroma) / 2, logSize,
            ]
            return HousingWindow(x: cx, y: cy, diameter: d, pitch: p, lit: lit, measurements: measurements)
          }
        }
      }
    }
  }
}

/// One window of the housing search: where it lies, which of its lamps is lit, and what
/// was measured (`HousingSearch.names`).
package struct HousingWindow: Sendable {
  /// The window's centre (the middle lamp's), in pixels.
  package var x: Double, y: Double
  /// The lamp diameter and the lamps' pitch, in pixels.
  package var diameter: Double, pitch: Double
  /// The lit lamp: 0 at the top, 1 in the middle, 2 at the bottom.
  package var lit: Int
  /// The measurements, in the order of `HousingSearch.names`.
  package var measurements: [Double]

  /// The colour its lit lamp's place names.
  package var color: SignalColor { [SignalColor.red, .yellow, .green][lit] }

  /// The light this window is, `confidence` sure, clipped to a `width` x `height` image.
  func light(confidence: Double, inWidth width: Int, height: Int) -> FoundLight {
    let half = 0.7 * diameter
    let box = PixelRegion(
      x: Int((x - half).rounded(.down)), y: Int((y - pitch - half).rounded(.down)),
      width: Int((2 * half).rounded()), height: Int((2 * pitch + 2 * half).rounded()))
    let lampY = y + Double(lit - 1) * pitch
    let lamp = PixelRegion(
      x: Int((x - diameter / 2).rounded(.down)), y: Int((lampY - diameter / 2).rounded(.down)),
      width: Int(diameter.rounded()), height: Int(diameter.rounded()))
    return FoundLight(
      box: box.clipped(toWidth: width, height: height) ?? box,
      lamp: lamp.clipped(toWidth: width, height: height) ?? lamp, color: color, confidence: confidence,
      orientation: .vertical)
  }
}
