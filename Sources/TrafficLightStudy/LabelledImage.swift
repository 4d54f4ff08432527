import TrafficLight
import TrafficLightKernels

/// A light and the state a person read in it: an image that is the light's crop, or a box
/// in a whole frame (a housing labelled in `boxes.csv`).
public struct LabelledImage: Sendable, Equatable {
  /// The image's file.
  public let path: String
  /// Its label.
  public let truth: SignalColor
  /// The light's box in the image, as the pipeline reads a region; nil: the whole image is
  /// the light's crop.
  public let region: PixelRegion?

  /// The light labelled `truth` in the image at `path`: the whole image, or `region` of it.
  public init(path: String, truth: SignalColor, region: PixelRegion? = nil) {
    self.path = path
    self.truth = truth
    self.region = region
  }
}

extension [LabelledImage] {
  /// The indices read from one decode each: a light's whole image alone, and the boxes of
  /// one frame that follow each other together.
  var decodes: [Range<Int>] {
    var runs: [Range<Int>] = []
    var start = startIndex
    while start < endIndex {
      var end = start + 1
      if self[start].region != nil {
        while end < endIndex && self[end].region != nil && self[end].path == self[start].path { end += 1 }
      }
      runs.append(start..<end)
      start = end
    }
    return runs
  }

  /// Each light's image decoded and handed to `measure` with the light, `jobs` at once, in
  /// order (a frame's boxes from one decode); the lights whose image could not be decoded
  /// apart, each its error.
  func measured<T: Sendable>(
    decoder: ImageDecoder, jobs: Int, _ measure: @escaping @Sendable (RGBImage, LabelledImage) -> T
  ) -> (measured: [T], unreadable: [DecodeError]) {
    let runs = decodes
    let results = OrderedParallelMap.map(count: runs.count, jobs: jobs) { r -> [Result<T, DecodeError>] in
      let run = runs[r]
      do throws(DecodeError) {
        let pixels = try decoder.decode(fileAt: self[run.lowerBound].path).pixels
        return run.map { .success(measure(pixels, self[$0])) }
      } catch {
        return run.map { _ in .failure(error) }
      }
    }
    var measured: [T] = []
    var unreadable: [DecodeError] = []
    for result in results.joined() {
      switch result {
      case .success(let value): measured.append(value)
      case .failure(let error): unreadable.append(error)
      }
    }
    return (measured, unreadable)
  }
}
