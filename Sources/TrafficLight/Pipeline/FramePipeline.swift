import TrafficLightKernels

/// The stages after decoding, for one region of an image: locate the light, blur, classify,
/// sample, decide. Unless a class map is asked for, only the sampled rows are blurred, or
/// only the sampled pixels where that is cheaper (`GaussianBlur.rows` and `pixel` give the
/// full blur's values exactly).
public struct FramePipeline: Sendable {
  /// The profile the stages follow.
  public let profile: Profile
  /// The blur of the profile's sigma.
  public let blur: GaussianBlur
  /// The classifier of the profile's thresholds.
  public let classifier: HSVClassifier
  /// Whether regions are blurred whole even when no class map is wanted. The default, false,
  /// blurs only the sampled rows or pixels (the same values, bit for bit); true is for
  /// measuring and for checking that the paths agree.
  public var usesFullFrame = false

  /// The stages of `profile`, the kernels at the best level this CPU runs.
  public init(profile: Profile) {
    self.profile = profile
    blur = GaussianBlur(sigma: profile.sigma)
    classifier = HSVClassifier(thresholds: profile.thresholds)
  }

  /// Reads the light in `region` of `image` (clipped to the image; the whole image when
  /// `nil`); the result keeps every pixel's class when `keepingMap`.
  ///
  /// Complexity: O(pixels of the region * blur radius).
  public func classify(_ image: RGBImage, region: PixelRegion? = nil, keepingMap: Bool = false) -> FrameResult
  {
    guard let (area, light) = locate(in: image, region: region) else {
      return FrameResult(decision: .empty, region: nil)
    }
    let grid = profile.grid.turned(light.orientation)
    let box = light.box
    func read(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (PixelClass, PixelColor) {
      (classifier.classify(r: r, g: g, b: b), PixelColor(r: r, g: g, b: b))
    }
    // The light's colour from its points, by either path below.
    func decide(_ samples: [SamplePoint]) -> LightDecision {
      profile.decide(samples, on: grid, placedFrom: light.lampColor, busyness: image.busyness(in: box))
    }
    if profile.decider.readsPixels {
      let decision = profile.decide(
        pixelsOf: box, in: image, placedFrom: light.lampColor, busyness: image.busyness(in: box))
      let map = keepingMap ? classifier.classify(blur.apply(to: image.cropped(to: box))) : nil
      return FrameResult(decision: decision, region: area, map: map, light: light)
    }
    if !keepingMap && !usesFullFrame {
      let rows = grid.rows(width: box.width, height: box.height)
      let samples: [SamplePoint]
      if sparsePathIsCheaper(for: box, grid: grid, rows: rows.count) {
        // Blur and classify the sampled pixels only.
        samples = grid.sample(width: box.width, height: box.height) { x, y in
          let (r, g, b) = blur.pixel(x: x, y: y, in: image, region: box)
          return read(r, g, b)
        }
      } else {
        // Blur the sampled rows only.
        let blurred = blur.rows(rows, of: image, region: box)
        var rowOf = [Int](repeating: 0, count: box.height)
        for (k, y) in rows.enumerated() { rowOf[y] = k }
        samples = blurred.read { bytes in
          grid.sample(width: box.width, height: box.height) { x, y in
            let i = (rowOf[y] * box.width + x) * 3
            return read(bytes[i], bytes[i + 1], bytes[i + 2])
          }
        }
      }
      return FrameResult(decision: decide(samples), region: area, light: light)
    }
    let blurred = blur.apply(to: image.cropped(to: box))
    let samples = grid.sample(blurred: blurred, classifier: classifier)
    return FrameResult(
      decision: decide(samples), region: area, map: keepingMap ? classifier.classify(blurred) : nil,
      light: light)
  }

  /// The light the profile's locator places in `region` of `image` (clipped to the image;
  /// the whole image when `nil`), with the clipped region; `nil` when the region holds no
  /// pixel of the image or the locator places no light.
  public func locate(in image: RGBImage, region: PixelRegion? = nil) -> (
    area: PixelRegion, light: LocatedLight
  )? {
    let whole = PixelRegion(x: 0, y: 0, width: image.width, height: image.height)
    guard let area = (region ?? whole).clipped(toWidth: image.width, height: image.height),
      let light = profile.locator.locate(in: image, within: area).first
    else { return nil }
    return (area, light)
  }

  /// Found `lights` as the profile reads them, with `seen`, the full-size pixels the search
  /// decoded around them. A decider that reads points leaves each light as found, its lit
  /// lamp's colour and the finder's confidence (no decision); one that reads pixels decides
  /// the light's box in `seen`, and the light takes that decision's colour and confidence (a
  /// light outside `seen` is left as found).
  public func read(_ lights: [FoundLight], seen: SeenPixels?) -> [(
    light: FoundLight, decision: LightDecision?
  )] {
    guard profile.decider.readsPixels, let seen else { return lights.map { ($0, nil) } }
    return lights.map { light in
      let box = PixelRegion(
        x: light.box.x - seen.region.x, y: light.box.y - seen.region.y, width: light.box.width,
        height: light.box.height)
      guard box.clipped(toWidth: seen.image.width, height: seen.image.height) != nil else {
        return (light, nil)
      }
      let decision = profile.decide(pixelsOf: box, in: seen.image, placedFrom: light.color)
      var read = light
      read.color = decision.color
      read.confidence = decision.confidence
      return (read, decision)
    }
  }

  /// Reads the pixels a decoder gave (the region it decoded, placed where it lies).
  public func classify(_ decoded: DecodedImage, keepingMap: Bool = false) -> FrameResult {
    guard let region = decoded.region else { return FrameResult(decision: .empty, region: nil) }
    let result = classify(decoded.pixels, keepingMap: keepingMap)
    return FrameResult(
      decision: result.decision, region: result.region.map { _ in region }, map: result.map,
      light: result.light?.offset(by: region.x, region.y))
  }

  /// Whether blurring only the sampled pixels costs less than blurring the `rows` sampled
  /// rows of `area`: about `taps^2` scalar multiply-adds per sampled channel, against
  /// `2 * taps` per channel of those rows done 16 at a time. Crops take the rows; wide frames
  /// take the pixels.
  func sparsePathIsCheaper(for area: PixelRegion, grid: SampleGrid, rows: Int) -> Bool {
    let taps = 2 * blur.radius + 1
    let sampled = grid.points * grid.columns
    return sampled * taps * taps * 16 < rows * area.width * 2 * taps
  }
}
