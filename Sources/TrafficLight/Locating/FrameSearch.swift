import TrafficLightKernels

extension LampFinder {
  /// The scale a `width` x `height` frame is searched at: the largest of 1, 2, 4 and 8 that
  /// keeps the longer side at least `searchSide` pixels.
  public func searchDenominator(width: Int, height: Int) -> Int {
    var denominator = 1
    while denominator < 8 && max(width, height) / (denominator * 2) >= searchSide { denominator *= 2 }
    return denominator
  }

  /// The lights of the image file in `bytes`, in its full-size pixels, most confident first,
  /// and the damage its decode patched over.
  ///
  /// A large frame is searched at a reduced scale (`searchDenominator(width:height:)`; a
  /// JPEG is decoded reduced, by libjpeg's DCT scaling), then each light found is read again
  /// at full size: its box with a margin of one box on every side is searched, cut from one
  /// full-size decode of the region holding every light's margin, and the light found there
  /// whose lamp lies in the first box replaces it. A light the second look does not see
  /// stays as first found.
  ///
  /// - Throws: `DecodeError`, naming `name`.
  public func find(
    inImageData bytes: [UInt8], name: String = "<memory>", decoder: ImageDecoder = ImageDecoder()
  ) throws(DecodeError) -> (lights: [FoundLight], damage: String?) {
    let search = try searched(inImageData: bytes, name: name, decoder: decoder)
    return (search.lights, search.damage)
  }

  /// `find(inImageData:name:decoder:)`, with the full-size pixels the search decoded around
  /// its lights (the whole frame when it was searched at full size; nil when it found none),
  /// so that a caller wanting them too decodes once.
  ///
  /// With a `clock`, each stage's time is added to it: the header, the decode, the search's
  /// own stages (`search: `), the full-size decode around the lights and the second look at
  /// each (`re-read: `).
  package func searched(
    inImageData bytes: [UInt8], name: String, decoder: ImageDecoder, clock: StageClock? = nil
  ) throws(DecodeError) -> (lights: [FoundLight], damage: String?, seen: SeenPixels?) {
    clock?.phase = ""
    let size = try clock.time("header") { () throws(DecodeError) in
      try decoder.displayedSize(of: bytes, name: name)
    }
    let denominator = searchDenominator(width: size.width, height: size.height)
    guard denominator > 1 else {
      let decoded = try clock.time("decode") { () throws(DecodeError) in try decoder.decode(bytes, name: name)
      }
      let whole = PixelRegion(x: 0, y: 0, width: decoded.pixels.width, height: decoded.pixels.height)
      clock?.phase = "search: "
      let lights = find(in: decoded.pixels, clock: clock)
      return (lights, decoded.damage, SeenPixels(image: decoded.pixels, region: whole))
    }
    let (reduced, damage) = try clock.time("decode at 1/\(denominator) scale") { () throws(DecodeError) in
      try decoder.decodeReduced(bytes, name: name, denominator: denominator)
    }
    clock?.phase = "search: "
    let firsts = find(in: reduced, clock: clock).map { light in
      light.scaled(by: denominator, toWidth: size.width, height: size.height)
    }
    // Each light's box with a margin of one box on every side, in the image.
    let areas = firsts.map { light in
      PixelRegion(
        x: light.box.x - light.box.width, y: light.box.y - light.box.height, width: 3 * light.box.width,
        height: 3 * light.box.height
      ).clipped(toWidth: size.width, height: size.height)
    }
    // One decode covers them all: each decode of a region entropy-decodes the file from its
    // top, so that lights' own decodes would repeat it.
    let covering = areas.compactMap { $0 }.reduce(nil as PixelRegion?) { $0?.covering($1) ?? $1 }
    guard let covering else { return (Self.keepingOnePerLight(firsts), damage, nil) }
    clock?.phase = ""
    let closer = try clock.time("full-size decode around the lights") { () throws(DecodeError) in
      try decoder.decode(bytes, name: name, region: covering)
    }
    clock?.phase = "re-read: "
    defer { clock?.phase = "" }
    guard let region = closer.region else { return (Self.keepingOnePerLight(firsts), damage, nil) }
    var lights: [FoundLight] = []
    for (first, area) in zip(firsts, areas) {
      guard let area else {
        lights.append(first)
        continue
      }
      let pixels = closer.pixels.cropped(
        to: PixelRegion(x: area.x - region.x, y: area.y - region.y, width: area.width, height: area.height))
      let second = find(in: pixels, clock: clock).map { $0.moved(by: area.x, area.y) }.first { light in
        first.box.holdsCentre(of: light.lamp) && light.color == first.color
      }
      lights.append(second ?? first)
    }
    return (Self.keepingOnePerLight(lights), damage, SeenPixels(image: closer.pixels, region: region))
  }
}

/// Full-size pixels of part of a frame: `image` holds the frame's `region`.
public struct SeenPixels: Sendable {
  /// The pixels.
  public let image: RGBImage
  /// Where they lie in the frame.
  public let region: PixelRegion

  /// Whether they are the whole of a `width` x `height` frame.
  func isWhole(width: Int, height: Int) -> Bool {
    region == PixelRegion(x: 0, y: 0, width: width, height: height)
  }
}

extension FoundLight {
  /// This light with its boxes moved `dx`, `dy` pixels.
  func moved(by dx: Int, _ dy: Int) -> FoundLight {
    var light = self
    light.box.x += dx
    light.box.y += dy
    light.lamp.x += dx
    light.lamp.y += dy
    return light
  }
}
