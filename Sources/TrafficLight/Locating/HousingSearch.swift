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
///
/// A search for lights of every camera rather than one (`default`'s, fitted to the shared
/// boxed frames) reads every window (`kept` 0), through a model of the measurements and every
/// product of two (`weights` of `quadraticTermCount`), keeps up to `limit` lights of an image
/// (a window whose box overlaps a kept light's is that light again), keeps only the windows a light network reads as their lit lamp's
/// colour (`confirmation`), searches large frames halved (`longestSide`), runs where only
/// vertical heads are looked for (`searchedWith`), and ranks its lights below the lamps'
/// (`ranksBelowLamps`).
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
  /// How many of an image's windows the model reads: those most like a light by the prior;
  /// 0: every window.
  public var kept = 300
  /// The most lights of an image the search returns, most sure first.
  public var limit = 1
  /// The light network that must read a window as its lit lamp's colour for it to be a
  /// light; nil: no second look.
  public var confirmation: HousingConfirmation? = nil
  /// Whether the lamp finder ranks this search's lights below every lamp's light (as sure as
  /// its least, `LampFinder.minimumConfidence`): a search for every camera, whose housings show
  /// no lamp's colour, where a lamp's light is better evidence of the light a frame shows. A
  /// camera's own search (false) keeps its model's confidence.
  public var ranksBelowLamps = false
  /// The longest side an image is searched at: a larger one is searched halved (2x2 means)
  /// until its longer side is at most this, its lights read back at full size; 0: always at
  /// full size. Each halving cuts the windows read four times.
  public var longestSide = 0
  /// When the lamp finder runs the search: `auto`, unless it looks for horizontal heads
  /// only; `vertical`, only when it looks for vertical heads only (where every light is known
  /// to run down, and a frame's search may cost more).
  public var searchedWith = Orientation.auto
  /// The model's log-odds with every measurement 0.
  public var bias: Double
  /// One weight per name in `names` (a linear model), or `quadraticTermCount` weights: one
  /// per name, then one per product of two measurements i <= j, in row order.
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
    case smallestLamp, scaleStep, scales, step, pitch, sigma, kept, limit, confirmation, searchedWith
    case longestSide, ranksBelowLamps, bias, weights, minimumConfidence
  }

  /// How many weights a model of the measurements and every product of two has.
  public static let quadraticTermCount = names.count + names.count * (names.count + 1) / 2

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
    limit = try container.decodeIfPresent(Int.self, forKey: .limit) ?? limit
    confirmation = try container.decodeIfPresent(HousingConfirmation.self, forKey: .confirmation)
    searchedWith = try container.decodeIfPresent(Orientation.self, forKey: .searchedWith) ?? searchedWith
    longestSide = try container.decodeIfPresent(Int.self, forKey: .longestSide) ?? longestSide
    ranksBelowLamps = try container.decodeIfPresent(Bool.self, forKey: .ranksBelowLamps) ?? ranksBelowLamps
  }

  /// Encodes every key the search reads (`confirmation` where there is one).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(smallestLamp, forKey: .smallestLamp)
    try container.encode(scaleStep, forKey: .scaleStep)
    try container.encode(scales, forKey: .scales)
    try container.encode(step, forKey: .step)
    try container.encode(pitch, forKey: .pitch)
    try container.encode(sigma, forKey: .sigma)
    try container.encode(kept, forKey: .kept)
    try container.encode(limit, forKey: .limit)
    try container.encodeIfPresent(confirmation, forKey: .confirmation)
    try container.encode(searchedWith, forKey: .searchedWith)
    try container.encode(longestSide, forKey: .longestSide)
    try container.encode(ranksBelowLamps, forKey: .ranksBelowLamps)
    try container.encode(bias, forKey: .bias)
    try container.encode(weights, forKey: .weights)
    try container.encode(minimumConfidence, forKey: .minimumConfidence)
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    if weights.count != Self.names.count && weights.count != Self.quadraticTermCount {
      return
        "housings: \(Self.names.count) weights, one per measurement, or \(Self.quadraticTermCount) "
        + "with their products, not \(weights.count)"
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
    if !(0...100_000).contains(kept) {
      return "housings: kept must be between 0 (every window) and 100000, not \(kept)"
    }
    if !(1...64).contains(limit) { return "housings: limit must be between 1 and 64, not \(limit)" }
    if longestSide != 0 && !(64...100_000).contains(longestSide) {
      return "housings: longestSide must be 0 (full size) or between 64 and 100000, not \(longestSide)"
    }
    if searchedWith == .horizontal {
      return "housings: searchedWith must be auto or vertical (its heads run down)"
    }
    if let problem = confirmation?.problem { return "housings: confirmation \(problem)" }
    return nil
  }

  /// The model's log-odds for `measurements` (in the order of `names`): with
  /// `quadraticTermCount` weights, the products of two measurements follow them.
  public func score(_ measurements: [Double]) -> Double {
    measurements.withUnsafeBufferPointer { m in weights.withUnsafeBufferPointer { score(m, weights: $0) } }
  }

  /// `score` of `m`, the model's `weights` given as a buffer: each row's products summed
  /// before its measurement multiplies them (the scan scores every window so, in place).
  private func score(_ m: UnsafeBufferPointer<Double>, weights w: UnsafeBufferPointer<Double>) -> Double {
    let count = Self.names.count
    let quadratic = w.count == Self.quadraticTermCount
    var sum = bias
    var k = count
    for i in 0..<count {
      var row = w[i]
      if quadratic {
        for j in i..<count {
          row += w[k] * m[j]
          k += 1
        }
      }
      sum += row * m[i]
    }
    return sum
  }

  /// The housing most sure in `image`, as a light, if one is at least `minimumConfidence`
  /// sure (and confirmed, with `confirmation`).
  ///
  /// Complexity: O(pixels * scales).
  public func find(in image: RGBImage) -> FoundLight? { lights(in: image).first }

  /// Up to `limit` lights of `image`, most sure first: the windows at least
  /// `minimumConfidence` sure, each read as its lit lamp's colour by `confirmation`'s network
  /// where there is one, a window whose box overlaps a kept light's dropped (two housings
  /// share no pixel: it is that light again, or a window astride it). The network reads at
  /// most four windows a light returned. An image whose longer side is over `longestSide` is
  /// searched halved, and its lights' boxes read back in its own pixels (the network reads
  /// them there).
  ///
  /// Complexity: O(pixels * scales).
  public func lights(in image: RGBImage) -> [FoundLight] {
    var searched = image
    var scale = 1
    while longestSide > 0 && max(searched.width, searched.height) > longestSide {
      searched = searched.halved()
      scale *= 2
    }
    let least = log(minimumConfidence / (1 - minimumConfidence))
    var scored: [(score: Double, window: HousingWindow)] = []
    if kept == 0 {
      weights.withUnsafeBufferPointer { weights in
        scan(searched) { _, window in
          let logOdds = window.withMeasurements { self.score($0, weights: weights) }
          if logOdds >= least { scored.append((logOdds, window.window)) }
        }
      }
    } else {
      scored = windows(in: searched).map { (score($0.measurements), $0) }.filter { $0.score >= least }
    }
    // Most sure first; of equal scores, the earlier (the prior's order, or the scan's).
    let order = scored.indices.sorted {
      scored[$0].score != scored[$1].score ? scored[$0].score > scored[$1].score : $0 < $1
    }
    var found: [FoundLight] = []
    var reads = 0
    for index in order {
      guard found.count < limit, reads < 4 * limit else { break }
      let (score, window) = scored[index]
      let light = window.light(
        confidence: 1 / (1 + exp(-score)), inWidth: searched.width, height: searched.height
      )
      .scaled(by: scale, toWidth: image.width, height: image.height)
      if found.contains(where: { $0.box.overlaps(light.box) }) { continue }
      if let confirmation {
        reads += 1
        guard confirmation.confirms(light.color, of: light.box, in: image) else { continue }
      }
      found.append(light)
    }
    return found
  }

  /// The `kept` windows of `image` most like a light by the prior (every window, with `kept`
  /// 0), most like first (of equal priors, the first scanned first).
  package func windows(in image: RGBImage) -> [HousingWindow] {
    // The best `kept` so far, and the least prior among them once there are that many.
    let kept = self.kept == 0 ? Int.max : self.kept
    var best: [(prior: Double, order: Int, window: HousingWindow)] = []
    best.reserveCapacity(min(kept, 1 << 16))
    var least = (prior: -Double.infinity, at: 0)
    var order = 0
    scan(image) { prior, window in
      defer { order += 1 }
      if best.count < kept {
        best.append((prior, order, window.window))
        if best.count == kept { least = Self.least(of: best) }
      } else if prior > least.prior {
        best[least.at] = (prior, order, window.window)
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
  /// the window measured.
  package func scan(_ image: RGBImage, visit: (_ prior: Double, _ window: MeasuredWindow) -> Void) {
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
          let measured = MeasuredWindow(
            x: cx, y: cy, diameter: d, pitch: p, lit: lit,
            measurements: (
              litLamp.value - brighter, litLamp.value - housing.value,
              (one.value + other.value) / 2 - housing.value,
              brighter - dimmer, housing.value - surround.value, abs(housing.value - surround.value),
              housing.chroma, surround.chroma, litLamp.chroma, (one.chroma + other.chroma) / 2, logSize
            ))
          visit(prior, measured)
        }
      }
    }
  }
}

/// A window as the scan measures it, its measurements in a tuple (the scan allocates nothing
/// per window).
package struct MeasuredWindow {
  /// The window's centre, lamp diameter and pitch, in pixels.
  package var x: Double, y: Double, diameter: Double, pitch: Double
  /// The lit lamp: 0 at the top, 1 in the middle, 2 at the bottom.
  package var lit: Int
  /// The measurements, in the order of `HousingSearch.names`.
  package var measurements:
    (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double)

  /// The result of `body` given the measurements in order.
  package func withMeasurements<Result>(_ body: (UnsafeBufferPointer<Double>) -> Result) -> Result {
    withUnsafeBytes(of: measurements) { bytes in
      body(bytes.bindMemory(to: Double.self))
    }
  }

  /// The window with its measurements in an array.
  package var window: HousingWindow {
    HousingWindow(
      x: x, y: y, diameter: diameter, pitch: pitch, lit: lit, measurements: withMeasurements { Array($0) })
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

/// A light network's second look at a housing window: the window is a light only where the
/// network reads its box as the colour its lit lamp's place names, at least `least` sure.
///
/// JSON: `{"profile": "fitted", "least": 0.97}` (the network of a built-in profile), or
/// `{"network": {...}, "redVeto": 0.2, "least": 0.97}` (a network of its own, in
/// `LightNetworkDecider`'s form: a study's held-out folds carry networks trained without them).
public struct HousingConfirmation: Sendable, Equatable, Codable {
  /// The built-in profile whose network reads the window (`fitted`); nil where the network is
  /// the confirmation's own.
  public var profile: String?
  /// The decider that reads the window; nil where `profile` names no built-in network.
  public var reader: LightNetworkDecider?
  /// The least probability the network gives the window's colour, 0 to 1.
  public var least: Double

  /// A confirmation by the network of the built-in profile named `profile` (`fitted`), at
  /// `least`.
  public init(profile: String = "fitted", least: Double) {
    self.profile = profile
    self.reader = Self.builtIn(profile)
    self.least = least
  }

  /// A confirmation by `reader`, at `least`.
  public init(reader: LightNetworkDecider, least: Double) {
    self.profile = nil
    self.reader = reader
    self.least = least
  }

  private static func builtIn(_ name: String) -> LightNetworkDecider? {
    name == Profile.fitted.name ? Profile.fitted.decider as? LightNetworkDecider : nil
  }

  private enum CodingKeys: String, CodingKey { case profile, network, redVeto, least }

  /// Decodes either form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    least = try container.decode(Double.self, forKey: .least)
    profile = try container.decodeIfPresent(String.self, forKey: .profile)
    if let profile {
      reader = Self.builtIn(profile)
    } else {
      // A veto left out is the decider's own default.
      var decider = LightNetworkDecider(network: try container.decode(LightNetwork.self, forKey: .network))
      decider.redVeto = try container.decodeIfPresent(Double.self, forKey: .redVeto) ?? decider.redVeto
      reader = decider
    }
  }

  /// Encodes the form it was made with.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if let profile {
      try container.encode(profile, forKey: .profile)
    } else if let reader {
      try container.encode(reader.network, forKey: .network)
      try container.encode(reader.redVeto, forKey: .redVeto)
    }
    try container.encode(least, forKey: .least)
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    guard let reader else {
      return "profile must be a built-in profile with a light network (fitted), not '\(profile ?? "")'"
    }
    guard least >= 0 && least <= 1 else { return "least must be between 0 and 1, not \(least)" }
    return reader.problem
  }

  /// Whether the network reads `region` of `image` as `color`, at least `least` sure (a
  /// green it vetoes for red is not green).
  func confirms(_ color: SignalColor, of region: PixelRegion, in image: RGBImage) -> Bool {
    guard let reader, let thumbnail = reader.network.thumbnail(of: image, region: region) else {
      return false
    }
    let decision = reader.decide(probabilities: reader.network.probabilities(of: thumbnail))
    return decision.color == color && decision.confidence >= least
  }
}
