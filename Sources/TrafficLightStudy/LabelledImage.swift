import TrafficLight
import TrafficLightKernels

/// An image and the state a person read in it.
public struct LabelledImage: Sendable, Equatable {
  /// The image's file.
  public let path: String
  /// Its label.
  public let truth: SignalColor

  /// The image at `path`, labelled `truth`.
  public init(path: String, truth: SignalColor) {
    self.path = path
    self.truth = truth
  }
}

extension [LabelledImage] {
  /// Each image decoded and handed to `measure` with its label, `jobs` at once, in order; the
  /// images that could not be decoded apart, each its error.
  func measured<T: Sendable>(
    decoder: ImageDecoder, jobs: Int, _ measure: @escaping @Sendable (RGBImage, SignalColor) -> T
  ) -> (measured: [T], unreadable: [DecodeError]) {
    let results = OrderedParallelMap.map(count: count, jobs: jobs) { i -> Result<T, DecodeError> in
      Result { () throws(DecodeError) in
        measure(try decoder.decode(fileAt: self[i].path).pixels, self[i].truth)
      }
    }
    var measured: [T] = []
    var unreadable: [DecodeError] = []
    for result in results {
      switch result {
      case .success(let value): measured.append(value)
      case .failure(let error): unreadable.append(error)
      }
    }
    return (measured, unreadable)
  }
}
