import TrafficLightKernels

/// A second reading of a light where a profile that reads points names no colour: a
/// built-in profile that reads pixels (`fitted`, the light network) reads the region read
/// (a crop, a box), and its colour stands only where the region shows pixels of that
/// colour, as the first profile's thresholds class them, unblurred: at least `leastShare`
/// of its pixels.
///
/// The network reads a light by its shape and the lit lamp's place as well as its colour;
/// on a camera it was not trained on, that reads some red lights green (a right-hand red
/// lamp, a pink one). The cascade's own hue ranges keep it to colours the light shows.
///
/// JSON (a profile's `networkFallback`): `{"profile": "fitted", "leastShare": 0.002}`.
public struct NetworkFallback: Sendable, Equatable, Codable {
  /// The built-in profile that reads the region: `fitted`, the one whose decider reads pixels.
  public var profile: String
  /// The least share of the region's pixels, 0 to 1, of the colour the fallback names.
  public var leastShare: Double

  /// A fallback to the built-in profile named `profile`, held to `leastShare`.
  public init(profile: String = "fitted", leastShare: Double) {
    self.profile = profile
    self.leastShare = leastShare
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
    return nil
  }

  /// `decision` where it names a colour; else `reader`'s decision of `region` (the pixels
  /// read, whole), where at least `leastShare` of its pixels are of the colour it names as
  /// `classifier` classes them; else `decision`.
  func decide(
    after decision: LightDecision, region: RGBImage, reader: Profile, classifier: HSVClassifier
  ) -> LightDecision {
    guard decision.color == .unknown, region.width > 0, region.height > 0 else { return decision }
    let whole = PixelRegion(x: 0, y: 0, width: region.width, height: region.height)
    let second = reader.decide(pixelsOf: whole, in: region)
    guard second.color != .unknown else { return decision }
    let wanted = PixelClass(second.color)
    let shown = classifier.classify(region).classes.lazy.filter { $0 == wanted }.count
    guard shown > 0, Double(shown) >= leastShare * Double(region.width * region.height) else {
      return decision
    }
    return second
  }
}
