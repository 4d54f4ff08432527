import Foundation
import TrafficLightKernels

// Every error of the library says what went wrong and where, in `description`; as
// `LocalizedError`s they say the same through `localizedDescription`, which is what a Swift
// program shows by default (it was "The operation could not be completed").

extension DecodeError: LocalizedError {
  /// The file and the reason, as `description`.
  public var errorDescription: String? { description }
}

extension ProfileError: LocalizedError {
  /// The profile and the reason, as `description`.
  public var errorDescription: String? { description }
}

extension InputError: LocalizedError {
  /// What failed and why, as `description`.
  public var errorDescription: String? { description }
}

extension LabelError: LocalizedError {
  /// The label file and the reason, as `description`.
  public var errorDescription: String? { description }
}

extension EncodeError: LocalizedError {
  /// What could not be encoded, as `description`.
  public var errorDescription: String? { description }
}

extension FileSystemPath.SystemError: LocalizedError {
  /// The system's text for the error number.
  public var errorDescription: String? { message }
}
