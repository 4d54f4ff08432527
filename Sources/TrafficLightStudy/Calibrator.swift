import TrafficLight
import TrafficLightKernels

/// Fits a profile's searched values to labelled images.
///
/// The searched values are the profile's axes in `SearchSpace`: the thresholds' hue bounds,
/// per-colour saturation floors and value floor, then the decider's (for a cascade, the
/// vote's weights and each of its rules' own). Everything else stays as in the starting
/// profile: the blur, the grid, the locator, which rules there are (a rule may be switched
/// off by its axis, never added); each image is decoded and its light measured once by the
/// starting profile's pipeline (`FramePipeline.measure`: located, its grid's points blurred),
/// and each profile tried decides those measurements as its pipeline does
/// (`FramePipeline.decide`), so that the search and its cross-validation read each image as
/// `classify` reads it. Values tied to the
/// thresholds (a rule's hue window) follow them (`SearchSpace.tied(_:)`). The search is coordinate
/// descent over each axis's grid, from the starting profile and from a few deterministic
/// random starts, keeping the best. The score is the mean over the labelled sets of
/// `(images read as their label - redCalledGreenPenalty * red lights read green) / images`,
/// every label counted, `unknown` included (a dark light or a crop with no light must read
/// `unknown`), so a small set counts as much as a large one and a red light read green costs
/// as much as `redCalledGreenPenalty` other mistakes.
///
/// A profile whose decider is a light network (`LightNetworkDecider`) is fitted otherwise:
/// each image's light is measured once (the network's features of its thumbnail) and the
/// readout alone is refitted to those measurements (`readoutFit`), the part a user adapts to
/// a camera; the convolutions, trained by `scripts/train_light_network.py`, are kept.
public struct Calibrator: Sendable {
  /// One labelled set, decoded, located and blurred.
  public struct PreparedSet: Sendable {
    /// The set's name (its folder).
    public let name: String
    let frames: [Frame]
    /// Images that could not be decoded: left out of the fit.
    public let unreadable: [DecodeError]

    /// How many images were prepared.
    public var count: Int { frames.count }
  }

  /// One image as the search reads it: its light measured by the starting profile's
  /// pipeline (nil when its locator found none: the reading is `unknown`), the busyness of
  /// its region measured where no lamp placed it, and its label.
  struct Frame: Sendable {
    let measured: LightMeasurement?
    let truth: SignalColor
  }

  /// The profile the search starts from.
  public let start: Profile
  /// How many other mistakes a red light read green costs in the score.
  public var redCalledGreenPenalty = 20.0
  /// How a light network's readout is fitted, for a profile whose decider is one.
  public var readoutFit = ReadoutFit()
  /// How many more starts the search makes, each from values drawn at random (seeded) from
  /// the axes' grids, beside the one from `start`.
  public var restarts = 6
  /// At most how many passes over the axes each start makes (it stops when a pass improves nothing).
  public var rounds = 4

  /// A calibrator starting from `start`.
  public init(start: Profile) {
    self.start = start
  }

  /// Decodes `images` and measures each one's light with the starting profile's pipeline
  /// (`FramePipeline.measure`: located by its locator, its points blurred with its blur, or
  /// a light network's features), once: the search decides the measurements again under
  /// each profile it tries.
  public func prepare(
    _ images: [LabelledImage], name: String, decoder: ImageDecoder = ImageDecoder(), jobs: Int = 1
  ) -> PreparedSet {
    let pipeline = FramePipeline(profile: start)
    let (frames, unreadable) = images.measured(decoder: decoder, jobs: jobs) { pixels, image in
      Frame(
        measured: pipeline.measure(pixels, region: image.region, measuringBusyness: true), truth: image.truth)
    }
    return PreparedSet(name: name, frames: frames, unreadable: unreadable)
  }

  /// The confusion of `profile` (with the starting profile's structure) on `set`, or on the
  /// frames of `set` whose index `selected` accepts: each measurement decided as `profile`'s
  /// pipeline decides it (`FramePipeline.decide`).
  public func confusion(
    _ profile: Profile, on set: PreparedSet, selected: (Int) -> Bool = { _ in true }
  ) -> Confusion {
    let pipeline = FramePipeline(profile: profile)
    var confusion = Confusion()
    for (index, frame) in set.frames.enumerated() where selected(index) {
      confusion.add(truth: frame.truth, read: frame.measured.map { pipeline.decide($0).color } ?? .unknown)
    }
    return confusion
  }

  /// The score the search maximises (see the type's summary).
  public func score(_ confusions: [Confusion]) -> Double {
    let used = confusions.filter { $0.total > 0 }
    guard !used.isEmpty else { return 0 }
    return used.reduce(0) { total, c in
      let agreed = Double(c.correct + c.count(truth: .unknown, read: .unknown))
      return total + (agreed - redCalledGreenPenalty * Double(c.redCalledGreen)) / Double(c.total)
    } / Double(used.count)
  }

  /// The best profile found for `sets` (restricted to the frames `selected` accepts, by set
  /// index and frame index), named `name`. The evidence the weak rules ask of a lamp (the
  /// brightness fallback's `lead`, `disc` and `tint`, the faint lamp's `lead` and `shade`,
  /// the profile's `maximumBusyness`) are bounds set after the fit, and the profile's
  /// `networkFallback` (the network's second reading) is added after it: the search reads without
  /// them, and the profile returned has the start's (searched with the fallback's bound in
  /// place, the fit moves to values that read worse held out: CALIBRATION.md; the network
  /// read again for every value tried would cost more than the rest of the search).
  public func fit(
    _ sets: [PreparedSet], name: String, selected: @escaping (Int, Int) -> Bool = { _, _ in true }
  ) -> Profile {
    if let reader = start.decider as? LightNetworkDecider {
      return fitReadout(of: reader, to: sets, name: name, selected: selected)
    }
    let searched = start.withEvidenceBounds(of: nil)
    let axes = SearchSpace.axes(of: searched)
    func profile(_ values: [Double]) -> Profile {
      var profile = SearchSpace.profile(searched, values: values, axes: axes)
      profile.name = name
      return profile
    }
    func evaluate(_ values: [Double]) -> Double {
      let candidate = profile(values)
      return score(sets.enumerated().map { s, set in confusion(candidate, on: set) { selected(s, $0) } })
    }
    var generator = SeededGenerator(seed: 0x7261_6666_6963)
    var starts = [axes.map { $0.get(searched) }]
    for _ in 0..<restarts {
      starts.append(axes.map { $0.values[Int(generator.next() % UInt64($0.values.count))] })
    }
    var best = starts[0]
    var bestScore = -Double.infinity
    for initial in starts {
      var current = initial
      var currentScore = evaluate(current)
      for _ in 0..<rounds {
        var improved = false
        for axis in axes.indices {
          for value in axes[axis].values {
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
    return profile(best).withEvidenceBounds(of: start)
  }

  /// The starting profile with its network's readout refitted (`readoutFit`) to the
  /// features of the frames `selected` accepts, pooled over the sets; the convolutions are
  /// kept.
  func fitReadout(
    of reader: LightNetworkDecider, to sets: [PreparedSet], name: String, selected: (Int, Int) -> Bool
  ) -> Profile {
    var features: [[Float]] = []
    var labels: [Int] = []
    let classes = reader.network.classes
    for (s, set) in sets.enumerated() {
      for (index, frame) in set.frames.enumerated() where selected(s, index) {
        guard let measured = frame.measured?.features, let label = classes.firstIndex(of: frame.truth) else {
          continue
        }
        features.append(measured)
        labels.append(label)
      }
    }
    var fitted = reader
    fitted.network.readout = readoutFit.fit(
      features: features, labels: labels, classes: classes, from: reader.network.readout)
    var profile = start
    profile.name = name
    profile.decider = fitted
    return profile
  }

  /// How cross-validation splits the labelled frames into folds.
  public enum Split: Sendable, Equatable {
    /// `folds` contiguous blocks of each set, in its order: neighbouring frames of a
    /// sequence (near-copies) stay on one side.
    case blocks(folds: Int)
    /// Frame i of each set in fold `i % folds` (partition 0), or the same after a fixed
    /// shuffle of each set's frames seeded by the partition: for sets of independent images,
    /// repeated to show how much the estimate owes to one split.
    case interleaved(folds: Int, partition: Int)
    /// One fold per set: each set is read by a profile fitted on the others alone.
    case leaveOneSetOut

    /// The number of folds for `sets` sets.
    func count(sets: Int) -> Int {
      switch self {
      case .blocks(let folds), .interleaved(let folds, _): folds
      case .leaveOneSetOut: sets
      }
    }

    /// The fold of each of `count` frames of set `set`.
    func folds(count: Int, set: Int) -> [Int] {
      switch self {
      case .blocks(let folds): return (0..<count).map { $0 * folds / count }
      case .leaveOneSetOut: return [Int](repeating: set, count: count)
      case .interleaved(let folds, let partition):
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
  }

  /// Cross-validation: for each fold of `split`, fit on the other folds and read the
  /// held-out one, with up to `jobs` folds fitted at once. Returns the held-out confusion
  /// per set.
  public func crossValidate(_ sets: [PreparedSet], split: Split, jobs: Int = 1) -> [Confusion] {
    let foldOf = sets.enumerated().map { s, set in split.folds(count: set.count, set: s) }
    let perFold = OrderedParallelMap.map(count: split.count(sets: sets.count), jobs: jobs) { fold in
      let profile = fit(sets, name: "fold") { s, frame in foldOf[s][frame] != fold }
      return sets.enumerated().map { s, set in confusion(profile, on: set) { foldOf[s][$0] == fold } }
    }
    var held = [Confusion](repeating: Confusion(), count: sets.count)
    for confusions in perFold {
      for (s, confusion) in confusions.enumerated() { held[s].merge(confusion) }
    }
    return held
  }
}

extension Profile {
  /// This profile with the evidence its weak rules ask of a lamp (the brightness fallback's
  /// `lead`, `disc` and `tint`, the faint lamp's `lead` and `shade`) taken from `other`'s
  /// rules in the same places, and its `maximumBusyness` and `networkFallback` from `other`'s; all
  /// cleared when `other` is nil.
  func withEvidenceBounds(of other: Profile?) -> Profile {
    var bounded = self
    bounded.maximumBusyness = other?.maximumBusyness
    bounded.networkFallback = other?.networkFallback
    guard var cascade = decider as? CascadeDecider else { return bounded }
    let others = (other?.decider as? CascadeDecider)?.rules
    cascade.rules = cascade.rules.enumerated().map { index, rule in
      let source = others.flatMap { $0.indices.contains(index) ? $0[index] : nil }
      if var fallback = rule as? BrightnessFallback {
        let bound = source as? BrightnessFallback
        (fallback.lead, fallback.disc, fallback.tint) = (bound?.lead, bound?.disc, bound?.tint)
        return fallback
      }
      if var faint = rule as? FaintLamp {
        let bound = source as? FaintLamp
        (faint.lead, faint.shade) = (bound?.lead, bound?.shade)
        return faint
      }
      return rule
    }
    bounded.decider = cascade
    return bounded
  }
}
