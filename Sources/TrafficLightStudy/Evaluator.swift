import TrafficLight

/// A reader measured on labelled images: the one loop behind `evaluate`, `calibrate`'s
/// report and the accuracy tests.
public struct Evaluator: Sendable {
  /// The reader measured.
  public let reader: ImageReader

  /// An evaluator of `reader`.
  public init(reader: ImageReader) {
    self.reader = reader
  }

  /// An image read as something other than its label.
  public struct Miss: Sendable, Equatable {
    /// The image and its label.
    public let image: LabelledImage
    /// What it was read as.
    public let read: SignalColor
    /// What named the colour, when it was not the vote.
    public let decidedBy: String?
  }

  /// What reading a labelled set gave.
  public struct Report: Sendable {
    /// Labels against readings.
    public var confusion = Confusion()
    /// The images read as something other than their label, in input order.
    public var misses: [Miss] = []
    /// The images that could not be read, in input order: left out of every figure.
    public var failures: [(image: LabelledImage, error: InputError)] = []
    /// Each image's label, the colour read and its confidence, in input order.
    public var outcomes: [Outcome] = []

    /// One image's label and reading.
    public struct Outcome: Sendable, Equatable {
      /// The image's label.
      public let truth: SignalColor
      /// The colour read.
      public let read: SignalColor
      /// The reading's confidence.
      public let confidence: Double
    }

    /// What a confidence threshold would give: the readings below it answered `unknown`.
    public struct Coverage: Sendable, Equatable {
      /// The threshold: readings below it count as `unknown`.
      public let minimumConfidence: Double
      /// The share of the lit lights (labelled red, yellow or green) answered with a colour.
      public let answered: Double
      /// The share of those answers that are right; 1 when none is given.
      public let accuracy: Double
      /// Red lights answered green at this threshold.
      public let redCalledGreen: Int
      /// The share of the images labelled `unknown` (a dark light, no light at all) answered
      /// with a colour; nil when none is labelled so.
      public let unlitNamed: Double?
    }

    /// Accuracy against coverage: for each threshold, what answering only readings at least
    /// that confident gives.
    public func coverage(at thresholds: [Double]) -> [Coverage] {
      let lit = outcomes.filter { $0.truth != .unknown }
      let unlit = outcomes.filter { $0.truth == .unknown }
      return thresholds.map { threshold in
        let answers = { (outcome: Outcome) in outcome.read != .unknown && outcome.confidence >= threshold }
        let answered = lit.filter(answers)
        let right = answered.filter { $0.read == $0.truth }.count
        return Coverage(
          minimumConfidence: threshold,
          answered: lit.isEmpty ? 0 : Double(answered.count) / Double(lit.count),
          accuracy: answered.isEmpty ? 1 : Double(right) / Double(answered.count),
          redCalledGreen: answered.filter { $0.truth == .red && $0.read == .green }.count,
          unlitNamed: unlit.isEmpty ? nil : Double(unlit.count(where: answers)) / Double(unlit.count))
      }
    }

    /// An empty report.
    public init() {}

    /// Counts `image` as read `reading`; an image that could not be read is left out, in
    /// `failures`.
    public mutating func add(_ image: LabelledImage, _ reading: ImageReading) {
      if case .failure(let error) = reading.outcome {
        failures.append((image, error))
        return
      }
      let read = reading.frameColor
      confusion.add(truth: image.truth, read: read)
      outcomes.append(
        Outcome(truth: image.truth, read: read, confidence: reading.primary?.result.decision.confidence ?? 0))
      guard read != image.truth else { return }
      let rule = reading.primary?.result.decision.decidedBy
      misses.append(
        Miss(image: image, read: read, decidedBy: rule == LightDecision.vote ? nil : rule))
    }
  }

  /// Reads `images` on up to `jobs` threads and counts each against its label. A light's
  /// whole image is read as the reader reads it; a box in a frame is read as its region of
  /// the whole decoded frame (as `--boxes` reads a detector's box), one decode for the boxes
  /// of a frame that follow each other.
  public func evaluate(_ images: [LabelledImage], jobs: Int = 1) -> Report {
    let reader = self.reader
    let runs = images.decodes
    let readings = OrderedParallelMap.map(count: runs.count, jobs: jobs) { r -> [ImageReading] in
      let run = runs[r]
      let path = images[run.lowerBound].path
      guard images[run.lowerBound].region != nil else {
        return run.map { reader.read(images[$0].path).forKeeping() }
      }
      do throws(DecodeError) {
        let pixels = try reader.decoder.decode(fileAt: path).pixels
        return run.map { i in
          let result = reader.pipeline.classify(pixels, region: images[i].region)
          return ImageReading(path: path, outcome: .success([RegionReading(box: nil, result: result)]))
            .forKeeping()
        }
      } catch {
        return run.map { _ in ImageReading(path: path, outcome: .failure(.decode(error))) }
      }
    }
    var report = Report()
    for (image, reading) in zip(images, readings.joined()) { report.add(image, reading) }
    return report
  }
}
