import Foundation
import TrafficLight
import TrafficLightKernels

/// `--review DIR`: a page to check a run by eye, `DIR/index.html`, self-contained but for the
/// thumbnails beside it in `DIR/thumbs/`. For `classify`, a contact sheet of every reading,
/// unknowns first, then the least confident. For `sequence`, each recording's timeline, each
/// change of the smoothed colour with the frames before and after it, the states the
/// smoothing kept out, and the stretches it was unsure of.
final class ReviewPage {
  /// One frame or image as the page shows it.
  struct Entry {
    var path: String
    var frame: Int? = nil
    var color: SignalColor
    var confidence: Double
    var smoothed: SignalColor? = nil
    var smoothedConfidence: Double? = nil
    var note: String
    var thumbnail: String?
  }

  /// A recording's frames and what the smoothing made of them.
  struct Recording {
    var name: String
    var fps: Double?
    var frames: [Entry] = []
    var changes: [StateChange] = []
    var suppressed: [SuppressedState] = []
  }

  let folder: String
  private(set) var images: [Entry] = []
  private(set) var recordings: [Recording] = []
  /// The thumbnail written for each path read, by the workers' names.
  private var thumbnails: [String: String] = [:]
  /// A smoothed confidence under this marks a frame as uncertain.
  static let uncertainBelow = 0.6
  /// Frames shown before and after a change.
  static let framesAround = 2

  /// Makes `folder` and its `thumbs/`.
  init(folder: String) throws(CommandError) {
    self.folder = folder
    guard FileSystemPath.makeFolders(folder + "/thumbs") else {
      throw CommandError.io(
        "--review: cannot create folder \(terminalSafe(folder)): \(String(cString: strerror(errno)))")
    }
  }

  /// The file name, in `thumbs/`, of the thumbnail of input `index` of segment `segment`.
  static func thumbnailName(segment: Int, index: Int) -> String { "thumbs/\(segment)-\(index).jpg" }

  /// With a review page's `folder`, writes the thumbnail of `reading`, when it succeeded,
  /// to `folder/name`, drawn from its image as `decode` gives it again; returns what could
  /// not be written (nothing when there is no page, or the image cannot be decoded again).
  static func writeThumbnail(
    of reading: ImageReading, folder: String?, name: String, decode: () -> RGBImage?
  ) -> [String] {
    guard let folder, case .success(let regions) = reading.outcome, let pixels = decode() else { return [] }
    // Lights found are outlined; so is each box read (a label's, a detector's, a located
    // light's housing), in the colour read there, unless it is the whole image.
    let whole = PixelRegion(x: 0, y: 0, width: pixels.width, height: pixels.height)
    let outlines = regions.compactMap { region -> FoundLight? in
      if let light = region.light { return light }
      guard let box = region.result.region, box != whole else { return nil }
      return FoundLight(
        box: box, lamp: region.result.light?.lamp ?? box, color: region.result.color,
        confidence: region.result.decision.confidence,
        orientation: region.result.light?.orientation ?? .vertical)
    }
    do {
      let jpeg = try ImageEncoder.jpeg(Thumbnail.make(pixels, lights: outlines), quality: 85)
      return AtomicFile.write(jpeg, to: folder + "/" + name, followingLinks: false).map { [$0] } ?? []
    } catch {
      return ["cannot write \(folder)/\(name): \(error)"]
    }
  }

  /// Notes that the thumbnail of `reading`, when it succeeded, is `name`.
  func noteThumbnail(_ name: String, for reading: ImageReading) {
    if case .success = reading.outcome { thumbnails[reading.path] = name }
  }

  /// Adds a reading of `classify`.
  func add(image row: ResultRow) {
    images.append(
      Entry(
        path: row.path, color: row.color ?? .unknown, confidence: row.confidence,
        note: Self.note(row), thumbnail: thumbnails[row.path]))
  }

  private static func note(_ row: ResultRow) -> String {
    if let error = row.error { return "cannot read: " + error }
    return row.note ?? "by \(row.decidedBy)"
  }

  /// Starts a recording.
  func startRecording(_ name: String, fps: Double?) { recordings.append(Recording(name: name, fps: fps)) }

  /// Adds a decided frame of the current recording.
  func add(step: SequenceStep, row: ResultRow) {
    guard !recordings.isEmpty else { return }
    recordings[recordings.count - 1].frames.append(
      Entry(
        path: step.reading.path, frame: step.frame, color: step.color, confidence: row.confidence,
        smoothed: step.smoothed, smoothedConfidence: step.smoothedConfidence,
        note: Self.note(row),
        thumbnail: thumbnails[step.reading.path]))
    if let change = step.change { recordings[recordings.count - 1].changes.append(change) }
  }

  /// Adds a state of the current recording that the smoothing kept out.
  func add(suppressed state: SuppressedState) {
    guard !recordings.isEmpty else { return }
    recordings[recordings.count - 1].suppressed.append(state)
  }

  /// Writes `index.html` and, for a sequence, removes the thumbnails it does not show;
  /// returns what went wrong, or nil.
  func write(command: String) -> String? {
    var shown = Set<String>()
    var body = ""
    if recordings.isEmpty {
      body += contactSheet(&shown)
    } else {
      for recording in recordings { body += section(recording, &shown) }
      let all = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/thumbs")) ?? []
      for file in all where !shown.contains("thumbs/" + file) {
        try? FileManager.default.removeItem(atPath: folder + "/thumbs/" + file)
      }
    }
    let page = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>traffic-light review</title>
      <style>
      body { font-family: sans-serif; margin: 24px; background: #fafafa; color: #222; }
      .strip, .sheet { display: flex; flex-wrap: wrap; gap: 10px; margin: 8px 0 20px; }
      figure { margin: 0; padding: 6px; background: white; border: 1px solid #ddd; border-radius: 4px;
               max-width: 260px; }
      figure img { display: block; image-rendering: pixelated; background: #333; }
      figcaption { font-size: 12px; margin-top: 4px; word-break: break-all; }
      .red { border-left: 6px solid #e53935; } .yellow { border-left: 6px solid #fdd835; }
      .green { border-left: 6px solid #43a047; } .unknown { border-left: 6px solid #9e9e9e; }
      .change { margin-bottom: 8px; }
      </style></head><body>
      <h1>traffic-light review</h1>
      <p>\(html(command))</p>
      \(body)
      </body></html>

      """
    return AtomicFile.write(Array(page.utf8), to: folder + "/index.html", followingLinks: false)
  }

  private func contactSheet(_ shown: inout Set<String>) -> String {
    // Unknowns first, then the least confident: what most needs a look.
    let order = images.enumerated().sorted { a, b in
      let (x, y) = (a.element, b.element)
      if (x.color == .unknown) != (y.color == .unknown) { return x.color == .unknown }
      let (cx, cy) = (x.confidence, y.confidence)
      return cx != cy ? cx < cy : a.offset < b.offset
    }.map(\.element)
    let unknown = images.filter { $0.color == .unknown }.count
    var text = "<h2>\(images.count) images: \(unknown) unknown, then the least confident first</h2>\n"
    text += "<div class=\"sheet\">\n"
    for entry in order { text += figure(entry, caption: caption(entry), &shown) }
    return text + "</div>\n"
  }

  private func section(_ recording: Recording, _ shown: inout Set<String>) -> String {
    let frames = recording.frames
    var text = "<h2>\(html(recording.name)): \(frames.count) frames</h2>\n"
    text += SequenceTimeline.svg(
      colors: frames.map(\.color), smoothed: frames.map { $0.smoothed ?? .unknown }, fps: recording.fps)
    text += "\n<h3>Changes of the smoothed colour (\(recording.changes.count))</h3>\n"
    let index = Dictionary(frames.enumerated().map { ($0.element.frame ?? $0.offset, $0.offset) }) { a, _ in a
    }
    for change in recording.changes {
      var title = "frame \(change.frame)"
      if let fps = recording.fps { title += String(format: " (%.2f s)", Double(change.frame) / fps) }
      title += ": \(change.from.rawValue) &rarr; \(change.to.rawValue)"
      if change.flashing { title += " (flashing)" }
      if let confidence = change.confidence { title += String(format: ", confidence %.2f", confidence) }
      text += "<div class=\"change\"><p>\(title)</p><div class=\"strip\">\n"
      if let at = index[change.frame] {
        let around = max(0, at - Self.framesAround)...min(frames.count - 1, at + Self.framesAround - 1)
        for i in around { text += figure(frames[i], caption: caption(frames[i]), &shown) }
      }
      text += "</div></div>\n"
    }
    text += "<h3>Kept out by the smoothing (\(recording.suppressed.count))</h3>\n"
    for state in recording.suppressed {
      text += "<div class=\"change\"><p>frames \(state.frames.lowerBound)&ndash;\(state.frames.upperBound): "
      text += "\(state.color.rawValue), not shown</p><div class=\"strip\">\n"
      let first = index[state.frames.lowerBound] ?? 0
      let last = min(index[state.frames.upperBound] ?? first, first + 3)
      if first < frames.count {
        for i in first...min(last, frames.count - 1) {
          text += figure(frames[i], caption: caption(frames[i]), &shown)
        }
      }
      text += "</div></div>\n"
    }
    // Runs of frames the smoothing was unsure of, or that could not be read.
    var runs: [ClosedRange<Int>] = []
    for (i, frame) in frames.enumerated()
    where (frame.smoothedConfidence ?? 1) < Self.uncertainBelow || frame.note.hasPrefix("cannot") {
      if let last = runs.last, last.upperBound == i - 1 {
        runs[runs.count - 1] = last.lowerBound...i
      } else {
        runs.append(i...i)
      }
    }
    text += "<h3>Uncertain stretches: smoothed confidence under \(Self.uncertainBelow) (\(runs.count))</h3>\n"
    for run in runs {
      let a = frames[run.lowerBound].frame ?? run.lowerBound
      let b = frames[run.upperBound].frame ?? run.upperBound
      text += "<div class=\"change\"><p>frames \(a)&ndash;\(b)</p><div class=\"strip\">\n"
      for i in run.lowerBound...min(run.upperBound, run.lowerBound + 3) {
        text += figure(frames[i], caption: caption(frames[i]), &shown)
      }
      text += "</div></div>\n"
    }
    return text
  }

  private func caption(_ entry: Entry) -> String {
    var text = ""
    if let frame = entry.frame { text += "frame \(frame): " }
    text += entry.color.rawValue
    text += String(format: " %.2f", entry.confidence)
    if let smoothed = entry.smoothed {
      text += ", smoothed \(smoothed.rawValue)"
      if let confidence = entry.smoothedConfidence { text += String(format: " %.2f", confidence) }
    }
    if !entry.note.isEmpty { text += " (\(entry.note))" }
    return text
  }

  private func figure(_ entry: Entry, caption: String, _ shown: inout Set<String>) -> String {
    var text = "<figure class=\"\(entry.smoothed?.rawValue ?? entry.color.rawValue)\">"
    if let thumbnail = entry.thumbnail {
      shown.insert(thumbnail)
      text += "<img src=\"\(html(thumbnail))\" alt=\"\(html(entry.path))\">"
    }
    return text
      + "<figcaption>\(html(caption))<br>\(html(FileSystemPath.displayed(entry.path)))</figcaption></figure>\n"
  }

  private func html(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }
}
