/// Why an input gave no reading.
public enum InputError: Error, Sendable, Equatable, CustomStringConvertible {
  case decode(DecodeError)
  case labels(LabelError)

  /// The reason, without the image's path (a label error names its label file).
  public var reason: String {
    switch self {
    case .decode(let error): error.reason
    case .labels(let error): error.description
    }
  }

  /// The file and the reason.
  public var description: String {
    switch self {
    case .decode(let error): error.description
    case .labels(let error): error.description
    }
  }
}
