import TrafficLight

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
