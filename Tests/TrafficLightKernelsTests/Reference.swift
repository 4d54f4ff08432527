import Foundation
import TrafficLight  // SeededGenerator
import TrafficLightKernels
import TrafficLightStudy

func randomImage(width: Int, height: Int, seed: UInt64) -> RGBImage {
  var generator = SeededGenerator(seed: seed)
  return RGBImage(
    width: width, height: height,
    bytes: (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &generator) })
}

/// A 4096 x 4096 image holding each of the 2^24 colours once: pixel c is (c >> 16, c >> 8 &
/// 255, c & 255).
func everyColourImage() -> RGBImage {
  RGBImage(
    width: 4096, height: 4096,
    initializingWith: { bytes in
      for colour in 0..<(1 << 24) {
        bytes[3 * colour] = UInt8(colour >> 16)
        bytes[3 * colour + 1] = UInt8((colour >> 8) & 255)
        bytes[3 * colour + 2] = UInt8(colour & 255)
      }
    })
}

/// The plain blur the fast one must match: Float64 throughout, clamped indices, a full
/// horizontal pass then a full vertical pass, rounded to nearest once at the end.
func referenceBlur(_ image: RGBImage, sigma: Double) -> RGBImage {
  guard sigma > 0 else { return image }
  let radius = Int((3 * sigma).rounded(.up))
  let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
  let total = raw.reduce(0, +)
  let weights = raw.map { $0 / total }
  let w = image.width
  let h = image.height
  let source = image.byteArray.map(Double.init)
  var across = [Double](repeating: 0, count: source.count)
  for y in 0..<h {
    for x in 0..<w {
      for c in 0..<3 {
        var sum = 0.0
        for k in -radius...radius {
          let sx = min(max(x + k, 0), w - 1)
          sum += weights[k + radius] * source[(y * w + sx) * 3 + c]
        }
        across[(y * w + x) * 3 + c] = sum
      }
    }
  }
  var out = [UInt8](repeating: 0, count: source.count)
  for y in 0..<h {
    for x in 0..<w {
      for c in 0..<3 {
        var sum = 0.0
        for k in -radius...radius {
          let sy = min(max(y + k, 0), h - 1)
          sum += weights[k + radius] * across[(sy * w + x) * 3 + c]
        }
        out[(y * w + x) * 3 + c] = UInt8(min(max(sum.rounded(), 0), 255))
      }
    }
  }
  return RGBImage(width: w, height: h, bytes: out)
}

/// The SPEC's classifier formulas, evaluated in Double exactly as written there.
///
/// The channels are used as integer-valued Doubles: scaling r, g and b to 0...1 divides
/// both sides of every ratio by 255 and changes nothing mathematically, but it adds rounding
/// to each channel, which can push a hue or saturation that is exactly on a threshold to
/// either side of it.
func referenceClass(r: UInt8, g: UInt8, b: UInt8, thresholds t: HSVThresholds) -> PixelClass {
  let r = Double(r)
  let g = Double(g)
  let b = Double(b)
  let high = max(r, g, b)
  let low = min(r, g, b)
  let s = high == low ? 0 : (high - low) / high
  let v = high / 255
  guard high != low, v > t.valueFloor else { return .none }
  var h: Double
  if high == r {
    h = 60 * (g - b) / (high - low)
  } else if high == g {
    h = 60 * (b - r) / (high - low) + 120
  } else {
    h = 60 * (r - g) / (high - low) + 240
  }
  if h < 0 { h += 360 }
  func inside(_ range: HueRange) -> Bool {
    range.lower <= range.upper
      ? (h > range.lower && h < range.upper) : (h > range.lower || h < range.upper)
  }
  func saturated(_ range: HueRange) -> Bool { s > (range.saturationFloor ?? t.saturationFloor) }
  if inside(t.green) { return saturated(t.green) ? .green : .none }
  if inside(t.yellow) { return saturated(t.yellow) ? .yellow : .none }
  if inside(t.red) { return saturated(t.red) ? .red : .none }
  return .none
}
