/// A blurred pixel's channels (0...255), with the HSV terms of SPEC section 3 that the
/// decision rules read.
public struct PixelColor: Sendable, Equatable, Hashable {
  /// The red channel, 0 to 255.
  public var r: UInt8
  /// The green channel, 0 to 255.
  public var g: UInt8
  /// The blue channel, 0 to 255.
  public var b: UInt8

  /// The colour with these channels.
  public init(r: UInt8, g: UInt8, b: UInt8) {
    self.r = r
    self.g = g
    self.b = b
  }

  /// A grey of this level.
  public init(gray: UInt8) {
    self.init(r: gray, g: gray, b: gray)
  }

  /// The largest channel: the pixel's brightness.
  public var value: UInt8 { max(r, g, b) }

  /// `(max - min) / max`; 0 for black and greys.
  public var saturation: Double {
    let high = Double(max(r, g, b))
    return high == 0 ? 0 : (high - Double(min(r, g, b))) / high
  }

  /// The hexcone hue in degrees, 0 ..< 360; 0 for greys.
  public var hue: Double {
    let (r, g, b) = (Double(r), Double(g), Double(b))
    let high = max(r, g, b)
    let spread = high - min(r, g, b)
    guard spread > 0 else { return 0 }
    let hue: Double
    if high == r {
      hue = 60 * (g - b) / spread
    } else if high == g {
      hue = 60 * (b - r) / spread + 120
    } else {
      hue = 60 * (r - g) / spread + 240
    }
    return hue < 0 ? hue + 360 : hue
  }
}
