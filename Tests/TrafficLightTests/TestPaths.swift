import Foundation

/// Folders of the repository, found from this file's path.
enum TestPaths {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let sampleFrames = packageRoot.appendingPathComponent("SampleFrames").path

}
