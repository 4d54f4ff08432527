/// Fits a profile's thresholds and sampler weights to labelled images.
///
/// The blur, the number of points and columns, the orientation, the lamp order and whether
/// there is a warm split or a faint lamp (and its colour) stay as in the starting profile;
/// each image is decoded and blurred once. The search is coordinate descent over a grid of
/// values for every other parameter (hue bounds, per-colour saturation floors, value floor,
/// position weight, relative brightness, brightness fallback, the warm split's hue and
/// saturation floor, the faint lamp's saturation floor and number of points), from the
/// starting profile and from a few deterministic random starts, keeping the best. The
/// windows follow the thresholds: a warm split's runs from red's lower bound to yellow's
/// upper one, a faint lamp's is its colour's hue range, both above the value floor, and a
/// faint lamp's red veto (when the start has one) is red's hue range. The score is the mean
/// over the labelled sets of
/// `(correct - redCalledGreenPenalty * red lights read green) / labelled images`, so a
/// small set counts as much as a large one and a red light read green costs as much as
/// `redCalledGreenPenalty` other mistakes.
public struct Calibrator: Sendable {
  /// One labelled set, decoded and blurred.
  public struct PreparedSet: Sendable {
    public let name: String
    let frames: [(blurred: RGBImage, truth: SignalColor)]
    /// Images that could not be decoded: left out of the fit.
    public let unreadable: [DecodeError]

    public var count: Int { frames.count }
  }

  public let start: Profile
  public var redCalledGreenPenalty = 20.0
  public var restarts = 6
  public var rounds = 4

  public init(start: Profile) {
    self.start = start
  }

  /// Decodes and blurs `images` with the starting profile's blur.
  public func prepare(_ images: [LabelledImage], name: String, jobs: Int = 1) -> PreparedSet {
    let pipeline = FramePipeline(profile: start)
    let results = OrderedParallelMap.map(count: images.count, jobs: jobs) {
      i -> Result<RGBImage, DecodeError> in
      Result { () throws(DecodeError) in
        pipeline.blur.apply(to: try pipeline.decoder.decode(fileAt: images[i].path))
      }
    }
    var frames: [(RGBImage, SignalColor)] = []
    var unreadable: [DecodeError] = []
    for (image, result) in zip(images, results) {
      switch result {
      case .success(let blurred): frames.append((blurred, image.truth))
      case .failure(let error): unreadable.append(error)
      }
    }
    return PreparedSet(name: name, frames: frames, unreadable: unreadable)
  }

  /// The confusion of `profile` (with the starting profile's structure) on `set`, or on the
  /// frames of `set` whose index `selected` accepts.
  public func confusion(
    _ profile: Profile, on set: PreparedSet, selected: (Int) -> Bool = { _ in true }
  ) -> Confusion {
    let classifier = HSVClassifier(thresholds: profile.thresholds)
    let sampler = profile.sampler
    var confusion = Confusion()
    for (index, frame) in set.frames.enumerated() where selected(index) {
      let decision = sampler.sample(blurred: frame.blurred, classifier: classifier)
      confusion.add(truth: frame.truth, read: decision.color)
    }
    return confusion
  }

  /// The score the search maximises (see the type's summary).
  public func score(_ confusions: [Confusion]) -> Double {
    let used = confusions.filter { $0.labelled > 0 }
    guard !used.isEmpty else { return 0 }
    return used.reduce(0) { total, c in
      total + (Double(c.correct) - redCalledGreenPenalty * Double(c.redCalledGreen)) / Double(c.labelled)
    } / Double(used.count)
  }

  /// The best profile found for `sets` (restricted to the frames `selected` accepts, by set
  /// index and frame index), named `name`.
  public func fit(
    _ sets: [PreparedSet], name: String, selected: @escaping (Int, Int) -> Bool = { _, _ in true }
  ) -> Profile {
    func searched(_ axis: Int) -> Bool {
      if Parameters.warmSplitAxes.contains(axis) { return start.sampler.warmSplit != nil }
      if Parameters.faintLampAxes.contains(axis) { return start.sampler.faintLamp != nil }
      return true
    }
    func evaluate(_ parameters: Parameters) -> Double {
      let profile = parameters.profile(from: start, name: name)
      return score(sets.enumerated().map { s, set in confusion(profile, on: set) { selected(s, $0) } })
    }
    var generator = SeededGenerator(seed: 0x7261_6666_6963)
    var starts = [Parameters(start)]
    for _ in 0..<restarts { starts.append(Parameters.random(using: &generator)) }
    var best = starts[0]
    var bestScore = -Double.infinity
    for initial in starts {
      var current = initial
      var currentScore = evaluate(current)
      for _ in 0..<rounds {
        var improved = false
        for axis in Parameters.axes.indices where searched(axis) {
          for value in Parameters.axes[axis].values {
            var candidate = current
            candidate[axis] = value
            guard candidate != current else { continue }
            let candidateScore = evaluate(candidate)
            if candidateScore > currentScore {
              current = candidate
              currentScore = candidateScore
              improved = true
            }
          }
        }
        if !improved { break }
      }
      if currentScore > bestScore {
        best = current
        bestScore = currentScore
      }
    }
    return best.profile(from: start, name: name)
  }

  /// K-fold cross-validation: for each fold, fit on the other folds and read the held-out
  /// one, with up to `jobs` folds fitted at once. Partition 0 puts frame i of a set in fold
  /// `i % folds`; partition r > 0 does the same after a fixed shuffle of each set's frames
  /// (seeded by r), so repeating with other partitions shows how much the estimate owes to
  /// one split. Returns the held-out confusion per set.
  public func crossValidate(
    _ sets: [PreparedSet], folds: Int, partition: Int = 0, jobs: Int = 1
  ) -> [Confusion] {
    let foldOf = sets.map { Self.folds(count: $0.count, folds: folds, partition: partition) }
    let perFold = OrderedParallelMap.map(count: folds, jobs: jobs) { fold in
      let profile = fit(sets, name: "fold") { s, frame in foldOf[s][frame] != fold }
      return sets.enumerated().map { s, set in confusion(profile, on: set) { foldOf[s][$0] == fold } }
    }
    var held = [Confusion](repeating: Confusion(), count: sets.count)
    for confusions in perFold {
      for (s, confusion) in confusions.enumerated() { held[s].merge(confusion) }
    }
    return held
  }

  /// The fold of each of `count` frames in partition `partition` (see `crossValidate`).
  static func folds(count: Int, folds: Int, partition: Int) -> [Int] {
    var order = Array(0..<count)
    if partition > 0 {
      var generator = SeededGenerator(seed: 0x666f_6c64 &+ UInt64(partition))
      order.shuffle(using: &generator)
    }
    var foldOf = [Int](repeating: 0, count: count)
    for (position, frame) in order.enumerated() { foldOf[frame] = position % folds }
    return foldOf
  }
}

/// The searched parameters, as a point on the grid.
struct Parameters: Equatable {
  var values: [Double]

  struct Axis {
    let name: String
    let values: [Double]
  }

  static let axes: [Axis] = [
    Axis(name: "redLower", values: stride(from: 300.0, through: 350, by: 5).map { $0 }),
    Axis(name: "redUpper", values: stride(from: 5.0, through: 35, by: 5).map { $0 }),
    Axis(name: "yellowUpper", values: stride(from: 50.0, through: 100, by: 5).map { $0 }),
    Axis(name: "greenLower", values: stride(from: 70.0, through: 150, by: 10).map { $0 }),
    Axis(name: "greenUpper", values: stride(from: 180.0, through: 230, by: 5).map { $0 }),
    Axis(name: "redSaturation", values: [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8]),
    Axis(name: "yellowSaturation", values: [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8]),
    Axis(name: "greenSaturation", values: [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8]),
    Axis(name: "valueFloor", values: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]),
    Axis(name: "positionWeight", values: [1, 1.5, 2, 3, 5, 8]),
    Axis(name: "relativeBrightness", values: [0, 0.3, 0.5, 0.6, 0.7, 0.8]),
    // -1 is "no fallback".
    Axis(name: "fallbackMargin", values: [-1, 0, 0.01, 0.02, 0.05, 0.1]),
    Axis(name: "fallbackFloor", values: [0.3, 0.5, 0.7]),
    Axis(name: "warmSplitHue", values: [0, 4, 8, 10, 12, 16, 20, 25, 30]),
    Axis(name: "warmSplitSaturation", values: [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4]),
    Axis(name: "faintLampSaturation", values: [0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.12]),
    // Not 1: red and yellow lights that reach the faint lamp carry up to one faint green
    // point in green's place (a fit that took 1 read a held-out red car-park frame green).
    Axis(name: "faintLampPoints", values: [2, 3, 4, 5, 6]),
  ]

  /// The axes that only mean something when the profile has a warm split, or a faint lamp.
  static let warmSplitAxes: Set<Int> = [13, 14]
  static let faintLampAxes: Set<Int> = [15, 16]

  subscript(axis: Int) -> Double {
    get { values[axis] }
    set { values[axis] = newValue }
  }

  /// The parameters of `profile`, as they are (off-grid values are kept).
  init(_ profile: Profile) {
    let t = profile.thresholds
    values = [
      t.red.lower, t.red.upper, t.yellow.upper, t.green.lower, t.green.upper,
      t.red.saturationFloor ?? t.saturationFloor, t.yellow.saturationFloor ?? t.saturationFloor,
      t.green.saturationFloor ?? t.saturationFloor, t.valueFloor, profile.sampler.positionWeight,
      profile.sampler.relativeBrightness, profile.sampler.brightnessFallback?.margin ?? -1,
      profile.sampler.brightnessFallback?.floor ?? 0.5, profile.sampler.warmSplit?.hue ?? 10,
      profile.sampler.warmSplit?.saturationFloor ?? 0.15, profile.sampler.faintLamp?.saturationFloor ?? 0.06,
      Double(profile.sampler.faintLamp?.points ?? 3),
    ]
  }

  private init(values: [Double]) { self.values = values }

  static func random(using generator: inout SeededGenerator) -> Parameters {
    Parameters(values: axes.map { $0.values[Int(generator.next() % UInt64($0.values.count))] })
  }

  /// `start` with these parameters; yellow's lower bound is red's upper one, and the windows
  /// of a warm split and a faint lamp follow the thresholds.
  func profile(from start: Profile, name: String) -> Profile {
    var profile = start
    profile.name = name
    let floors = [values[5], values[6], values[7]]
    profile.thresholds = HSVThresholds(
      saturationFloor: floors.min()!, valueFloor: values[8],
      green: HueRange(values[3], values[4], saturationFloor: values[7]),
      yellow: HueRange(values[1], values[2], saturationFloor: values[6]),
      red: HueRange(values[0], values[1], saturationFloor: values[5]))
    profile.sampler.positionWeight = values[9]
    profile.sampler.relativeBrightness = values[10]
    profile.sampler.brightnessFallback =
      values[11] >= 0 ? BrightnessFallback(margin: values[11], floor: values[12]) : nil
    if start.sampler.warmSplit != nil {
      profile.sampler.warmSplit = WarmSplit(
        hue: values[13], lower: values[0], upper: values[2], saturationFloor: values[14],
        valueFloor: values[8])
    }
    if let faint = start.sampler.faintLamp {
      let range =
        switch faint.color {
        case .red: profile.thresholds.red
        case .yellow: profile.thresholds.yellow
        case .green, .unknown: profile.thresholds.green
        }
      profile.sampler.faintLamp = FaintLamp(
        color: faint.color, lower: range.lower, upper: range.upper, saturationFloor: values[15],
        valueFloor: values[8], points: Int(values[16]),
        redVeto: faint.redVeto.map { HueRange(values[0], values[1], saturationFloor: $0.saturationFloor) })
    }
    return profile
  }
}
