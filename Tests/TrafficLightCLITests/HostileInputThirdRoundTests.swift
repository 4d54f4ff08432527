import Foundation
import Testing
import TrafficLightTestSupport

/// The third round of hostile and careless inputs: each test fails on the tool before its fix.
@Suite struct HostileInputThirdRoundTests {
  /// `"error":null` is no error, and a file named twice is counted once, with a note.
  @Test func summarize_nullErrorIsNoError_andAFileNamedTwiceCountsOnce() throws {
    let folder = try temporaryFolder()
    let file = folder + "/a.jsonl"
    let lines = [
      #"{"path":"r/f_0.png","recording":"r","frame":0,"color":"red","smoothed":"red","error":null}"#,
      #"{"path":"r/f_1.png","recording":"r","frame":1,"color":"green","smoothed":"green"}"#,
    ]
    try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let run = try traffic("summarize", "--format", "jsonl", file, folder + "/./a.jsonl")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == #"{"recording":"r","frames":2,"red":1,"yellow":0,"green":1,"unknown":0,"changes":1,"errors":0}"#
        + "\n")
    #expect(run.stderr == "Note: \(folder)/./a.jsonl: named twice: counted once\n")
  }
}

@Suite struct MaskHostileInputTests {
  /// A mask whose name is a link to an input replaces the link; the input is untouched.
  @Test func mask_throughASymlink_replacesTheLink_notItsTarget() throws {
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder + "/masks", withIntermediateDirectories: true)
    let source = CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence/real_400_2.jpg"
    try FileManager.default.copyItem(atPath: source, toPath: folder + "/in/a.jpg")
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/masks/a.mask.png", withDestinationPath: "../in/a.jpg")
    let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/in/a.jpg"))
    let run = try traffic("classify", "--mask", folder + "/masks", folder + "/in")
    #expect(run.status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/in/a.jpg")) == before)
    let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/masks/a.mask.png")
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/masks/a.mask.png"))
    #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
  }

  /// d1/a.jpg, d2/a.jpg and d3/a-2.jpg get three masks, and the notes name the files written.
  @Test func mask_collidingNames_everyInputGetsItsOwn() throws {
    let folder = try temporaryFolder()
    let source = CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence/real_400_2.jpg"
    for (sub, name) in [("d1", "a"), ("d2", "a"), ("d3", "a-2")] {
      try FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: source, toPath: "\(folder)/\(sub)/\(name).jpg")
    }
    let masks = folder + "/masks"
    let run = try traffic("classify", "--mask", masks, folder + "/d1", folder + "/d2", folder + "/d3")
    #expect(run.status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: masks).sorted() == [
        "a-2-2.mask.png", "a-2.mask.png", "a.mask.png",
      ])
    #expect(run.stderr.contains("\(folder)/d2/a.jpg: mask written as \(masks)/a-2.mask.png"))
    #expect(run.stderr.contains("\(folder)/d3/a-2.jpg: mask written as \(masks)/a-2-2.mask.png"))
  }

  /// Masks written into the folder of frames are not read back as frames by the next run.
  @Test func masksInTheInputFolder_areNotReadAsFrames() throws {
    let folder = try syntheticSequence([.red, .red, .green])
    let first = try traffic("sequence", "--mask", folder, "--format", "jsonl", folder)
    #expect(first.status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mask.png") }.count
        == 3)
    let second = try traffic("sequence", "--format", "jsonl", folder)
    #expect(second.status == 0)
    #expect(second.stdout.split(separator: "\n").count == 3)
    #expect(second.stderr.contains("3 masks (*.mask.png, *.mask.jpg)"))
  }

  /// SIGINT while hundreds of workers write masks leaves no partial file behind.
  @Test(arguments: [64, 512])
  func interruptedMaskRun_leavesNoPartialFiles(jobs: Int) throws {
    let folder = try temporaryFolder()
    let masks = folder + "/masks"
    let process = Process()
    process.executableURL = CLIPaths.binary
    process.arguments =
      ["classify", "--jobs", String(jobs), "--mask", masks, "--format", "jsonl"]
      + Array(repeating: "SampleFrames", count: 60)
    process.currentDirectoryURL = CLIPaths.packageRoot
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    var seen = 0
    while Date() < deadline && process.isRunning {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: masks)) ?? []
      seen = names.filter { $0.hasPrefix(".traffic-light-partial-") }.count
      if seen > 0 { break }
      usleep(200)
    }
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    let left = ((try? FileManager.default.contentsOfDirectory(atPath: masks)) ?? []).filter {
      $0.hasPrefix(".traffic-light-partial-")
    }
    #expect(
      left.isEmpty,
      "\(left.count) partial files left at --jobs \(jobs), status \(process.terminationStatus) \(process.terminationReason == .uncaughtSignal ? "signal" : "exit")"
    )
  }
}

@Suite struct BoxesHostileInputTests {
  /// Coordinates near the integer limits are refused with the line named, not a crash.
  @Test(arguments: [
    "a.jpg,red,-9223372036854775808,0,9223372036854775807,10",
    "a.jpg,red,4611686018427387904,0,4611686018427387905,10",
  ])
  func evaluate_boxesNearTheIntegerLimits_areRefusedNamingTheLine(row: String) throws {
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence/real_400_2.jpg",
      toPath: folder + "/frames/a.jpg")
    try "file,state,xmin,ymin,xmax,ymax\n\(row)\n".write(
      toFile: folder + "/boxes.csv", atomically: true, encoding: .utf8)
    let run = try traffic("evaluate", folder)
    #expect(run.status == 1 || run.status == 64)
    #expect(run.stderr.contains("boxes.csv:2: a box needs whole numbers from -1073741824 to 1073741824"))
  }
}

@Suite struct UnreadableInEvaluateTests {
  /// Whole frames with boxes: a frame that cannot be read is named, left out of the figures,
  /// and the run exits 1, as classify does and as crops are treated.
  @Test func evaluate_boxedFrames_unreadableFrameIsLeftOut_andExitsOne() throws {
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence/real_400_2.jpg",
      toPath: folder + "/frames/a.jpg")
    try Data("not a JPEG".utf8).write(to: URL(fileURLWithPath: folder + "/frames/b.jpg"))
    try "file,state,xmin,ymin,xmax,ymax\nb.jpg,red,10,10,40,100\n".write(
      toFile: folder + "/boxes.csv", atomically: true, encoding: .utf8)
    let run = try traffic("evaluate", "--format", "jsonl", folder)
    #expect(run.status == 1)
    #expect(run.stderr.contains("b.jpg"))
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    #expect(object["frames"] as? Int == 1)
    #expect(object["labelled"] as? Int == 0)
    #expect(object["unreadable"] as? Int == 1)
  }

  /// A labelled recording keeps an unreadable frame in its time line, names it, and exits 1.
  @Test func evaluate_recording_unreadableFrameIsNamed_andExitsOne() throws {
    let source = try syntheticSequence([.green, .green, .green])
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
    for index in 0..<3 {
      try FileManager.default.copyItem(
        atPath: source + "/frame_\(index).png", toPath: folder + "/frames/f\(index).png")
    }
    try Data("not a PNG".utf8).write(to: URL(fileURLWithPath: folder + "/frames/f3.png"))
    try "index,file,state\n0,f0.png,green\n1,f1.png,green\n2,f2.png,green\n3,f3.png,green\n".write(
      toFile: folder + "/labels.csv", atomically: true, encoding: .utf8)
    let run = try traffic("evaluate", "--format", "jsonl", "--orientation", "auto", folder)
    #expect(run.status == 1)
    #expect(run.stderr.contains("f3.png"))
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    #expect(object["lit"] as? Int == 4)
    #expect((object["smoothed"] as? [String: Any])?["right"] as? Int == 4)
  }
}

@Suite struct StudyOutputsHostileInputTests {
  /// `calibrate -o` and `evaluate --candidates` never write over a file they read, by any
  /// path or link: usage error, the file untouched.
  @Test func studyOutputs_refuseToOverwriteTheirInputs() throws {
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/red", withIntermediateDirectories: true)
    let image = folder + "/red/a.jpg"
    try FileManager.default.copyItem(
      atPath: CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence/real_500_1.jpg", toPath: image)
    let before = try Data(contentsOf: URL(fileURLWithPath: image))
    try FileManager.default.createSymbolicLink(atPath: folder + "/link.json", withDestinationPath: image)
    for target in [image, folder + "/red/../red/a.jpg", folder + "/link.json"] {
      let run = try traffic("calibrate", folder, "-o", target)
      #expect(run.status == 64, "\(target)")
      #expect(run.stderr.contains("is one of the inputs: refusing to overwrite it"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: image)) == before)
    // Boxed frames: the labels file.
    let frames = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: frames + "/frames", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence/real_400_2.jpg",
      toPath: frames + "/frames/a.jpg")
    let labels = "file,state,xmin,ymin,xmax,ymax\na.jpg,green,10,10,40,100\n"
    try labels.write(toFile: frames + "/boxes.csv", atomically: true, encoding: .utf8)
    let run = try traffic("evaluate", "--candidates", frames + "/boxes.csv", frames)
    #expect(run.status == 64)
    #expect(try String(contentsOfFile: frames + "/boxes.csv", encoding: .utf8) == labels)
  }
}

@Suite struct CarelessArgumentsTests {
  /// A flag refuses an inline value: `--lenient=no` is an error, not leniency.
  @Test func flags_refuseAnInlineValue() throws {
    let run = try traffic("classify", "--lenient=no", "SampleFrames/stills/red")
    #expect(run.status == 64)
    #expect(run.stderr.hasPrefix("Error: --lenient takes no value, not '--lenient=no'\n"))
    #expect(try traffic("evaluate", "--misses=yes", "SampleFrames/stills").status == 64)
  }

  /// `-o -` is standard output: no file named `-` appears.
  @Test func output_dash_isStandardOutput() throws {
    let folder = try temporaryFolder()
    let stills = CLIPaths.packageRoot.path + "/SampleFrames/stills/red"
    let run = try traffic(["classify", "-o", "-", "--format", "jsonl", stills], in: folder)
    #expect(run.status == 0)
    #expect(run.stdout.split(separator: "\n").count == 4)
    #expect(!FileManager.default.fileExists(atPath: folder + "/-"))
    #expect(try traffic(["calibrate", stills, "-o", "-"], in: folder).status == 64)
  }

  /// Two `--files-from` lists are both read.
  @Test func filesFrom_twice_readsBothLists() throws {
    let folder = try temporaryFolder()
    let stills = CLIPaths.packageRoot.path + "/SampleFrames/stills"
    try "\(stills)/red\n".write(toFile: folder + "/a.txt", atomically: true, encoding: .utf8)
    try "\(stills)/green\n".write(toFile: folder + "/b.txt", atomically: true, encoding: .utf8)
    let run = try traffic(
      "classify", "--format", "jsonl", "--files-from", folder + "/a.txt", "--files-from", folder + "/b.txt")
    #expect(run.status == 0)
    #expect(run.stdout.contains("/stills/red/") && run.stdout.contains("/stills/green/"))
  }

  /// A folder named twice is read once and said so; a recording named twice is refused.
  @Test func folderNamedTwice_isReadOnce_andARecordingNamedTwiceIsRefused() throws {
    let stills = "SampleFrames/stills/red"
    let once = try traffic("classify", "--format", "jsonl", stills)
    let twice = try traffic("classify", "--format", "jsonl", stills, stills + "/")
    #expect(twice.status == 0)
    #expect(twice.stdout == once.stdout)
    #expect(
      twice.stderr.contains(
        "Note: skipped \(stills)/: named twice, or inside a folder named before: read once"))
    #expect(!twice.stderr.contains("loop"))
    let sequence = try traffic("sequence", "SampleFrames/carpark-sequence", "SampleFrames/carpark-sequence/")
    #expect(sequence.status == 64)
    #expect(
      sequence.stderr.hasPrefix(
        "Error: SampleFrames/carpark-sequence/ is SampleFrames/carpark-sequence again: each recording is named once"
      ))
  }

  /// One very long bogus path does not pad every row of the text table to its length.
  @Test func text_longPath_doesNotPadEveryRow() throws {
    let folder = try temporaryFolder()
    let stills = CLIPaths.packageRoot.path + "/SampleFrames/stills/red"
    try "\(stills)\n\(String(repeating: "x", count: 100_000))\n".write(
      toFile: folder + "/list.txt", atomically: true, encoding: .utf8)
    let run = try traffic("classify", "--files-from", folder + "/list.txt")
    #expect(run.status == 1)
    #expect(run.stdout.utf8.count < 100_000 + 20 * 200)
  }
}

@Suite struct MemoryBudgetWholeRunTests {
  /// Each box's reading counts inside --max-memory: 60,000 boxes on one image need about
  /// 250 MB, so a budget of 100M refuses the image, naming it.
  @Test func boxesReadings_countInsideTheBudget() throws {
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/img", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder + "/labels", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence/real_400_2.jpg",
      toPath: folder + "/img/a.jpg")
    let line = "9 0.5 0.5 0.01 0.03\n"
    try String(repeating: line, count: 60_000).write(
      toFile: folder + "/labels/a.txt", atomically: true, encoding: .utf8)
    let run = try traffic("classify", "--labels", folder + "/labels", "--max-memory", "100M", folder + "/img")
    #expect(run.status == 1)
    #expect(run.stdout.contains("more than the memory budget of 100 MB (--max-memory)"))
    let small = try traffic(
      "classify", "--labels", folder + "/labels", "--max-memory", "400M", "--format", "jsonl", folder + "/img"
    )
    #expect(small.status == 0)
  }

  /// A mask's picture and encoding count inside --max-memory: a frame that fits the budget
  /// alone does not with its mask.
  @Test func masks_countInsideTheBudget() throws {
    // A 1000x1000 PNG: its decode is estimated at about 18 MB, its mask at 8 MB more.
    let folder = try temporaryFolder()
    let frame = folder + "/frame.png"
    try writePNG(syntheticLight(lit: .red, width: 1000, height: 1000), to: frame)
    let masks = folder + "/masks"
    let plain = try traffic("classify", "--find-lights", "--max-memory", "20M", frame)
    #expect(plain.status == 0)
    let masked = try traffic("classify", "--find-lights", "--mask", masks, "--max-memory", "20M", frame)
    #expect(masked.status == 1)
    #expect(masked.stdout.contains("more than the memory budget of 20 MB (--max-memory)"))
    let roomy = try traffic("classify", "--find-lights", "--mask", masks, "--max-memory", "40M", frame)
    #expect(roomy.status == 0)
  }
}
