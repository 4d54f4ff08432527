import TrafficLightKernels

/// The state of a traffic light. (The article's "blue" is `green` here.)
public enum SignalColor: String, Sendable, Codable, CaseIterable {
  case red
  case yellow
  case green
  case unknown

  /// The colour a pixel class stands for; `nil` for `PixelClass.none`.
  public init?(_ pixelClass: PixelClass) {
    switch pixelClass {
    case .red: self = .red
    case .yellow: self = .yellow
    case .green: self = .green
    case .none: return nil
    }
  }

  /// The lit colours from the most restrictive to the least: the order that breaks ties
  /// within a frame.
  public static let byRestrictiveness: [SignalColor] = [.red, .yellow, .green]
}

/// How many sampled points fell on each colour.
public struct ColorCounts: Sendable, Equatable, Hashable, Codable {
  /// Red points.
  public var red = 0
  /// Yellow points.
  public var yellow = 0
  /// Green points.
  public var green = 0

  /// These counts.
  public init(red: Int = 0, yellow: Int = 0, green: Int = 0) {
    self.red = red
    self.yellow = yellow
    self.green = green
  }

  /// The count of `color` (0 for `unknown`).
  public subscript(color: SignalColor) -> Int {
    get {
      switch color {
      case .red: red
      case .yellow: yellow
      case .green: green
      case .unknown: 0
      }
    }
    set {
      switch color {
      case .red: red = newValue
      case .yellow: yellow = newValue
      case .green: green = newValue
      case .unknown: break
      }
    }
  }

  /// The colour with the most points; `unknown` when no point has a colour; a tie goes to
  /// the more restrictive colour, red over yellow over green.
  public var majority: SignalColor {
    var best = SignalColor.unknown
    var bestCount = 0
    for color in SignalColor.byRestrictiveness where self[color] > bestCount {
      best = color
      bestCount = self[color]
    }
    return best
  }
}
