import Foundation
import TrafficLight
import TrafficLightKernels

/// One line of results: an image (or one box of it), or a frame of a sequence.
struct ResultRow {
  var path: String
  /// How the image was read: `crop` (one light's crop, whole), `frame` (searched for its
  /// lights), `box` (a label box), `region` (`--roi`); nil for an error.
  var read: String?
  /// In a sequence: the recording (its DIR) the frame belongs to.
  var recording: String?
  var frame: Int?
  var region: PixelRegion?
  var color: SignalColor?
  var counts = ColorCounts()
  /// Whether `counts` were counted: no points are for a found light's lit lamp or a network.
  var hasCounts = true
  /// What named the colour: the vote, or a rule's kind.
  var decidedBy = LightDecision.vote
  /// How sure the decision is of the colour, 0 to 1.
  var confidence = 0.0
  var smoothed: SignalColor?
  /// In a sequence: whether the smoothed colour is a flashing light's.
  var flashing = false
  var error: String?
  /// A remark for a row with no reading, such as a label file without a box.
  var note: String?
  /// In a sequence with labels: every box of the frame.
  var boxes: [RegionReading]?
  /// Damage the decoder patched over (with `--lenient`).
  var damage: String?
  /// With `--find-lights`: every light found, most confident first.
  var lights: [FoundLight]?
  /// Where the colour was read: the light the points lay on, and the lit lamp it was placed
  /// from when the locator saw one.
  var evidence: LocatedLight?
}

/// Writes result rows in the chosen format.
struct ReportFormatter {
  let format: OutputFormat
  let pathWidth: Int
  let showsRegions: Bool
  /// Whether the profile's decider counts points of each colour (a network does not).
  let countsPoints: Bool
  /// The columns of text and CSV, in order: set once, from the kind of run.
  private let columns: [Column]

  static let regionWidth = 19
  /// The widest the path column is padded to; a longer path takes the room it needs.
  static let widestPath = 100

  /// A column of text and CSV. A sequence adds the frame before the path and the smoothed
  /// colour after the colour.
  private enum Column {
    case recording, frame, path, read, region, color, smoothed, confidence, counts
  }

  /// `showsRecordings`: CSV leads with a recording column (a sequence of several DIRs).
  init(
    format: OutputFormat, isSequence: Bool, showsRecordings: Bool = false, pathWidth: Int, showsRegions: Bool,
    countsPoints: Bool = true
  ) {
    self.format = format
    self.countsPoints = countsPoints
    self.pathWidth = pathWidth
    self.showsRegions = showsRegions
    let sequence: [Column] = [.frame, .path, .read, .region, .color, .confidence, .smoothed, .counts]
    columns =
      isSequence
      ? (showsRecordings && format == .csv ? [.recording] + sequence : sequence)
      : [.path, .read, .region, .color, .confidence, .counts]
  }

  /// The first line(s) of the output, if the format has any.
  var header: String? {
    switch format {
    case .jsonl: return nil
    case .csv:
      return columns.map { column in
        switch column {
        case .recording: "recording"
        case .frame: "frame"
        case .path: "path"
        case .read: "read"
        case .region: "region_x,region_y,region_width,region_height"
        case .color: "color"
        case .smoothed: "smoothed"
        case .confidence: "confidence"
        case .counts: "red,yellow,green,decided_by,error,note"
        }
      }.joined(separator: ",")
    case .text:
      return columns.compactMap { column in
        switch column {
        case .recording: nil
        case .frame: padded("FRAME", to: 5)
        case .path: padded("PATH", to: pathWidth)
        case .read: "READ "
        case .region: showsRegions ? padded("REGION", to: Self.regionWidth) : nil
        case .color: padded("COLOR", to: 7)
        case .smoothed: padded("SMOOTHED", to: 8)
        case .confidence: "CONF "
        case .counts: "RED  YELLOW  GREEN"
        }
      }.joined(separator: "  ")
    }
  }

  func line(_ row: ResultRow) -> String {
    switch format {
    case .text: text(row)
    case .jsonl: json(row)
    case .csv: csv(row)
    }
  }

  /// A row of the aligned table: an error row has `error` for its colour and the reason in
  /// place of the counts.
  private func text(_ row: ResultRow) -> String {
    columns.compactMap { column in
      switch column {
      case .recording: nil
      case .frame: padded(row.frame.map(String.init) ?? "", to: 5)
      case .path: padded(terminalSafe(row.path), to: pathWidth)
      case .read: padded(row.read ?? "-", to: 5)
      case .region: showsRegions ? padded(row.region.map(Self.describe) ?? "-", to: Self.regionWidth) : nil
      case .color: padded(row.color?.rawValue ?? "error", to: 7)
      case .smoothed: padded((row.smoothed?.rawValue ?? "") + (row.flashing ? "*" : ""), to: 8)
      case .confidence: padded(row.color == nil ? "-" : Self.confidence(row.confidence), to: 5)
      case .counts:
        row.color == nil
          ? row.error ?? ""
          : (row.hasCounts
            ? padded(String(row.counts.red), to: 3) + "  " + padded(String(row.counts.yellow), to: 6) + "  "
              + String(row.counts.green) : "-    -       -")
            // What jsonl says beyond the counts: the rule that named the colour when the
            // vote did not, a note, and damage accepted by --lenient.
            + (row.decidedBy != LightDecision.vote ? "  by \(row.decidedBy)" : "")
            + (row.note.map { "  (\($0))" } ?? "") + (row.damage.map { "  (damaged: \($0))" } ?? "")
      }
    }.joined(separator: "  ")
  }

  private func json(_ row: ResultRow) -> String {
    var line = JSONLine()
    // A name that is not UTF-8 shows its other bytes as \xNN in "path", and comes whole,
    // byte for byte, in "pathBytes" (base64).
    line.add("path", FileSystemPath.displayed(row.path))
    if FileSystemPath.hasRawBytes(row.path) {
      line.add("pathBytes", Data(FileSystemPath.bytes(row.path)).base64EncodedString())
    }
    if let recording = row.recording { line.add("recording", FileSystemPath.displayed(recording)) }
    if let frame = row.frame { line.add("frame", frame) }
    if let read = row.read { line.add("read", read) }
    if let region = row.region { line.add("region", object: Self.json(region)) }
    if let color = row.color {
      line.add("color", color.rawValue)
      if let smoothed = row.smoothed { line.add("smoothed", smoothed.rawValue) }
      if row.flashing { line.add("flashing", true) }
      if row.hasCounts { line.add("counts", object: Self.json(row.counts)) }
      if row.decidedBy != LightDecision.vote { line.add("decidedBy", row.decidedBy) }
      line.add("confidence", Self.rounded(row.confidence))
      Self.addLamp(of: row.evidence, to: &line)
    } else {
      line.add("error", row.error ?? "")
      if let smoothed = row.smoothed { line.add("smoothed", smoothed.rawValue) }
      if row.flashing { line.add("flashing", true) }
    }
    if let note = row.note { line.add("note", note) }
    if let damage = row.damage { line.add("warning", damage) }
    if let lights = row.lights {
      line.add(
        "lights",
        array: lights.map { light in
          var object = JSONLine()
          object.add("box", integers: [light.box.x, light.box.y, light.box.width, light.box.height])
          object.add("color", light.color.rawValue)
          object.add("confidence", Self.rounded(light.confidence))
          object.add("orientation", light.orientation.rawValue)
          return object
        })
    }
    if let boxes = row.boxes {
      line.add(
        "boxes",
        array: boxes.map { reading in
          var box = JSONLine()
          if let region = reading.result.region { box.add("region", object: Self.json(region)) }
          box.add("color", reading.result.color.rawValue)
          box.add("counts", object: Self.json(reading.result.counts))
          let rule = reading.result.decision.decidedBy
          if rule != LightDecision.vote { box.add("decidedBy", rule) }
          box.add("confidence", Self.rounded(reading.result.decision.confidence))
          Self.addLamp(of: reading.result.light, to: &box)
          return box
        })
    }
    return line.closed
  }

  private func csv(_ row: ResultRow) -> String {
    var fields: [String] = []
    for column in columns {
      switch column {
      case .recording: fields.append(row.recording.map(FileSystemPath.displayed) ?? "")
      case .frame: fields.append(row.frame.map(String.init) ?? "")
      case .path: fields.append(FileSystemPath.displayed(row.path))
      case .read: fields.append(row.read ?? "")
      case .region:
        fields += row.region.map { [$0.x, $0.y, $0.width, $0.height].map(String.init) } ?? ["", "", "", ""]
      case .color: fields.append(row.color?.rawValue ?? "")
      case .smoothed: fields.append((row.smoothed?.rawValue ?? "") + (row.flashing ? " flashing" : ""))
      case .confidence: fields.append(row.color == nil ? "" : Self.confidence(row.confidence))
      case .counts:
        fields +=
          row.color == nil || !row.hasCounts
          ? ["", "", ""] : [row.counts.red, row.counts.yellow, row.counts.green].map(String.init)
        fields.append(row.color == nil || row.decidedBy == LightDecision.vote ? "" : row.decidedBy)
        fields.append(row.error ?? "")
        // Notes are not errors (a run with only notes exits 0); damage accepted by --lenient.
        fields.append(
          [row.note, row.damage.map { "damaged: \($0)" }].compactMap { $0 }.joined(separator: "; "))
      }
    }
    return fields.map(Self.csvField).joined(separator: ",")
  }

  /// A confidence to three decimals, as JSON and tables print it.
  static func rounded(_ confidence: Double) -> Double { (confidence * 1000).rounded() / 1000 }

  /// A confidence with two decimals, for tables: `0.67`, `1.00`.
  static func confidence(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
  }

  static func describe(_ region: PixelRegion) -> String {
    "\(region.x),\(region.y),\(region.width),\(region.height)"
  }

  /// `"lamp"` and `"housing"` (`[x, y, w, h]`, image pixels), and `"lampColor"`, when the
  /// light read was placed from a lit lamp the locator saw; nothing when the region was read
  /// whole.
  static func addLamp(of light: LocatedLight?, to line: inout JSONLine) {
    guard let light, let lamp = light.lamp else { return }
    line.add("lamp", integers: [lamp.x, lamp.y, lamp.width, lamp.height])
    if let color = light.lampColor { line.add("lampColor", color.rawValue) }
    line.add("housing", integers: [light.box.x, light.box.y, light.box.width, light.box.height])
  }

  static func json(_ region: PixelRegion) -> JSONLine {
    var object = JSONLine()
    object.add("x", region.x)
    object.add("y", region.y)
    object.add("width", region.width)
    object.add("height", region.height)
    return object
  }

  static func json(_ counts: ColorCounts) -> JSONLine {
    var object = JSONLine()
    object.add("red", counts.red)
    object.add("yellow", counts.yellow)
    object.add("green", counts.green)
    return object
  }

  static func csvField(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
