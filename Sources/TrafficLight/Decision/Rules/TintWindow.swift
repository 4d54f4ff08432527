import TrafficLightKernels

/// Which points a rule counts: a hue window and floors on saturation and value.
protocol TintWindow {
  /// The hue window in degrees, `lower < h < upper` (wrapping through 0 when `lower > upper`,
  /// as in `HueRange`).
  var lower: Double { get }
  var upper: Double { get }
  /// A counted point's saturation and value (in 0...1) are above these.
  var saturationFloor: Double { get }
  var valueFloor: Double { get }
}

extension TintWindow {
  /// Whether `pixel`, whose saturation is `saturation`, is above both floors with its hue
  /// in the window.
  func admits(_ pixel: PixelColor, saturation: Double) -> Bool {
    guard saturation > saturationFloor, Double(pixel.value) / 255 > valueFloor else { return false }
    let h = pixel.hue
    return lower < upper ? (h > lower && h < upper) : (h > lower || h < upper)
  }

  /// What is wrong with the window and floors, if anything.
  var windowProblem: String? {
    for bound in [lower, upper] where !(bound >= 0 && bound <= 360) {
      return "lower and upper must be in 0...360 degrees, not \(bound)"
    }
    if !(saturationFloor >= 0 && saturationFloor < 1 && valueFloor >= 0 && valueFloor < 1) {
      return "saturationFloor and valueFloor must be in 0..<1"
    }
    return nil
  }
}

/// A window and floors on their own.
struct Tint: TintWindow {
  let lower: Double
  let upper: Double
  let saturationFloor: Double
  let valueFloor: Double
}
