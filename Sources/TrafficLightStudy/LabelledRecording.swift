import Foundation
import TrafficLight

/// A recording whose frames are labelled: a folder with `frames/` and a `labels.csv` of
/// `index,file,state` (state red, yellow, green or unknown: no light in view or none lit),
/// as `../shared/sequences` holds them. The frames are in the order of `index`.
public struct LabelledRecording: Sendable, Equatable {
  /// The recording's folder.
  public let folder: String
  /// Each frame's file and state, in time order.
  public let frames: [LabelledImage]

  /// Whether `folder` holds a labelled recording: `frames/` and a `labels.csv` whose header
  /// names an `index` column.
  public static func isRecordingFolder(_ folder: String) -> Bool {
    var isFolder: ObjCBool = false
    let framesFolder = (folder as NSString).appendingPathComponent("frames")
    guard FileManager.default.fileExists(atPath: framesFolder, isDirectory: &isFolder), isFolder.boolValue,
      let text = try? String(
        contentsOfFile: (folder as NSString).appendingPathComponent("labels.csv"), encoding: .utf8),
      let header = text.split(whereSeparator: \.isNewline).first
    else { return false }
    return header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains("index")
  }

  /// The recording in `folder`.
  ///
  /// - Throws: `LabelledSetError.badLabels` for a line without a whole `index`, a `file` or a
  ///   known `state`, or an index given twice.
  public static func load(_ folder: String) throws(LabelledSetError) -> LabelledRecording {
    guard isRecordingFolder(folder) else { throw .noLabels(folder) }
    let csv = (folder as NSString).appendingPathComponent("labels.csv")
    guard let text = try? String(contentsOfFile: csv, encoding: .utf8) else {
      throw .badLabels(path: csv, line: 1, reason: "not readable UTF-8 text")
    }
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    let header = lines[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let indexColumn = header.firstIndex(of: "index"), let fileColumn = header.firstIndex(of: "file"),
      let stateColumn = header.firstIndex(of: "state")
    else {
      throw .badLabels(path: csv, line: 1, reason: "the header must name 'index', 'file' and 'state' columns")
    }
    var rows: [(index: Int, image: LabelledImage)] = []
    var seen = Set<Int>()
    for (number, line) in lines.enumerated().dropFirst() where !line.allSatisfy(\.isWhitespace) {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard fields.count > max(indexColumn, fileColumn, stateColumn) else {
        throw .badLabels(path: csv, line: number + 1, reason: "expected \(header.count) fields")
      }
      guard let index = Int(fields[indexColumn]) else {
        throw .badLabels(
          path: csv, line: number + 1, reason: "index '\(fields[indexColumn])' is not a whole number")
      }
      guard seen.insert(index).inserted else {
        throw .badLabels(path: csv, line: number + 1, reason: "index \(index) is given twice")
      }
      let file = fields[fileColumn]
      guard !file.isEmpty, !file.contains("/") else {
        throw .badLabels(path: csv, line: number + 1, reason: "file '\(file)' must be a name in frames/")
      }
      guard let truth = SignalColor(rawValue: fields[stateColumn]) else {
        throw .badLabels(
          path: csv, line: number + 1,
          reason: "state '\(fields[stateColumn])' is not red, yellow, green or unknown")
      }
      let path = ((folder as NSString).appendingPathComponent("frames") as NSString).appendingPathComponent(
        file)
      rows.append((index, LabelledImage(path: path, truth: truth)))
    }
    guard !rows.isEmpty else { throw .badLabels(path: csv, line: 2, reason: "no frame is labelled") }
    return LabelledRecording(folder: folder, frames: rows.sorted { $0.index < $1.index }.map(\.image))
  }

  /// A recording of these frames.
  public init(folder: String, frames: [LabelledImage]) {
    self.folder = folder
    self.frames = frames
  }
}

/// How well a recording was read, frame by frame and smoothed: what `evaluate` prints for a
/// labelled recording.
public struct RecordingScore: Sendable, Equatable {
  /// Frames labelled red, yellow or green.
  public let lit: Int
  /// Lit frames whose own colour is their label.
  public let framesRight: Int
  /// Lit frames whose smoothed colour is their label.
  public let smoothedRight: Int
  /// Red frames whose own colour is green.
  public let framesRedAsGreen: Int
  /// Red frames whose smoothed colour is green.
  public let smoothedRedAsGreen: Int
  /// Frames labelled `unknown` (no light, or none lit).
  public let dark: Int
  /// Dark frames whose own colour is `unknown`.
  public let framesDarkUnknown: Int
  /// Dark frames whose smoothed colour is `unknown`.
  public let smoothedDarkUnknown: Int
  /// The changes of the labels.
  public let changes: Int
  /// The changes of the labels the smoothed colour made within 2 frames of the label (either way).
  public let changesWithinTwo: Int
  /// The median, over the label changes the smoothed colour made at all, of the frames from
  /// the label's change to the smoothed one (negative: early); nil when it made none.
  public let medianLag: Double?

  /// The score of `frames` (each frame's own colour) and `smoothed` against `truth`, all in
  /// frame order and of one length.
  public init(truth: [SignalColor], frames: [SignalColor], smoothed: [SignalColor]) {
    precondition(truth.count == frames.count && truth.count == smoothed.count, "one colour per frame")
    let rows = zip(truth, zip(frames, smoothed)).map { (label: $0, own: $1.0, shown: $1.1) }
    lit = rows.count { $0.label != .unknown }
    framesRight = rows.count { $0.label != .unknown && $0.own == $0.label }
    smoothedRight = rows.count { $0.label != .unknown && $0.shown == $0.label }
    framesRedAsGreen = rows.count { $0.label == .red && $0.own == .green }
    smoothedRedAsGreen = rows.count { $0.label == .red && $0.shown == .green }
    dark = rows.count { $0.label == .unknown }
    framesDarkUnknown = rows.count { $0.label == .unknown && $0.own == .unknown }
    smoothedDarkUnknown = rows.count { $0.label == .unknown && $0.shown == .unknown }
    // Each change of the labels, matched to the smoothed colour's first change to the new
    // state from 2 frames before it and before the labels change again.
    let labelChanges = StateChange.changes(in: truth).filter { $0.frame > 0 }
    let shownChanges = StateChange.changes(in: smoothed)
    var lags: [Int] = []
    for (number, change) in labelChanges.enumerated() {
      let end = number + 1 < labelChanges.count ? labelChanges[number + 1].frame : truth.count
      if let made = shownChanges.first(where: {
        $0.to == change.to && $0.frame >= change.frame - 2 && $0.frame < end
      }) {
        lags.append(made.frame - change.frame)
      }
    }
    changes = labelChanges.count
    changesWithinTwo = lags.filter { abs($0) <= 2 }.count
    let sorted = lags.sorted()
    medianLag =
      sorted.isEmpty
      ? nil
      : sorted.count % 2 == 1
        ? Double(sorted[sorted.count / 2])
        : Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }
}
