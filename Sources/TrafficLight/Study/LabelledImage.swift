/// An image and the state a person read in it.
public struct LabelledImage: Sendable, Equatable {
  public let path: String
  public let truth: SignalColor

  public init(path: String, truth: SignalColor) {
    self.path = path
    self.truth = truth
  }
}
