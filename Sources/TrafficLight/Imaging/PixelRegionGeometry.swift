import TrafficLightKernels

// How regions of an image lie to one another: what the finder, the matching of found lights
// to boxes and the choice among lights ask of them.

extension PixelRegion {
  /// Whether the centre of `other` lies inside.
  package func holdsCentre(of other: PixelRegion) -> Bool {
    let (cx, cy) = (2 * other.x + other.width, 2 * other.y + other.height)
    return 2 * x <= cx && cx < 2 * (x + width) && 2 * y <= cy && cy < 2 * (y + height)
  }

  /// Whether this region and `other` share a pixel.
  func overlaps(_ other: PixelRegion) -> Bool {
    x < other.x + other.width && other.x < x + width && y < other.y + other.height
      && other.y < y + height
  }

  /// Whether `other`'s centre lies beside this region's in a row or a column: within half a
  /// diameter across and `pitches` diameters along, a diameter being the longer side of the
  /// larger of the two (a lit arrow is smaller than the lamp beside it).
  func isInLine(with other: PixelRegion, within pitches: Double) -> Bool {
    let diameter = Double(max(width, height, other.width, other.height))
    let dx = abs(Double(2 * x + width - 2 * other.x - other.width)) / 2
    let dy = abs(Double(2 * y + height - 2 * other.y - other.height)) / 2
    let along = pitches * diameter
    let across = diameter / 2
    return (dy <= across && dx <= along) || (dx <= across && dy <= along)
  }

  /// Whether this lamp, in line beside `other`, could be a lamp of its head: neither's longer
  /// side is more than four times the other's (an arrow is smaller than the lamp beside it:
  /// on the Korean photos the pairs lit together differ at most 3.3 times; a large red patch
  /// beside a distant green lamp, 20 times and more).
  func isLamp(ofOneHeadWith other: PixelRegion) -> Bool {
    let (mine, theirs) = (max(width, height), max(other.width, other.height))
    return max(mine, theirs) <= 4 * min(mine, theirs)
  }

  /// The way from this region's centre to `other`'s: horizontal where it runs more across
  /// than down.
  func direction(to other: PixelRegion) -> Orientation {
    let dx = abs(2 * other.x + other.width - 2 * x - width)
    let dy = abs(2 * other.y + other.height - 2 * y - height)
    return dx > dy ? .horizontal : .vertical
  }

  /// The smallest region holding this one and `other`.
  func covering(_ other: PixelRegion) -> PixelRegion {
    let left = min(x, other.x)
    let top = min(y, other.y)
    let right = max(x + width, other.x + other.width)
    let bottom = max(y + height, other.y + other.height)
    return PixelRegion(x: left, y: top, width: right - left, height: bottom - top)
  }

  /// The squared distance between this region's centre and `other`'s, in pixels.
  func distanceSquared(to other: PixelRegion) -> Int {
    let dx = (2 * x + width) - (2 * other.x + other.width)
    let dy = (2 * y + height) - (2 * other.y + other.height)
    return (dx * dx + dy * dy) / 4
  }
}
