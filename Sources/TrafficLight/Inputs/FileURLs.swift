import Foundation
import TrafficLightKernels

// File URLs wherever the library takes a path: each overload reads the URL's path.

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
    try read(fileAt: url.path)
  }
}

extension InputCollector {
  /// The inputs the file URLs name: `collect(_:recursive:)` with their paths.
  public static func collect(_ urls: [URL], recursive: Bool = true) -> [InputItem] {
    collect(urls.map(\.path), recursive: recursive)
  }
}
