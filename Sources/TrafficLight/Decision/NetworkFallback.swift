import TrafficLightKernels

/// A second reading of a light where a profile that reads points names no colour, or names
/// one less than `readsBelow` sure: a built-in profile that reads pixels (`fitted`, the light
/// network) reads the region read (a crop, a box). Where the first reading names no colour,
/// the network's red or yellow at least `readsBelow` sure stands on its own; any colour of
/// the network's stands where the region shows pixels of that colour, as the first profile's
/// thresholds class them, unblurred: at least `leastShare` of its pixels. The network's
/// green does not stand against the first reading's red evidence: where that reading names
/// red the answer is `unknown` (a light the two see as red and green is not one to trust),
/// and where red evidence made it `unknown` it stays so.
///
/// The network reads a light by its shape and the lit lamp's place as well as its colour;
/// on a camera it was not trained on, that reads some red lights green (a right-hand red
/// lamp, a pink one). The cascade's own hue ranges keep its green to lights that show green,
/// and keep it from overturning a colour the cascade named on a light that does not show its
/// own. Red or yellow in place of no colour risks no red read as green, and asks nothing of
/// the pixels where the network is as sure as a first reading must be not to be read again:
/// a distant or dulled lamp shows none of the thresholds' colour, and the network still
/// reads it by its shape and place (CALIBRATION.md, "`default`'s network fallback").
///
/// JSON (a profile's `networkFallback`): `{"profile": "fitted", "leastShare": 0.002,
/// "readsBelow": 0.7}`; `readsBelow` left out is 0 (the network reads only where the first
/// reading names no colour).
public struct NetworkFallback: Sendable, Equatable, Codable {
  /// The built-in profile that reads the region: `fitted`, the one whose decider reads pixels.
  public var profile: String
  /// The least share of the region's pixels, 0 to 1, of the colour the fallback names.
  public var leastShare: Double
  /// The network reads where the first reading names a colour less sure than this, 0 to 1
  /// (`LightDecision.confidence`), as well as where it names none.
  public var readsBelow: Double

  /// A fallback to the built-in profile named `profile`, held to `leastShare`, reading where
  /// the first reading is less than `readsBelow` sure.
  public init(profile: String = "fitted", leastShare: Double, readsBelow: Double = 0) {
    self.profile = profile
    self.leastShare = leastShare
    self.readsBelow = readsBelow
  }

  private enum CodingKeys: String, CodingKey { case profile, leastShare, readsBelow }

  /// Decodes the JSON form; `readsBelow` left out is 0.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    profile = try container.decode(String.self, forKey: .profile)
    leastShare = try container.decode(Double.self, forKey: .leastShare)
    readsBelow = try container.decodeIfPresent(Double.self, forKey: .readsBelow) ?? 0
  }

  /// The built-in profile named, when it reads pixels (`fitted`); nil otherwise. (Looked up
  /// by name, not in `Profile.builtIn`: `default` has a fallback, and is being made when
  /// it is checked.)
  public var reader: Profile? {
    guard profile == Profile.fitted.name, Profile.fitted.decider.readsPixels else { return nil }
    return .fitted
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    guard reader != nil else {
      return "networkFallback profile must be a built-in profile that reads pixels (fitted), not '\(profile)'"
    }
    guard leastShare >= 0 && leastShare <= 1 else {
      return "networkFallback leastShare must be between 0 and 1, not \(leastShare)"
    }
    guard readsBelow >= 0 && readsBelow <= 1 else {
      return "networkFallback readsBelow must be between 0 and 1, not \(readsBelow)"
    }
    return nil
  }

  /// `decision` where it names a colour at least `readsBelow` sure; else `reader`'s
  /// decision of `region` (the pixels read, whole) where it names another colour that
  /// stands: red or yellow at least `readsBelow` sure where `decision` is `unknown`, or a
  /// colour of which at least `leastShare` of the region's pixels are as `classifier`
  /// classes them; else `decision`. Green never stands against red evidence
  /// (`RedEvidence`): where red evidence made `decision` `unknown` it stays so, and where
  /// `decision` is red the answer is `unknown` (`RedEvidence.anotherReading`, `decision`'s
  /// points kept).
  ///
  /// The region is classified first, and `reader` reads it only where some colour could
  /// stand: a region that names a colour and shows no other costs no network reading.
  func decide(
    after decision: LightDecision, region: RGBImage, reader: Profile, classifier: HSVClassifier
  ) -> LightDecision {
    guard decision.color == .unknown || decision.confidence < readsBelow, region.width > 0, region.height > 0
    else { return decision }
    // The colours that could stand in place of `decision`'s: others the region shows enough
    // of, and, in place of no colour, red and yellow if the network is sure; never green
    // where red evidence made `decision` `unknown`.
    var pixels = [0, 0, 0, 0]
    for pixelClass in classifier.classify(region).classes { pixels[Int(pixelClass.rawValue)] += 1 }
    let least = leastShare * Double(region.width * region.height)
    let redEvidence = RedEvidence(behind: decision) != nil
    let others = [SignalColor.red, .yellow, .green].filter { color in
      color != decision.color && !(redEvidence && RedEvidence.vetoes(color))
    }
    let shown = others.filter { color in
      let count = pixels[Int(PixelClass(color).rawValue)]
      return count > 0 && Double(count) >= least
    }
    // In place of no colour: red and yellow, which stand on the network's word, no pixels asked.
    let onItsWord = decision.color == .unknown ? others.filter { !RedEvidence.vetoes($0) } : []
    guard !shown.isEmpty || !onItsWord.isEmpty else { return decision }
    let whole = PixelRegion(x: 0, y: 0, width: region.width, height: region.height)
    let second = reader.decide(pixelsOf: whole, in: region)
    guard
      shown.contains(second.color) || (onItsWord.contains(second.color) && second.confidence >= readsBelow)
    else { return decision }
    guard decision.color == .red, RedEvidence.vetoes(second.color) else { return second }
    // The first reading's red is evidence against the second's green.
    return RedEvidence.anotherReading.veto(
      LightDecision(
        samples: decision.samples, counts: decision.counts, color: second.color, decidedBy: second.decidedBy,
        confidence: second.confidence))
  }
}
