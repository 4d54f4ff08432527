import TrafficLightKernels

/// The stages after decoding, for one region of an image: locate the light, measure it (blur
/// and classify its grid's points), decide. Unless a class map is asked for, only the sampled
/// rows are blurred, or only the sampled pixels where that is cheaper (`GaussianBlur.rows` and
/// `pixel` give the full blur's values exactly).
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
  /// The built-in profile of the profile's `networkFallback` (`NetworkFallback.reader`), if any.
  let fallbackReader: Profile?

  /// The stages of `profile`, the kernels at the best level this CPU runs.
  public init(profile: Profile) {
    self.profile = profile
    blur = GaussianBlur(sigma: profile.sigma)
    classifier = HSVClassifier(thresholds: profile.thresholds)
    fallbackReader = profile.decider.readsPixels ? nil : profile.networkFallback?.reader
  }

  /// Reads the light in `region` of `image` (clipped to the image; the whole image when
  /// `nil`): the light located, measured and decided (`locate`, `measure`, `decide`); the
  /// result keeps every pixel's class when `keepingMap`.
  ///
  /// Complexity: O(pixels of the region * blur radius).
  public func classify(_ image: RGBImage, region: PixelRegion? = nil, keepingMap: Bool = false) -> FrameResult
  {
    guard let measured = measure(image, region: region, keepingMap: keepingMap) else {
      return FrameResult(decision: .empty, region: nil)
    }
    let decision = decide(measured, busyness: image.busyness(in: measured.light.box))
    return FrameResult(decision: decision, region: measured.area, map: measured.map, light: measured.light)
  }

  /// The light located in `region` of `image` (clipped to the image; the whole image when
  /// `nil`) and measured: its grid's points blurred and classified, or, for a decider that
  /// reads pixels, what it measures of them; nil when no light is located. The light's
  /// busyness is measured when `measuringBusyness` and no lit lamp placed it; the box's
  /// class map is kept when `keepingMap`.
  ///
  /// Complexity: O(pixels of the region * blur radius).
  public func measure(
    _ image: RGBImage, region: PixelRegion? = nil, measuringBusyness: Bool = false, keepingMap: Bool = false
  ) -> LightMeasurement? {
    guard let (area, light) = locate(in: image, region: region) else { return nil }
    let grid = profile.grid.turned(light.orientation)
    let box = light.box
    let busyness = measuringBusyness && light.lampColor == nil ? image.busyness(in: box) : nil
    func measurement(samples: [SamplePoint] = [], features: [Float]? = nil, map: ClassMap? = nil)
      -> LightMeasurement
    {
      LightMeasurement(
        area: area, light: light, grid: grid, samples: samples, thresholds: profile.thresholds,
        features: features, busyness: busyness, map: map,
        pixels: fallbackReader == nil ? nil : image.cropped(to: area))
    }
    if profile.decider.readsPixels {
      let map = keepingMap ? classifier.classify(blur.apply(to: image.cropped(to: box))) : nil
      return measurement(features: profile.decider.measure(pixelsOf: box, in: image), map: map)
    }
    func read(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (PixelClass, PixelColor) {
      (classifier.classify(r: r, g: g, b: b), PixelColor(r: r, g: g, b: b))
    }
    if !keepingMap && !usesFullFrame {
      let rows = grid.rows(width: box.width, height: box.height)
      if sparsePathIsCheaper(for: box, grid: grid, rows: rows.count) {
        // Blur and classify the sampled pixels only.
        return measurement(
          samples: grid.sample(width: box.width, height: box.height) { x, y in
            let (r, g, b) = blur.pixel(x: x, y: y, in: image, region: box)
            return read(r, g, b)
          })
      }
      // Blur the sampled rows only.
      let blurred = blur.rows(rows, of: image, region: box)
      var rowOf = [Int](repeating: 0, count: box.height)
      for (k, y) in rows.enumerated() { rowOf[y] = k }
      return measurement(
        samples: blurred.read { bytes in
          grid.sample(width: box.width, height: box.height) { x, y in
            let i = (rowOf[y] * box.width + x) * 3
            return read(bytes[i], bytes[i + 1], bytes[i + 2])
          }
        })
    }
    let blurred = blur.apply(to: image.cropped(to: box))
    return measurement(
      samples: grid.sample(blurred: blurred, classifier: classifier),
      map: keepingMap ? classifier.classify(blurred) : nil)
  }

  /// The colour of a measured light (`measure`) as this pipeline's profile reads it: its
  /// points classified by the profile's thresholds (again, from their colours, when they
  /// were measured under others) and decided, or, for a decider that reads pixels, what it
  /// measured decided; then held to the profile's bounds (`Profile.decide`). A measurement
  /// made under another profile must share this one's grid, blur and decider kind.
  public func decide(_ measured: LightMeasurement) -> LightDecision {
    decide(measured, busyness: measured.busyness ?? 0)
  }

  /// `decide(_:)`, with the light's busyness read only if a bound asks for it.
  func decide(_ measured: LightMeasurement, busyness: @autoclosure () -> Double) -> LightDecision {
    let lamp = measured.light.lampColor
    if profile.decider.readsPixels {
      let decision = measured.features.map(profile.decider.decide(features:)) ?? .empty
      return profile.finished(decision, placedFrom: lamp, busyness: busyness())
    }
    var samples = measured.samples
    if measured.thresholds != profile.thresholds {
      samples = samples.map { point in
        let color = point.color
        return SamplePoint(
          position: point.position, pixelClass: classifier.classify(r: color.r, g: color.g, b: color.b),
          color: color)
      }
    }
    let decision = profile.decide(samples, on: measured.grid, placedFrom: lamp, busyness: busyness())
    guard let fallback = profile.networkFallback, let reader = fallbackReader, let pixels = measured.pixels
    else {
      return decision
    }
    return fallback.decide(after: decision, region: pixels, reader: reader, classifier: classifier)
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
