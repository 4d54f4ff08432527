import TrafficLight
import TrafficLightKernels

/// `evaluate`'s report on a folder of whole frames with boxes.
extension StudyCommand {
  static func reportFrames(
    _ report: FrameEvaluator.Report, folder: String, _ options: Options, console: inout Console
  ) {
    for outcome in report.outcomes {
      if let failure = outcome.failure { console.err("Error: \(failure)") }
    }
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
      line.add("foundColorsRight", colors.right)
      line.add("foundRedReadGreen", colors.redReadGreen)
      line.add("framesRight", report.framesRight)
      line.add("framesRedReadGreen", report.framesRedReadGreen)
      if options.misses { line.add("misses", array: report.outcomes.flatMap(missLines)) }
      console.out(line.closed)
    default:
      let perFrame = frames == 0 ? 0 : Double(report.falseLights) / Double(frames)
      console.out(
        """
        \(folder): \(frames) frames, \(report.labelled) labelled lit boxes
        lights found: \(found) of \(report.labelled) (\(share(found, report.labelled)))
        false lights: \(report.falseLights) (\(String(format: "%.3f", perFrame)) per frame)
        colours of the lights found: \(colors.right) of \(found) right (\(share(colors.right, found))), \
        red read as green \(colors.redReadGreen)
        frames' colour: \(report.framesRight) of \(frames) right (\(share(report.framesRight, frames))), \
        red read as green \(report.framesRedReadGreen)
        """)
      if options.misses {
        for outcome in report.outcomes {
          for line in missLines(outcome) { console.out("  " + missText(line)) }
        }
      }
    }
  }

  private static func share(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "-" : percent(Double(part) / Double(whole))
  }

  /// The labelled boxes not found, the lights found with no box, and the found lights read
  /// in another colour than their label, of one frame.
  private static func missLines(_ outcome: FrameEvaluator.Outcome) -> [JSONLine] {
    var lines: [JSONLine] = []
    func line(_ kind: String, box: PixelRegion, label: String?, read: FoundLight?) -> JSONLine {
      var line = JSONLine()
      line.add("path", outcome.frame.path)
      line.add("miss", kind)
      line.add("box", "\(box.x),\(box.y),\(box.width),\(box.height)")
      if let label { line.add("label", label) }
      if let read {
        line.add("read", read.color.rawValue)
        line.add("confidence", read.confidence)
      }
      return line
    }
    for (box, match) in zip(outcome.frame.boxes, outcome.matches) where box.color != nil {
      if let match {
        let light = outcome.lights[match]
        if light.color != box.color {
          lines.append(line("color", box: box.box, label: box.label, read: light))
        }
      } else {
        lines.append(line("notFound", box: box.box, label: box.label, read: nil))
      }
    }
    for (index, light) in outcome.lights.enumerated() where !outcome.matches.contains(index) {
      lines.append(line("falseLight", box: light.box, label: nil, read: light))
    }
    return lines
  }

  private static func missText(_ line: JSONLine) -> String { line.closed }
}
