import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightTestSupport

/// Writes synthetic frames `frame_0.png`, `frame_1.png`, ... lit as `colors` into a new folder.
func syntheticSequence(_ colors: [SignalColor]) throws -> String {
  let folder = try temporaryFolder()
  for (index, color) in colors.enumerated() {
    try writePNG(syntheticLight(lit: color), to: folder + "/frame_\(index).png")
  }
  return folder
}

@Suite struct SequenceCommandTests {
  @Test(arguments: ["text", "jsonl", "csv"])
  func sequence_carpark_matchesTheRecordedRun(format: String) throws {
    let run = try traffic(
      "sequence", "--profile", "seed", "--format", format, "SampleFrames/carpark-sequence")
    #expect(
      run
        == Run(
          status: 0, stdout: try CLIPaths.expected("sequence-carpark-seed.\(format)"),
          stderr: try CLIPaths.expected("sequence-carpark-\(format).stderr")))
  }

  @Test func sequence_window_smoothsAFlicker_andEventsMarkTheChanges() throws {
    let colors: [SignalColor] = [.red, .red, .green, .red, .red, .unknown, .green, .green, .green, .green]
    let folder = try syntheticSequence(colors)
    let run = try traffic(
      "sequence", "--profile", "seed", "--format", "jsonl", "--window", "3", "--events", "--fps", "2", folder)
    #expect(run.status == 0)
    let records = try run.stdout.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    let frames = records.filter { $0["frame"] != nil && $0["event"] == nil }
    #expect(frames.map { $0["frame"] as? Int } == Array(0..<10))
    #expect(frames.map { $0["color"] as? String } == colors.map(\.rawValue))
    #expect(
      frames.map { $0["smoothed"] as? String } == [
        "red", "red", "red", "red", "red", "red", "green", "green", "green", "green",
      ])
    // Frame 6's window is red, unknown, green: a tie, won by the most recent colour.
    // Each event follows the frame it happened on.
    #expect(
      run.stdout.contains(
        #"{"path":"\#(folder)/frame_6.png","recording":"\#(folder)","frame":6,"read":"crop","color":"green","smoothed":"green","counts":{"red":0,"yellow":0,"green":2},"confidence":1}"#
          + "\n"
          + #"{"event":"change","recording":"\#(folder)","frame":6,"path":"\#(folder)/frame_6.png","time":3,"from":"red","to":"green"}"#
      ))
    let events = records.filter { $0["event"] != nil }
    #expect(events.map { $0["frame"] as? Int } == [0, 6])
    #expect(events.map { $0["from"] as? String } == ["unknown", "red"])
  }

  @Test func sequence_text_summarisesTheChangesOnStderr() throws {
    let folder = try syntheticSequence([.unknown, .green, .green, .yellow, .yellow, .red, .red, .red])
    let run = try traffic("sequence", "--profile", "seed", "--window", "2", "--fps", "4", folder)
    #expect(run.status == 0)
    #expect(
      run.stderr == """
        State changes (frames count from 0, in the order read):
          frame 1 (0.25 s), \(folder)/frame_1.png: unknown -> green
          frame 3 (0.75 s), \(folder)/frame_3.png: green -> yellow
          frame 5 (1.25 s), \(folder)/frame_5.png: yellow -> red

        """)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines[0].hasPrefix("FRAME  PATH"))
    #expect(lines[0].contains("COLOR    CONF   SMOOTHED  RED  YELLOW  GREEN"))
    #expect(lines.count == 9)
  }

  @Test func sequence_unreadableFrame_isReported_votesUnknown_andExitsOne() throws {
    let folder = try syntheticSequence([.green, .green])
    try Data([0xFF, 0xD8, 0xFF, 0x00]).write(to: URL(fileURLWithPath: folder + "/frame_1.png"))
    let run = try traffic("sequence", "--profile", "seed", "--format", "csv", folder)
    #expect(run.status == 1)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines[0]
        == "frame,path,read,region_x,region_y,region_width,region_height,color,confidence,smoothed,red,yellow,green,"
        + "decided_by,error,note"
    )
    #expect(lines[1] == "0,\(folder)/frame_0.png,crop,,,,,green,1.00,green,0,0,2,,,")
    #expect(lines[2].hasPrefix("1,\(folder)/frame_1.png,,,,,,,,green,,,,,corrupt JPEG: "))
  }

  @Test func sequence_folderWithNoFrame_isAnError() throws {
    // Frames one level down are not a sequence's: it reads only the folder's own files.
    let folder = try syntheticSequence([])
    let inner = try syntheticSequence([.green])
    try FileManager.default.moveItem(atPath: inner, toPath: folder + "/frames")
    let run = try traffic("sequence", "--profile", "seed", folder)
    #expect(run.status == 1)
    #expect(run.stderr.contains("Error: \(folder): no .jpg, .jpeg or .png file in it\n"))
  }

  @Test func sequence_labels_largestBoxDrivesTheVote_andNoBoxVotesUnknown() throws {
    let folder = try temporaryFolder()
    let labels = try temporaryFolder()
    // Each frame: a small red light and a large green one; frame 2 has no label file.
    for index in 0..<3 {
      var frame = RGBImage(width: 200, height: 200, fill: (120, 160, 220))
      paste(syntheticLight(lit: .red, width: 20, height: 60), into: &frame, x: 10, y: 10)
      paste(syntheticLight(lit: .green, width: 40, height: 120), into: &frame, x: 100, y: 40)
      try writePNG(frame, to: folder + "/f\(index).png")
      if index < 2 {
        try "9 0.1 0.2 0.1 0.3\n9 0.6 0.5 0.2 0.6\n".write(
          toFile: labels + "/f\(index).txt", atomically: true, encoding: .utf8)
      }
    }
    let run = try traffic("sequence", "--profile", "seed", "--format", "jsonl", "--labels", labels, folder)
    #expect(run.status == 0)
    let records = try run.stdout.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    #expect(records.map { $0["color"] as? String } == ["green", "green", "unknown"])
    #expect(records.map { $0["smoothed"] as? String } == ["green", "green", "green"])
    let boxes = records[0]["boxes"] as? [[String: Any]]
    #expect(boxes?.map { $0["color"] as? String } == ["red", "green"])
    #expect(records[2]["note"] as? String == "no box of class 9")
  }

  @Test func sequence_timeline_drawsBothBandsAndTheChanges() throws {
    let folder = try syntheticSequence([.red, .red, .red, .green, .green, .green, .green])
    let svgPath = folder + "/timeline.svg"
    let run = try traffic("sequence", "--profile", "seed", "--window", "3", "--timeline", svgPath, folder)
    #expect(run.status == 0)
    let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    #expect(svg.hasSuffix("</svg>\n"))
    // Frame band: red 0-2, green 3-6. Smoothed band with window 3: red 0-3, green 4-6.
    #expect(svg.contains(#"class="frame" data-color="red" data-first="0" data-last="2""#))
    #expect(svg.contains(#"class="frame" data-color="green" data-first="3" data-last="6""#))
    #expect(svg.contains(#"class="smoothed" data-color="red" data-first="0" data-last="3""#))
    #expect(svg.contains(#"class="smoothed" data-color="green" data-first="4" data-last="6""#))
    #expect(svg.components(separatedBy: #"<line class="change""#).count - 1 == 2)
    #expect(svg.contains(#"<line class="change" data-frame="4""#))
  }

  @Test func sequence_badUsage_exits64() throws {
    let usage = "Usage: traffic-light sequence [options] DIR|VIDEO...\n"
    #expect(try traffic("sequence") == Run(status: 64, stdout: "", stderr: "Error: no DIR given\n" + usage))
    #expect(try traffic("sequence", "--events", "SampleFrames").status == 64)
    #expect(try traffic("sequence", "--window", "0", "SampleFrames").status == 64)
    #expect(
      try traffic("sequence", "missing.mp4").stderr == "Error: missing.mp4: no such file or folder\n" + usage)
    // A file is taken for a video: one ffmpeg cannot read is an error of the run, not of usage.
    let notVideo = try traffic("sequence", "README.md")
    #expect(notVideo.status == 1)
    #expect(
      notVideo.stderr.hasPrefix("Error: README.md: ffmpeg cannot read it as a video")
        || notVideo.stderr.hasPrefix("Error: README.md: reading a video needs ffmpeg"), "\(notVideo.stderr)")
  }
}

@Suite struct SequenceOptionTests {
  /// Every --fps outside one range gets one message: 0, a negative rate and a rate so small
  /// that times overflow (1e-18 trapped in the timeline; 1e-320 printed "time":inf).
  @Test(arguments: ["0", "-1", "1e-18", "1e-320", "2000000", "nan"])
  func fps_outOfRange_isOneClearUsageError(fps: String) throws {
    let run = try traffic([
      "sequence", "--fps", fps, "--timeline", "/tmp/never.svg", "SampleFrames/carpark-sequence",
    ])
    #expect(run.status == 64)
    #expect(run.stderr.hasPrefix("Error: --fps must be a number from 0.001 to 1000000, not '\(fps)'"))
  }

  @Test func fps_slowestAllowed_timesEveryChange() throws {
    let folder = try temporaryFolder()
    let timeline = folder + "/t.svg"
    let run = try traffic(
      "sequence", "--profile", "default", "--format", "jsonl", "--events", "--fps", "0.001", "--timeline",
      timeline, "SampleFrames/carpark-sequence")
    #expect(run.status == 0)
    #expect(!run.stdout.contains("inf"))
    #expect(FileManager.default.fileExists(atPath: timeline))
  }
}

/// Outputs are checked before any frame is read, and text says what jsonl says.
@Suite struct OutputUpFrontTests {
  @Test func timelineThatCannotBeWritten_isSaidBeforeReading() throws {
    let run = try traffic(
      "sequence", "--timeline", "/nonexistent/folder/t.svg", "SampleFrames/carpark-sequence")
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr == "Error: cannot write /nonexistent/folder/t.svg: No such file or directory\n")
  }

  @Test func textAndCSV_sayWhichRuleNamedTheColour() throws {
    let text = try traffic("classify", "SampleFrames/carpark-sequence/real_420_2.jpg")
    #expect(text.stdout.contains("  by brightnessFallback"), "\(text.stdout)")
    let csv = try traffic("classify", "--format", "csv", "SampleFrames/carpark-sequence/real_420_2.jpg")
    #expect(csv.stdout.hasSuffix(",brightnessFallback,,\n"), "\(csv.stdout)")
  }
}

/// The vote keeps short states out by design; `--events` and the stderr summary say so.
@Suite struct SuppressedStateTests {
  @Test func shortYellow_isReportedAsSuppressed() throws {
    let folder = try syntheticSequence(
      [.green, .green, .green, .yellow, .yellow] + Array(repeating: .red, count: 6))
    let events = try traffic("sequence", "--profile", "seed", "--format", "jsonl", "--events", folder)
    #expect(events.status == 0)
    #expect(
      events.stdout.contains(
        #"{"event":"suppressed","recording":"\#(folder)","frame":3,"lastFrame":4,"path":"\#(folder)/frame_3.png","color":"yellow"}"#
      ))
    let text = try traffic("sequence", "--profile", "seed", folder)
    #expect(
      text.stderr.contains("  frames 3-4, \(folder)/frame_3.png: yellow on 2 frames, kept out by the vote"))
  }
}

@Suite struct SmoothingCommandTests {
  /// The default profile smooths offline: a two-frame yellow the vote would keep out is kept,
  /// changes land on their frames, and events carry a confidence.
  @Test func sequence_default_smoothsOffline_changesOnTheirFrames() throws {
    let colors: [SignalColor] = [.green, .green, .green, .yellow, .yellow, .red, .red, .red, .red]
    let folder = try syntheticSequence(colors)
    let run = try traffic("sequence", "--format", "jsonl", "--events", "--orientation", "auto", folder)
    #expect(run.status == 0)
    let records = try run.stdout.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    let frames = records.filter { $0["event"] == nil }
    #expect(frames.map { $0["smoothed"] as? String } == colors.map(\.rawValue))
    let changes = records.filter { $0["event"] as? String == "change" }
    #expect(changes.map { $0["frame"] as? Int } == [0, 3, 5])
    #expect(
      changes.allSatisfy { (($0["confidence"] as? NSNumber)?.doubleValue).map { $0 > 0 && $0 <= 1 } ?? false }
    )
    // The vote, asked for, keeps the yellow out and says so.
    let vote = try traffic("sequence", "--smoothing", "vote", folder)
    #expect(vote.stderr.contains("yellow on 2 frames, kept out by the vote"))
    let online = try traffic("sequence", "--delay", "1", "--format", "jsonl", "--orientation", "auto", folder)
    #expect(online.stdout.split(separator: "\n").count == colors.count)
    #expect(online.stdout.contains(#""smoothed":"yellow""#))
  }

  @Test func sequence_windowAndDelayInSeconds_needFPS_andFitTheirSmoothing() throws {
    let folder = try syntheticSequence([.red, .red, .green])
    #expect(
      try traffic("sequence", "--window", "0.5s", folder).stderr.contains("--window in seconds needs --fps"))
    #expect(try traffic("sequence", "--window", "1.5s", "--fps", "2", folder).status == 0)
    #expect(try traffic("sequence", "--delay", "0.5s", "--fps", "4", folder).status == 0)
    #expect(try traffic("sequence", "--smoothing", "offline", "--window", "3", folder).status == 64)
    #expect(try traffic("sequence", "--smoothing", "vote", "--delay", "3", folder).status == 64)
    #expect(try traffic("sequence", "--smoothing", "sometimes", folder).status == 64)
    #expect(try traffic("sequence", "--window", "-1s", "--fps", "2", folder).status == 64)
  }

  /// `evaluate` on a labelled recording: frames/ and labels.csv of index,file,state, in the
  /// order of index (not of the rows).
  @Test func evaluate_labelledRecording_scoresFramesAndSmoothed() throws {
    let colors: [SignalColor] = [.green, .green, .green, .red, .red, .red]
    let source = try syntheticSequence(colors)
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
    var rows = ["index,file,state"]
    for (index, color) in colors.enumerated() {
      try FileManager.default.copyItem(
        atPath: source + "/frame_\(index).png", toPath: folder + "/frames/f\(index).png")
      rows.append("\(index * 10),f\(index).png,\(color.rawValue)")
    }
    try (rows[0] + "\n" + rows.dropFirst().reversed().joined(separator: "\n") + "\n").write(
      toFile: folder + "/labels.csv", atomically: true, encoding: .utf8)
    let run = try traffic("evaluate", "--format", "jsonl", "--orientation", "auto", folder)
    #expect(run.status == 0)
    let record = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    #expect(record["lit"] as? Int == 6)
    #expect((record["frames"] as? [String: Any])?["right"] as? Int == 6)
    #expect((record["smoothed"] as? [String: Any])?["right"] as? Int == 6)
    #expect(record["changes"] as? Int == 1 && record["changesWithinTwo"] as? Int == 1)
    #expect(record["medianLag"] as? Double == 0)
    let text = try traffic("evaluate", "--smoothing", "vote", "--orientation", "auto", folder)
    #expect(text.stdout.contains("smoothing vote"))
  }
}

@Suite struct RecordingReportTests {
  /// Event records come in frame order, whatever the smoothing, and a state kept out is one
  /// the smoothed colour never showed on its frames (not one it took a few frames later).
  @Test(arguments: ["vote", "offline", "online"])
  func events_comeInFrameOrder_andKeptOutMeansNeverShown(smoothing: String) throws {
    let g = SignalColor.green
    let (y, r) = (SignalColor.yellow, SignalColor.red)
    let folder = try syntheticSequence(
      [g, g, g, g, g, g, y, y, g, g] + Array(repeating: r, count: 12) + [g, g, g, y, y, y]
        + Array(repeating: r, count: 9))
    let run = try traffic([
      "sequence", "--profile", "seed", "--format", "jsonl", "--events", "--smoothing", smoothing, folder,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    var smoothed: [Int: String] = [:]
    var eventFrames: [Int] = []
    var keptOut: [(first: Int, last: Int, color: String)] = []
    for line in run.stdout.split(separator: "\n") {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let frame = try #require(object["frame"] as? Int)
      if let event = object["event"] as? String {
        eventFrames.append(frame)
        if event == "suppressed" {
          keptOut.append(
            (frame, try #require(object["lastFrame"] as? Int), try #require(object["color"] as? String)))
        }
      } else {
        smoothed[frame] = object["smoothed"] as? String
      }
    }
    #expect(eventFrames == eventFrames.sorted(), "\(eventFrames)")
    // The vote keeps the two yellow frames out; the state model shows them.
    #expect(smoothing != "vote" || !keptOut.isEmpty)
    for state in keptOut {
      #expect(
        !(state.first...state.last).contains { smoothed[$0] == state.color },
        "\(state) was shown on its frames")
    }
  }
}
