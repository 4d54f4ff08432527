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

extension LabelledSetError: LocalizedError {
  /// The folder and the reason, as `description`.
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

// MARK: - File URLs beside path strings

extension ImageDecoder {
  /// Decodes the file at `url` (a file URL), or only `region` of it: `decode(fileAt:region:)`.
  ///
  /// - Throws: `DecodeError`, naming the file's path.
  public func decode(fileAt url: URL, region: PixelRegion? = nil) throws(DecodeError) -> DecodedImage {
    try decode(fileAt: url.path, region: region)
  }
}

extension ImageReader {
  /// Reads the image at `url` (a file URL): `read(_:)`.
  public func read(_ url: URL) -> ImageReading { read(url.path) }
}

extension Profile {
  /// The profile in the JSON file at `url` (a file URL; never a built-in's name).
  public static func load(from url: URL) throws(ProfileError) -> Profile {
    let path = url.path
    let bytes: [UInt8]
    do {
      bytes = try FileReader.readAll(path, maxBytes: 16 << 20)
    } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    return try decode(Data(bytes), path: path)
  }
}

extension InputCollector {
  /// The inputs the file URLs name: `collect(_:recursive:)` with their paths.
  public static func collect(_ urls: [URL], recursive: Bool = true) -> [InputItem] {
    collect(urls.map(\.path), recursive: recursive)
  }
}
