import Foundation

/// Folders of the repository, found from this file's path.
enum TestPaths {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let sampleFrames = packageRoot.appendingPathComponent("SampleFrames").path

  /// A new empty folder under the system's temporary folder.
  static func temporaryFolder() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("traffic-light-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }
}
