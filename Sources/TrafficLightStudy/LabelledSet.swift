import Foundation
import TrafficLight

/// Why a labelled folder could not be used.
public enum LabelledSetError: Error, Sendable, Equatable, CustomStringConvertible {
  case notAFolder(String)
  case noLabels(String)
  case badLabels(path: String, line: Int, reason: String)

  /// The folder and the reason.
  public var description: String {
    switch self {
    case .notAFolder(let path): "\(path) is not a folder"
    case .noLabels(let path):
      "\(path) has neither red/, yellow/, green/ folders nor a labels.csv (columns file and state)"
    case .badLabels(let path, let line, let reason): "\(path):\(line): \(reason)"
    }
  }
}

extension LabelledSetError: LocalizedError {
  /// The folder and the reason, as `description`.
  public var errorDescription: String? { description }
}

/// A folder of labelled images: `red/`, `yellow/`, `green/` (and optionally `unknown/`)
/// subfolders, or a `labels.csv` with `file` and `state` columns (state red, yellow, green
/// or unknown).
public enum LabelledSet {
  /// The images of `folder` with their states, in natural order.
  public static func load(_ folder: String) throws(LabelledSetError) -> [LabelledImage] {
    let files = FileManager.default
    var isFolder: ObjCBool = false
    guard files.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw .notAFolder(folder)
    }
    let csv = (folder as NSString).appendingPathComponent("labels.csv")
    if files.fileExists(atPath: csv) { return try loadCSV(csv, folder: folder) }
    var images: [LabelledImage] = []
    for color in SignalColor.allCases {
      let sub = (folder as NSString).appendingPathComponent(color.rawValue)
      guard files.fileExists(atPath: sub, isDirectory: &isFolder), isFolder.boolValue else { continue }
      for case .image(let path) in InputCollector.collect([sub]) {
        images.append(LabelledImage(path: path, truth: color))
      }
    }
    guard !images.isEmpty else { throw .noLabels(folder) }
    return images
  }

  private static func loadCSV(_ csv: String, folder: String) throws(LabelledSetError) -> [LabelledImage] {
    guard let text = try? String(contentsOfFile: csv, encoding: .utf8) else {
      throw .badLabels(path: csv, line: 1, reason: "not readable UTF-8 text")
    }
    let lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").map(String.init) }
    guard let header = lines.first, let fileColumn = header.firstIndex(of: "file"),
      let stateColumn = header.firstIndex(of: "state")
    else {
      throw .badLabels(path: csv, line: 1, reason: "the header must name 'file' and 'state' columns")
    }
    var images: [LabelledImage] = []
    for (index, fields) in lines.enumerated().dropFirst() where !fields.isEmpty {
      guard fields.count > max(fileColumn, stateColumn) else {
        throw .badLabels(path: csv, line: index + 1, reason: "expected \(header.count) fields")
      }
      guard let truth = SignalColor(rawValue: fields[stateColumn].trimmingCharacters(in: .whitespaces)) else {
        throw .badLabels(
          path: csv, line: index + 1,
          reason: "state '\(fields[stateColumn])' is not red, yellow, green or unknown")
      }
      images.append(
        LabelledImage(path: (folder as NSString).appendingPathComponent(fields[fileColumn]), truth: truth))
    }
    return images
  }
}
