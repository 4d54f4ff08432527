import TrafficLightKernels

/// What the pipeline read from one frame.
public struct FrameResult: Sendable, Equatable {
  /// The frame's colour.
  public var color: SignalColor { decision.color }
  /// The points per colour.
  public var counts: ColorCounts { decision.counts }
  /// The sampled points, in crop coordinates, with their classes.
  public let decision: FrameDecision
  /// The part of the image that was read: the whole image, or the region of interest
  /// clipped to it; `nil` when the region fell outside the image.
  public let region: PixelRegion?
  /// Every pixel's class in the region, when it was asked for (for pictures).
  public let map: ClassMap?

  public init(decision: FrameDecision, region: PixelRegion?, map: ClassMap? = nil) {
    self.decision = decision
    self.region = region
    self.map = map
  }
}

/// One frame through the pipeline: decode, optional region of interest, blur, classify,
/// sample. Only the sampled pixels are blurred and classified unless a class map is asked
/// for (`GaussianBlur.pixel` gives the full blur's values exactly).
public struct FramePipeline: Sendable {
  public let profile: Profile
  public var decoder: ImageDecoder
  public let blur: GaussianBlur
  public let classifier: HSVClassifier
  public let sampler: SevenPointSampler
  /// Whether frames are blurred whole even when no class map is wanted. The default, false,
  /// blurs only the sampled pixels when that is cheaper (the same values, bit for bit); true
  /// is for measuring and for checking that the two paths agree.
  public var usesFullFrame = false

  public init(profile: Profile, decoder: ImageDecoder = ImageDecoder()) {
    self.profile = profile
    self.decoder = decoder
    blur = GaussianBlur(sigma: profile.sigma)
    classifier = HSVClassifier(thresholds: profile.thresholds)
    sampler = profile.sampler
  }

  /// Reads the frame in `image`, or in `region` of it (clipped to the image); the result
  /// keeps every pixel's class when `keepingMap`.
  ///
  /// Complexity: O(pixels of the region * blur radius).
  public func classify(_ image: RGBImage, region: PixelRegion? = nil, keepingMap: Bool = false) -> FrameResult
  {
    let whole = PixelRegion(x: 0, y: 0, width: image.width, height: image.height)
    guard let area = (region ?? whole).clipped(toWidth: image.width, height: image.height) else {
      return FrameResult(decision: .empty, region: nil)
    }
    if !keepingMap && !usesFullFrame && sparsePathIsCheaper(for: area) {
      // The sparse path: blur and classify the sampled pixels only.
      let decision = sampler.sample(width: area.width, height: area.height) { x, y in
        let (r, g, b) = blur.pixel(x: x, y: y, in: image, region: area)
        return (classifier.classify(r: r, g: g, b: b), PixelColor(r: r, g: g, b: b))
      }
      return FrameResult(decision: decision, region: area)
    }
    let blurred = blur.apply(to: image.cropped(to: area))
    return FrameResult(
      decision: sampler.sample(blurred: blurred, classifier: classifier), region: area,
      map: keepingMap ? classifier.classify(blurred) : nil)
  }

  /// Whether blurring only the sampled pixels costs less than blurring the region: about
  /// `taps^2` scalar multiply-adds per sampled channel, against `2 * taps` per channel of the
  /// region done 16 at a time. Small crops take the full blur; frames take the sparse path.
  func sparsePathIsCheaper(for area: PixelRegion) -> Bool {
    let taps = 2 * blur.radius + 1
    let sampled = sampler.points * sampler.columns
    return sampled * taps * taps * 16 < area.width * area.height * 2 * taps
  }

  /// Decodes the file at `path` (only `region` of it, when given) and reads it.
  ///
  /// - Throws: `DecodeError` naming `path`.
  public func classify(fileAt path: String, region: PixelRegion? = nil) throws(DecodeError) -> FrameResult {
    guard let region else { return classify(try decoder.decode(fileAt: path)) }
    return try classifyNotingDamage(fileAt: path, region: region).result
  }

  /// Decodes only `region` of the file at `path` (for a large JPEG, a fraction of the work)
  /// and reads it; also says what damage the decoder patched over, when the decoder accepts
  /// damaged data. A region outside the image gives an empty reading.
  ///
  /// - Throws: `DecodeError` naming `path`.
  public func classifyNotingDamage(
    fileAt path: String, region: PixelRegion, keepingMap: Bool = false
  ) throws(DecodeError) -> (result: FrameResult, damage: String?) {
    let (crop, area, damage) = try decoder.decodeNotingDamage(fileAt: path, region: region)
    guard let crop, let area else { return (FrameResult(decision: .empty, region: nil), damage) }
    let result = classify(crop, keepingMap: keepingMap)
    return (FrameResult(decision: result.decision, region: area, map: result.map), damage)
  }
}

/// One frame of a sequence: its own reading and the vote after it.
public struct SequenceStep: Sendable, Equatable {
  /// The frame's 0-based position in the sequence.
  public let frame: Int
  /// The frame's reading, or why there is none.
  public let outcome: Result<FrameResult, DecodeError>
  /// The smoothed colour after this frame.
  public let smoothed: SignalColor

  /// The frame's own colour; `unknown` when it could not be read.
  public var color: SignalColor { (try? outcome.get())?.color ?? .unknown }
}

/// Frames fed one at a time through the pipeline and the majority vote.
public struct SequenceClassifier: Sendable {
  public let pipeline: FramePipeline
  public private(set) var vote: FrameVote
  public private(set) var frameCount = 0

  public init(pipeline: FramePipeline, window: Int = 10) {
    self.pipeline = pipeline
    vote = FrameVote(window: window)
  }

  /// Feeds a frame that was already read (or failed to be); a failure votes `unknown`.
  public mutating func feed(_ outcome: Result<FrameResult, DecodeError>) -> SequenceStep {
    let color = (try? outcome.get())?.color ?? .unknown
    let step = SequenceStep(frame: frameCount, outcome: outcome, smoothed: vote.add(color))
    frameCount += 1
    return step
  }

  /// Reads the image at `path` as the next frame.
  public mutating func feed(fileAt path: String, region: PixelRegion? = nil) -> SequenceStep {
    let pipeline = self.pipeline
    return feed(Result { () throws(DecodeError) in try pipeline.classify(fileAt: path, region: region) })
  }
}
