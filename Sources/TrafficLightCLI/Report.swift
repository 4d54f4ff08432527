import TrafficLight
import TrafficLightKernels

/// One line of results: an image (or one box of it), or a frame of a sequence.
struct ResultRow {
  var path: String
  var frame: Int?
  var region: PixelRegion?
  var color: SignalColor?
  var counts = ColorCounts()
  /// The sampler's rule that named the colour.
  var decidedBy = FrameDecision.Rule.vote
  var smoothed: SignalColor?
  var error: String?
  /// A remark for a row with no reading, such as a label file without a box.
  var note: String?
  /// In a sequence with labels: every box of the frame.
  var boxes: [RegionReading]?
  /// Damage the decoder patched over (with `--lenient`).
  var damage: String?
}

/// Writes result rows in the chosen format.
struct ReportFormatter {
  let format: OutputFormat
  let command: Subcommand
  let pathWidth: Int
  let showsRegions: Bool

  static let regionWidth = 19

  /// The first line(s) of the output, if the format has any.
  var header: String? {
    switch format {
    case .jsonl: return nil
    case .csv:
      let region = "region_x,region_y,region_width,region_height"
      return command == .sequence
        ? "frame,path,\(region),color,smoothed,red,yellow,green,error"
        : "path,\(region),color,red,yellow,green,error"
    case .text:
      var line = command == .sequence ? "FRAME  " : ""
      line += padded("PATH", to: pathWidth) + "  "
      if showsRegions { line += padded("REGION", to: Self.regionWidth) + "  " }
      line += padded("COLOR", to: 7) + "  "
      if command == .sequence { line += padded("SMOOTHED", to: 8) + "  " }
      return line + "RED  YELLOW  GREEN"
    }
  }

  func line(_ row: ResultRow) -> String {
    switch format {
    case .text: text(row)
    case .jsonl: json(row)
    case .csv: csv(row)
    }
  }

  private func text(_ row: ResultRow) -> String {
    var line = row.frame.map { padded(String($0), to: 5) + "  " } ?? ""
    line += padded(row.path, to: pathWidth) + "  "
    if showsRegions { line += padded(row.region.map(Self.describe) ?? "-", to: Self.regionWidth) + "  " }
    guard let color = row.color else {
      line += padded("error", to: 7) + "  "
      if let smoothed = row.smoothed { line += padded(smoothed.rawValue, to: 8) + "  " }
      return line + (row.error ?? "")
    }
    line += padded(color.rawValue, to: 7) + "  "
    if let smoothed = row.smoothed { line += padded(smoothed.rawValue, to: 8) + "  " }
    line += padded(String(row.counts.red), to: 3) + "  " + padded(String(row.counts.yellow), to: 6) + "  "
    line += String(row.counts.green)
    if let note = row.note { line += "  (\(note))" }
    return line
  }

  private func json(_ row: ResultRow) -> String {
    var line = JSONLine()
    line.add("path", row.path)
    if let frame = row.frame { line.add("frame", frame) }
    if let region = row.region { line.add("region", object: Self.json(region)) }
    if let color = row.color {
      line.add("color", color.rawValue)
      if let smoothed = row.smoothed { line.add("smoothed", smoothed.rawValue) }
      line.add("counts", object: Self.json(row.counts))
      if row.decidedBy != .vote { line.add("decidedBy", row.decidedBy.rawValue) }
    } else {
      line.add("error", row.error ?? "")
      if let smoothed = row.smoothed { line.add("smoothed", smoothed.rawValue) }
    }
    if let note = row.note { line.add("note", note) }
    if let damage = row.damage { line.add("warning", damage) }
    if let boxes = row.boxes {
      line.add(
        "boxes",
        array: boxes.map { reading in
          var box = JSONLine()
          if let region = reading.result.region { box.add("region", object: Self.json(region)) }
          box.add("color", reading.result.color.rawValue)
          box.add("counts", object: Self.json(reading.result.counts))
          let rule = reading.result.decision.decidedBy
          if rule != .vote { box.add("decidedBy", rule.rawValue) }
          return box
        })
    }
    return line.closed
  }

  private func csv(_ row: ResultRow) -> String {
    var fields: [String] = []
    if command == .sequence { fields.append(row.frame.map(String.init) ?? "") }
    fields.append(row.path)
    if let region = row.region {
      fields += [region.x, region.y, region.width, region.height].map(String.init)
    } else {
      fields += ["", "", "", ""]
    }
    fields.append(row.color?.rawValue ?? "")
    if command == .sequence { fields.append(row.smoothed?.rawValue ?? "") }
    if row.color != nil {
      fields += [row.counts.red, row.counts.yellow, row.counts.green].map(String.init)
    } else {
      fields += ["", "", ""]
    }
    fields.append(row.error ?? row.note ?? "")
    return fields.map(Self.csvField).joined(separator: ",")
  }

  static func describe(_ region: PixelRegion) -> String {
    "\(region.x),\(region.y),\(region.width),\(region.height)"
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
