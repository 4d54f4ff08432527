import TrafficLightKernels

/// A light's pixels averaged down to a fixed grid of cells, the light upright, each channel
/// divided by the brightest cell's brightest channel (or by `floor`, if that is larger): what
/// `LightNetwork` reads. `scripts/train_light_network.py` computes the same values (its
/// `thumbnail`).
public struct LightThumbnail: Sendable, Equatable {
  /// Cells across.
  public let width: Int
  /// Cells down.
  public let height: Int
  /// Red, green and blue of each cell, row by row, in 0...1.
  public let values: [Float]

  /// The thumbnail of `region` of `image` (clipped to it), `width` x `height` cells.
  ///
  /// A region wider than tall is a light running across: it is turned so that its left end
  /// is at the top. Cell `i` across covers the region's columns `i * W / width` up to
  /// `(i + 1) * W / width` (at least one), and likewise down; its value is the mean of its
  /// pixels. Nil for an empty region.
  public init?(of image: RGBImage, region: PixelRegion, width: Int, height: Int, floor: Double) {
    guard let area = region.clipped(toWidth: image.width, height: image.height) else { return nil }
    self.width = width
    self.height = height
    let across = area.width > area.height
    // The region's size upright: `down` rows of `wide` pixels.
    let (down, wide) = across ? (area.width, area.height) : (area.height, area.width)
    let xs = (0...width).map { $0 * wide / width }
    let ys = (0...height).map { $0 * down / height }
    var cells = [Double](repeating: 0, count: width * height * 3)
    image.read { bytes in
      for j in 0..<height {
        let y0 = ys[j]
        let y1 = max(ys[j + 1], y0 + 1)
        for i in 0..<width {
          let x0 = xs[i]
          let x1 = max(xs[i + 1], x0 + 1)
          var sums = (0, 0, 0)
          for v in y0..<y1 {
            for u in x0..<x1 {
              // Upright (u, v) is the image's (x, y) = (v, u) for a light running across.
              let (x, y) = across ? (area.x + v, area.y + u) : (area.x + u, area.y + v)
              let k = (y * image.width + x) * 3
              sums.0 += Int(bytes[k])
              sums.1 += Int(bytes[k + 1])
              sums.2 += Int(bytes[k + 2])
            }
          }
          let count = Double((y1 - y0) * (x1 - x0))
          let c = (j * width + i) * 3
          cells[c] = Double(sums.0) / count
          cells[c + 1] = Double(sums.1) / count
          cells[c + 2] = Double(sums.2) / count
        }
      }
    }
    let scale = 1 / max(cells.max() ?? 0, floor)
    values = cells.map { Float($0 * scale) }
  }

  /// A thumbnail of these values (red, green, blue of each cell, row by row).
  public init(width: Int, height: Int, values: [Float]) {
    precondition(
      values.count == width * height * 3, "\(width) x \(height) cells need \(width * height * 3) values")
    self.width = width
    self.height = height
    self.values = values
  }
}
