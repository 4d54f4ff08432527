import TrafficLight
import TrafficLightKernels

/// One value a fit searches: its name, the grid of values it tries, and how to read and set
/// it on its owner (a profile, a decider, a rule).
public struct TuningAxis<Owner>: Sendable {
  /// The axis's name in the calibrator's reports.
  public let name: String
  /// The values the calibrator tries, in order.
  public let values: [Double]
  /// A value of the grid that switches the owning rule off, if the rule may be switched off:
  /// `SearchSpace.profile(_:values:axes:)` leaves the rule out at it (`setting` sets it as
  /// any other value).
  public let off: Double?
  /// The index, in its cascade, of the rule `off` switches off (set when the axis is lifted
  /// onto the cascade).
  public let rule: Int?
  let get: @Sendable (Owner) -> Double
  let set: @Sendable (inout Owner, Double) -> Void

  /// An axis named `name` over `values` (`off`, if given, switches the rule off), read with
  /// `get` and written with `set`.
  public init(
    _ name: String, _ values: [Double], off: Double? = nil, get: @escaping @Sendable (Owner) -> Double,
    set: @escaping @Sendable (inout Owner, Double) -> Void
  ) {
    self.init(name, values, off: off, rule: nil, get: get, set: set)
  }

  init(
    _ name: String, _ values: [Double], off: Double?, rule: Int?, get: @escaping @Sendable (Owner) -> Double,
    set: @escaping @Sendable (inout Owner, Double) -> Void
  ) {
    self.name = name
    self.values = values
    self.off = off
    self.rule = rule
    self.get = get
    self.set = set
  }

  /// The axis over a `WritableKeyPath` of the owner.
  public init(
    _ name: String, _ values: [Double], off: Double? = nil,
    _ keyPath: WritableKeyPath<Owner, Double> & Sendable
  ) {
    self.init(name, values, off: off, get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })
  }

  /// The value on `owner`.
  public func value(of owner: Owner) -> Double { get(owner) }

  /// `owner` with the value set.
  public func setting(_ value: Double, on owner: Owner) -> Owner {
    var owner = owner
    set(&owner, value)
    return owner
  }

  /// The same axis on an owner that holds this one: `get` finds it, `set` puts it back;
  /// `rule`, the index of the cascade rule that `off` switches off.
  func lifted<Outer>(
    prefix: String? = nil, rule: Int? = nil, get inner: @escaping @Sendable (Outer) -> Owner,
    set put: @escaping @Sendable (inout Outer, Owner) -> Void
  ) -> TuningAxis<Outer> {
    let (get, set) = (self.get, self.set)
    return TuningAxis<Outer>(
      prefix.map { "\($0).\(name)" } ?? name, values, off: off, rule: rule ?? self.rule,
      get: { get(inner($0)) },
      set: { outer, value in
        var owner = inner(outer)
        set(&owner, value)
        put(&outer, owner)
      })
  }
}

/// What a fit searches in a profile, and the values it keeps tied to the thresholds it moves:
/// the study's, not the profile's. A decider or a rule holds values; which of them a fit
/// tries, over which grid, and which follow the thresholds, is said here (as scikit-learn
/// keeps a grid search apart from its estimator).
///
/// The axes of a profile: the thresholds' nine (`thresholds`), then, for a cascade, the
/// vote's two (`vote`), then each rule's own (`SearchedRule.searched`), prefixed by its kind,
/// kind by kind in the order of `CascadeRules.kinds` (so the walk of a fit does not depend on
/// the order the rules run in), rules of one kind in list order. A rule axis's `off` value
/// switches its rule off: the rule is left out of the profile built (`profile(_:values:axes:)`).
/// A light network's decider has no axes here: a fit refits its readout instead (`ReadoutFit`).
public enum SearchSpace {
  /// The cascade's vote weights a fit searches.
  public static let vote: [TuningAxis<CascadeDecider>] = [
    TuningAxis("positionWeight", [1, 1.5, 2, 3, 5, 8], \.positionWeight),
    TuningAxis("relativeBrightness", [0, 0.3, 0.5, 0.6, 0.7, 0.8], \.relativeBrightness),
  ]

  /// The axes a fit searches in `profile`, in the order above.
  public static func axes(of profile: Profile) -> [TuningAxis<Profile>] {
    let thresholdAxes = thresholds.map { axis in
      axis.lifted(
        get: { (profile: Profile) in profile.thresholds },
        set: { (profile: inout Profile, thresholds: HSVThresholds) in profile.thresholds = thresholds })
    }
    guard let cascade = profile.decider as? CascadeDecider else { return thresholdAxes }
    var cascadeAxes = vote
    for kind in CascadeRules.kinds {
      for (index, rule) in cascade.rules.enumerated() where type(of: rule).kind == kind.kind {
        if let searched = rule as? any SearchedRule { cascadeAxes += axes(of: searched, at: index) }
      }
    }
    return thresholdAxes
      + cascadeAxes.map { axis in
        axis.lifted(
          get: { (profile: Profile) in profile.decider as! CascadeDecider },
          set: { (profile: inout Profile, cascade: CascadeDecider) in profile.decider = cascade })
      }
  }

  /// The axes of the rule at `index` of a cascade, as axes of the cascade.
  private static func axes<R: SearchedRule>(of rule: R, at index: Int) -> [TuningAxis<CascadeDecider>] {
    R.searched.map { axis in
      axis.lifted(
        prefix: R.kind, rule: index, get: { (cascade: CascadeDecider) in cascade.rules[index] as! R },
        set: { (cascade: inout CascadeDecider, rule: R) in cascade.rules[index] = rule })
    }
  }

  /// `start` with `values` set on `axes` (the axes of `start`, one value each), its tied
  /// values following its thresholds (`tied(_:)`), and the rules switched off by an axis at
  /// its `off` value left out.
  public static func profile(_ start: Profile, values: [Double], axes: [TuningAxis<Profile>]) -> Profile {
    precondition(values.count == axes.count, "one value per axis")
    var profile = start
    var switchedOff = Set<Int>()
    for (axis, value) in zip(axes, values) {
      if let off = axis.off, value == off, let rule = axis.rule {
        switchedOff.insert(rule)
      } else {
        axis.set(&profile, value)
      }
    }
    profile = tied(profile)
    if !switchedOff.isEmpty, var cascade = profile.decider as? CascadeDecider {
      cascade.rules = cascade.rules.indices.filter { !switchedOff.contains($0) }.map { cascade.rules[$0] }
      profile.decider = cascade
    }
    return profile
  }

  /// `profile` with the values that follow its thresholds set from them: a warm split's
  /// window from red's lower bound to yellow's upper one, a faint lamp's on its colour's
  /// range and its veto's on red's, each above the value floor. A fit moves the thresholds;
  /// these move with them.
  public static func tied(_ profile: Profile) -> Profile {
    guard var cascade = profile.decider as? CascadeDecider else { return profile }
    let thresholds = profile.thresholds
    cascade.rules = cascade.rules.map { rule in
      if var split = rule as? WarmSplit {
        split.lower = thresholds.red.lower
        split.upper = thresholds.yellow.upper
        split.valueFloor = thresholds.valueFloor
        return split
      }
      if var faint = rule as? FaintLamp {
        let range =
          switch faint.color {
          case .red: thresholds.red
          case .yellow: thresholds.yellow
          case .green, .unknown: thresholds.green
          }
        faint.lower = range.lower
        faint.upper = range.upper
        faint.valueFloor = thresholds.valueFloor
        faint.redVeto = faint.redVeto.map {
          HueRange(thresholds.red.lower, thresholds.red.upper, saturationFloor: $0.saturationFloor)
        }
        return faint
      }
      return rule
    }
    var tied = profile
    tied.decider = cascade
    return tied
  }
}

/// A cascade rule with values a fit searches.
public protocol SearchedRule: CascadeRule {
  /// The rule's axes: the values a fit tries, and the one that switches the rule off.
  static var searched: [TuningAxis<Self>] { get }
}

extension BrightnessFallback: SearchedRule {
  /// A margin of -1 switches the rule off. The margin is searched only as on (0) or off:
  /// whether a bright third stands out is `lead` and `disc`'s, bounds set after the fit that
  /// do not bend to the folders fitted (CALIBRATION.md).
  public static let searched: [TuningAxis<BrightnessFallback>] = [
    TuningAxis("margin", [-1, 0], off: -1, \.margin),
    TuningAxis("floor", [0.3, 0.5, 0.7], \.floor),
  ]
}

extension WarmSplit: SearchedRule {
  /// The split's hue and its saturation floor.
  public static let searched: [TuningAxis<WarmSplit>] = [
    TuningAxis("hue", [0, 4, 8, 10, 12, 16, 20, 25, 30], \.hue),
    TuningAxis("saturationFloor", [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4], \.saturationFloor),
  ]
}

extension FaintLamp: SearchedRule {
  /// Points: 1 is left out of the grid, since red and yellow lights that reach the faint
  /// lamp can carry one faint green point in green's place (CALIBRATION.md).
  public static let searched: [TuningAxis<FaintLamp>] = [
    TuningAxis("saturationFloor", [0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.12], \.saturationFloor),
    TuningAxis("points", [2, 3, 4, 5, 6], get: { Double($0.points) }, set: { $0.points = Int($1) }),
  ]
}

extension SearchSpace {
  /// The pixel thresholds a fit searches: each colour's hue bounds (yellow's lower
  /// bound is red's upper one), each colour's saturation floor, and the value floor. Setting
  /// a saturation floor gives every colour its own floor and makes the common floor their
  /// lowest. Green's upper bound stops at 200 degrees: grey-blue sky and housings lie above.
  public static let thresholds: [TuningAxis<HSVThresholds>] = [
    TuningAxis("redLower", Array(stride(from: 300.0, through: 350, by: 5)), \.red.lower),
    TuningAxis(
      "redUpper", Array(stride(from: 5.0, through: 35, by: 5)), get: { $0.red.upper },
      set: { t, value in
        t.red.upper = value
        t.yellow.lower = value
      }),
    TuningAxis("yellowUpper", Array(stride(from: 50.0, through: 100, by: 5)), \.yellow.upper),
    TuningAxis("greenLower", Array(stride(from: 90.0, through: 150, by: 10)), \.green.lower),
    TuningAxis("greenUpper", Array(stride(from: 180.0, through: 200, by: 5)), \.green.upper),
    saturationAxis("redSaturation", \.red),
    saturationAxis("yellowSaturation", \.yellow),
    saturationAxis("greenSaturation", \.green),
    TuningAxis("valueFloor", [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6], \.valueFloor),
  ]

  private static func saturationAxis(
    _ name: String, _ range: WritableKeyPath<HSVThresholds, HueRange> & Sendable
  ) -> TuningAxis<HSVThresholds> {
    TuningAxis(
      name, [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8],
      get: { $0[keyPath: range].saturationFloor ?? $0.saturationFloor },
      set: { t, value in
        let common = t.saturationFloor
        for colour in [\HSVThresholds.red, \.yellow, \.green] {
          t[keyPath: colour].saturationFloor = t[keyPath: colour].saturationFloor ?? common
        }
        t[keyPath: range].saturationFloor = value
        t.saturationFloor = [t.red, t.yellow, t.green].map { $0.saturationFloor! }.min()!
      })
  }
}
