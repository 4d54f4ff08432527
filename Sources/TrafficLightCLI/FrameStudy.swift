import TrafficLight
import TrafficLightKernels
import TrafficLightStudy

/// `evaluate`'s report on a folder of whole frames with boxes.
extension StudyCommand {
  /// The confidence thresholds the frame report gives lights found against false lights at:
  /// the finder's own least confidence, then each tenth above it (lights below the finder's
  /// least were never found).
  static func lightThresholds(from least: Double) -> [Double] {
    [least] + (1...9).map { Double($0) / 10 }.filter { $0 > least + 1e-9 }
  }

  static func reportFrames(
    _ report: FrameEvaluator.Report, folder: String, leastConfidence: Double, _ options: Options,
    console: inout Console
  ) {
    let lightThresholds = Self.lightThresholds(from: leastConfidence)
    for (_, reason) in report.unreadable { console.err("Error: \(reason)") }
    let frames = report.outcomes.count
    let colors = report.foundColors
    let found = report.found
    switch options.format {
    case .jsonl:
      var line = JSONLine()
      line.add("folder", folder)
      line.add("frames", frames)
      line.add("labelled", report.labelled)
      line.add("found", found)
      line.add("falseLights", report.falseLights)
      line.add("secondLights", report.secondLights)
      line.add("foundColorsRight", colors.right)
      line.add("foundRedReadGreen", colors.redReadGreen)
      line.add("framesRight", report.framesRight)
      line.add("framesRedReadGreen", report.framesRedReadGreen)
      if report.failures > 0 { line.add("unreadable", report.failures) }
      line.add(
        "coverage",
        array: report.coverage(at: lightThresholds).map { point in
          var object = JSONLine()
          object.add("minimumConfidence", ReportFormatter.rounded(point.minimumConfidence))
          object.add("found", point.found)
          object.add("falseLights", point.falseLights)
          object.add("redReadGreen", point.redReadGreen)
          return object
        })
      if options.misses { line.add("misses", array: report.outcomes.flatMap(missLines)) }
      console.out(line.closed)
    default:
      let perFrame = frames == 0 ? 0 : Double(report.falseLights) / Double(frames)
      // Dark lights are not lights to find: said, so that the counts add up.
      let dark = report.outcomes.reduce(0) { $0 + $1.frame.boxes.filter { $0.color == nil }.count }
      let darkNote =
        dark == 0
        ? ""
        : ", and \(dark) dark \(dark == 1 ? "one" : "ones") left out (labelled unknown; a light found there and read unknown is not false)"
      console.out(
        """
        \(folder): \(frames) frames, \(report.labelled) labelled lit boxes\(darkNote)
        lights found: \(found) of \(report.labelled) (\(share(found, report.labelled)))
        false lights: \(report.falseLights) (\(String(format: "%.3f", perFrame)) per frame; \
        \(report.secondLights) of them on a labelled light found already)
        colours of the lights found: \(colors.right) of \(found) right (\(share(colors.right, found))), \
        red read as green \(colors.redReadGreen)
        frames' colour: \(report.framesRight) of \(frames) right (\(share(report.framesRight, frames))), \
        red read as green \(report.framesRedReadGreen)
        """
          + (report.failures > 0
            ? "\nleft out, could not be read: \(report.failures) frames (named above)" : ""))
      console.out(
        coverageTable(report.coverage(at: lightThresholds), labelled: report.labelled, frames: frames))
      if options.misses {
        for outcome in report.outcomes {
          for miss in misses(outcome) { console.out("  " + missText(miss, path: outcome.frame.path)) }
        }
      }
    }
  }

  /// Lights found against false lights per frame at each threshold, for people choosing
  /// `--light-confidence`.
  private static func coverageTable(_ coverage: [FrameEvaluator.Report.Coverage], labelled: Int, frames: Int)
    -> String
  {
    var lines = ["keeping only lights at least this confident (--light-confidence):"]
    lines.append("  confidence  found   false per frame  red read as green")
    for point in coverage {
      let perFrame = frames == 0 ? 0 : Double(point.falseLights) / Double(frames)
      lines.append(
        "  " + padded(String(format: "%.2f", point.minimumConfidence), to: 10) + "  "
          + padded(share(point.found, labelled), to: 6) + "  "
          + padded(String(format: "%.3f", perFrame), to: 15)
          + "  " + String(point.redReadGreen))
    }
    return lines.joined(separator: "\n")
  }

  /// The header of `--candidates`: where each candidate is, whether it is a labelled lit
  /// lamp (1) or not (0), and its measurements.
  static let candidateHeader =
    "folder,path,color,orientation,x,y,width,height,lampX,lampY,lampWidth,lampHeight,confidence,litLamp,"
    + LampMeasurements.names.joined(separator: ",")

  /// The `--candidates` rows of one folder's frames.
  static func candidateRows(
    _ frames: [(frame: BoxedFrame, candidates: [FrameEvaluator.LabelledCandidate], failure: String?)],
    folder: String
  ) -> [String] {
    frames.flatMap { frame in
      frame.candidates.map { labelled in
        let light = labelled.candidate.light
        let fields =
          [
            ReportFormatter.csvField(folder), ReportFormatter.csvField(frame.frame.path),
            light.color.rawValue, light.orientation.rawValue,
          ]
          + [light.box.x, light.box.y, light.box.width, light.box.height].map(String.init)
          + [light.lamp.x, light.lamp.y, light.lamp.width, light.lamp.height].map(String.init)
          + [String(format: "%.6f", light.confidence), labelled.isLitLamp ? "1" : "0"]
          + labelled.candidate.measurements.values.map { String(format: "%.6g", $0) }
        return fields.joined(separator: ",")
      }
    }
  }

  private static func share(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "-" : percent(Double(part) / Double(whole))
  }

  /// One box of a frame the finder got wrong.
  private struct FrameMiss {
    /// `notFound` (a labelled box no light was found for), `falseLight` (a light found where
    /// no box is) or `color` (a light found for a box, of another colour).
    var kind: String
    var box: PixelRegion
    var label: String?
    var read: FoundLight?
  }

  /// The labelled boxes not found, the lights found with no box, and the found lights read
  /// in another colour than their box asks (its label, or for a lit lamp its head's most
  /// restrictive lit lamp: `Outcome.expectedColors`; a dark box's light read as a colour), of
  /// one frame.
  private static func misses(_ outcome: FrameEvaluator.Outcome) -> [FrameMiss] {
    var misses: [FrameMiss] = []
    for (box, (match, expected)) in zip(outcome.frame.boxes, zip(outcome.matches, outcome.expectedColors)) {
      if box.color == nil {
        // A dark light is not a light to find; found, it should read unknown (a false light
        // of the counts when it does not).
        if let match, outcome.lights[match].color != .unknown {
          misses.append(FrameMiss(kind: "color", box: box.box, label: box.label, read: outcome.lights[match]))
        }
        continue
      }
      if let match {
        let light = outcome.lights[match]
        if light.color != expected {
          misses.append(FrameMiss(kind: "color", box: box.box, label: box.label, read: light))
        }
      } else {
        misses.append(FrameMiss(kind: "notFound", box: box.box, label: box.label, read: nil))
      }
    }
    for (index, light) in outcome.lights.enumerated() where !outcome.matches.contains(index) {
      misses.append(FrameMiss(kind: "falseLight", box: light.box, label: nil, read: light))
    }
    return misses
  }

  private static func missLines(_ outcome: FrameEvaluator.Outcome) -> [JSONLine] {
    misses(outcome).map { miss in
      var line = JSONLine()
      line.add("path", outcome.frame.path)
      line.add("miss", miss.kind)
      line.add("box", integers: [miss.box.x, miss.box.y, miss.box.width, miss.box.height])
      if let label = miss.label { line.add("label", label) }
      if let read = miss.read {
        line.add("read", read.color.rawValue)
        line.add("confidence", ReportFormatter.rounded(read.confidence))
      }
      return line
    }
  }

  /// A miss for people: `path: red light at 10,20 30x90 not found`.
  private static func missText(_ miss: FrameMiss, path: String) -> String {
    let box = "\(miss.box.x),\(miss.box.y) \(miss.box.width)x\(miss.box.height)"
    let confidence = miss.read.map { String(format: "%.2f", $0.confidence) } ?? ""
    switch miss.kind {
    case "notFound": return "\(path): \(miss.label ?? "") box at \(box) not found"
    case "falseLight":
      return
        "\(path): \(miss.read?.color.rawValue ?? "") light found at \(box) (confidence \(confidence)), no box there"
    default:
      return
        "\(path): \(miss.label ?? "") box at \(box) read \(miss.read?.color.rawValue ?? "") (confidence \(confidence))"
    }
  }
}
