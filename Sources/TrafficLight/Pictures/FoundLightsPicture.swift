import TrafficLightKernels

/// Pictures of the lights found in a frame: the frame with each light's box outlined in its
/// colour and its confidence written above it, large enough to read.
public enum FoundLightsPicture {
  /// `frame` with `lights` drawn on it: a box in the light's colour (red, yellow, green), a
  /// line `thickness(forWidth:height:)` pixels wide with a black line inside it, and the
  /// confidence to two decimals above the box (below it at the top edge), in digits
  /// `textScale(forWidth:height:)` pixels to a font pixel.
  /// `line` and `text`, when given, set the line's width and the digits' scale.
  public static func render(_ frame: RGBImage, lights: [FoundLight], line: Int? = nil, text: Int? = nil)
    -> RGBImage
  {
    var picture = frame
    let line = line ?? thickness(forWidth: frame.width, height: frame.height)
    let text = text ?? textScale(forWidth: frame.width, height: frame.height)
    for light in lights.reversed() {  // the most confident drawn last, on top
      let colour = ClassMask.paint(PixelClass(light.color))
      let box = light.box
      outline(&picture, box.x - line, box.y - line, box.width + 2 * line, box.height + 2 * line, line, colour)
      outline(
        &picture, box.x - 2 * line, box.y - 2 * line, box.width + 4 * line, box.height + 4 * line, line,
        (0, 0, 0))
      let label = String(format: "%.2f", light.confidence)
      let labelHeight = 7 * text
      let y =
        box.y - 2 * line - labelHeight >= 0 ? box.y - 2 * line - labelHeight : box.y + box.height + 2 * line
      write(label, into: &picture, x: box.x - 2 * line, y: y, scale: text, colour: colour)
    }
    return picture
  }

  /// The width of a box's line: 2 pixels, more on frames past 1000 pixels on the short side.
  public static func thickness(forWidth width: Int, height: Int) -> Int { max(2, min(width, height) / 500) }

  /// Output pixels to a font pixel of the 3x5 digits: 3, more on large frames.
  public static func textScale(forWidth width: Int, height: Int) -> Int { max(3, min(width, height) / 200) }

  /// A hollow rectangle, clipped to the picture.
  private static func outline(
    _ picture: inout RGBImage, _ x: Int, _ y: Int, _ width: Int, _ height: Int, _ line: Int,
    _ colour: (UInt8, UInt8, UInt8)
  ) {
    for row in y..<(y + height) where row >= 0 && row < picture.height {
      let edgeRow = row < y + line || row >= y + height - line
      for column in x..<(x + width) where column >= 0 && column < picture.width {
        if edgeRow || column < x + line || column >= x + width - line { picture[column, row] = colour }
      }
    }
  }

  /// The 3x5 glyphs of the digits and the point, rows top to bottom, bit 2 the left column.
  private static let glyphs: [Character: [UInt8]] = [
    "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7],
    "4": [5, 5, 7, 1, 1], "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1],
    "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7], ".": [0, 0, 0, 0, 2],
  ]

  /// `text` on a black ground (one font pixel of margin), its top-left corner at (`x`, `y`).
  private static func write(
    _ text: String, into picture: inout RGBImage, x: Int, y: Int, scale: Int, colour: (UInt8, UInt8, UInt8)
  ) {
    let characters = Array(text)
    outline(&picture, x, y, (4 * characters.count + 1) * scale, 7 * scale, 7 * scale, (0, 0, 0))
    for (index, character) in characters.enumerated() {
      guard let rows = glyphs[character] else { continue }
      for (row, bits) in rows.enumerated() {
        for column in 0..<3 where bits & (4 >> column) != 0 {
          let left = x + (1 + 4 * index + column) * scale
          let top = y + (1 + row) * scale
          outline(&picture, left, top, scale, scale, scale, colour)
        }
      }
    }
  }
}

extension PixelClass {
  /// The class painted for a lamp colour (`none` for unknown).
  init(_ color: SignalColor) {
    switch color {
    case .red: self = .red
    case .yellow: self = .yellow
    case .green: self = .green
    case .unknown: self = .none
    }
  }
}
