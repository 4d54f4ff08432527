import Foundation

/// Folders of the repository, found from this file's path.
enum TestPaths {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let sampleFrames = packageRoot.appendingPathComponent("SampleFrames").path

  /// `shared/NAME` beside the repository, when it is there.
  static func shared(_ name: String) -> String? {
    let path = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/" + name).path
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }

  /// The shared datasets of labelled crops, when they sit beside the repository.
  static let sharedDatasets = shared("datasets")
  /// The shared whole frames, when they sit beside the repository.
  static let sharedFrames = shared("frames")
  static let sharedSequences = shared("sequences")

}
