import TrafficLightKernels

/// The colours a lit lamp's light may have where it is too bright for the pixel thresholds:
/// white (saturation at most `white`), or faintly tinted with the lamp's own hue. A blown-out
/// red lamp's core is white or pink, a green one's white or cyan; a blue sky is neither.
///
/// JSON: `{"white": 0.2, "red": {"lower": 300, "upper": 15}, "yellow": {"lower": 15,
/// "upper": 65}, "green": {"lower": 90, "upper": 195}}` (hue windows as in `HueRange`; their
/// saturation floors are not used).
public struct LampTint: Sendable, Hashable, Codable {
  /// The saturation (0 to 1) at or below which a light is white, of any lamp.
  public var white: Double
  /// The hues of a red lamp's tinted light.
  public var red: HueRange
  /// The hues of a yellow lamp's tinted light.
  public var yellow: HueRange
  /// The hues of a green lamp's tinted light.
  public var green: HueRange

  /// The tints with this white bound and these hue windows.
  public init(white: Double, red: HueRange, yellow: HueRange, green: HueRange) {
    self.white = white
    self.red = red
    self.yellow = yellow
    self.green = green
  }

  /// Whether `light` may be the light of a lit `lamp`: white, or of the lamp's hue.
  public func admits(_ light: PixelColor, as lamp: SignalColor) -> Bool {
    let saturation = light.saturation
    guard saturation > white else { return true }
    return window(lamp)?.admits(light, saturation: saturation) ?? false
  }

  /// `lamp`'s hue window, above the white bound; nil for `unknown`.
  private func window(_ lamp: SignalColor) -> Tint? {
    let range: HueRange
    switch lamp {
    case .red: range = red
    case .yellow: range = yellow
    case .green: range = green
    case .unknown: return nil
    }
    return Tint(lower: range.lower, upper: range.upper, saturationFloor: white, valueFloor: 0)
  }

  /// What is wrong with the values, if anything.
  public var problem: String? {
    guard white >= 0 && white < 1 else { return "tint white must be in 0..<1, not \(white)" }
    for lamp in [SignalColor.red, .yellow, .green] {
      if let problem = window(lamp)?.windowProblem { return "tint \(lamp.rawValue) \(problem)" }
    }
    return nil
  }
}
