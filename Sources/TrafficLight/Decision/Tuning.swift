import TrafficLightKernels

/// One value the calibrator searches: its name, the grid of values it tries, and how to read
/// and set it on its owner (a profile, a decider, a rule).
public struct TuningAxis<Owner>: Sendable {
  /// The axis's name in the calibrator's reports.
  public let name: String
  /// The values the calibrator tries, in order.
  public let values: [Double]
  /// A value of the grid that switches the owning rule off, if the rule may be switched off.
  public let off: Double?
  let get: @Sendable (Owner) -> Double
  let set: @Sendable (inout Owner, Double) -> Void

  /// An axis named `name` over `values` (`off`, if given, switches the rule off), read with
  /// `get` and written with `set`.
  public init(
    _ name: String, _ values: [Double], off: Double? = nil, get: @escaping @Sendable (Owner) -> Double,
    set: @escaping @Sendable (inout Owner, Double) -> Void
  ) {
    self.name = name
    self.values = values
    self.off = off
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

  /// The same axis on an owner that holds this one: `get` finds it, `set` puts it back.
  func lifted<Outer>(
    prefix: String? = nil, get inner: @escaping @Sendable (Outer) -> Owner,
    set put: @escaping @Sendable (inout Outer, Owner) -> Void
  ) -> TuningAxis<Outer> {
    let (get, set) = (self.get, self.set)
    return TuningAxis<Outer>(
      prefix.map { "\($0).\(name)" } ?? name, values, off: off, get: { get(inner($0)) },
      set: { outer, value in
        var owner = inner(outer)
        set(&owner, value)
        put(&outer, owner)
      })
  }
}

extension HSVThresholds {
  /// The pixel thresholds the calibrator searches: each colour's hue bounds (yellow's lower
  /// bound is red's upper one), each colour's saturation floor, and the value floor. Setting
  /// a saturation floor gives every colour its own floor and makes the common floor their
  /// lowest. Green's upper bound stops at 200 degrees: grey-blue sky and housings lie above.
  static let tuning: [TuningAxis<HSVThresholds>] = [
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
