import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightTestSupport

@Suite struct ClassifyCommandTests {
  @Test(arguments: ["text", "jsonl", "csv"])
  func classify_sampleFrames_matchesTheRecordedRun(format: String) throws {
    let run = try traffic("classify", "--profile", "seed", "--format", format, "SampleFrames")
    #expect(
      run
        == Run(
          status: 0, stdout: try CLIPaths.expected("classify-sampleframes-seed.\(format)"),
          stderr: try CLIPaths.expected("classify-sampleframes.stderr")))
  }

  @Test func classify_text_isAnAlignedTable() throws {
    let run = try traffic("classify", "--profile=seed", "SampleFrames")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 25)
    #expect(lines[0].hasPrefix("PATH "))
    let colorColumn = lines[0].range(of: "COLOR")!.lowerBound.utf16Offset(in: lines[0])
    for line in lines.dropFirst() {
      let word = line.dropFirst(colorColumn).prefix { $0 != " " }
      #expect(["red", "yellow", "green", "unknown"].contains(word), "\(line)")
    }
  }

  @Test func classify_jsonl_linesAreJSONObjectsWithPathColorAndCounts() throws {
    let run = try traffic("classify", "--format", "jsonl", "SampleFrames/stills")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 12)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["path"] is String)
      #expect(["red", "yellow", "green", "unknown"].contains(object?["color"] as? String ?? ""))
      #expect((object?["counts"] as? [String: Int])?.keys.sorted() == ["green", "red", "yellow"])
    }
  }

  @Test func classify_jsonl_namesTheRuleWhenItIsNotTheVote() throws {
    // The car-park lamps are white: mostly no point has a colour, so brightness or a faint
    // tint decides; the US stills' lamps keep their hue, so the vote does.
    let run = try traffic(
      "classify", "--format", "jsonl", "SampleFrames/carpark-sequence", "SampleFrames/stills/red")
    let objects = try run.stdout.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
    #expect(objects.count == 16)
    let rules = objects.map { $0["decidedBy"] as? String }
    #expect(rules.prefix(12).count { $0 == "brightnessFallback" || $0 == "faintLamp" } >= 10)
    #expect(rules.suffix(4).allSatisfy { $0 == nil })
    // Those two rules speak only when no point voted; the vote, only when some did.
    for (object, rule) in zip(objects, rules) {
      let voted = (object["counts"] as? [String: Int])?.values.reduce(0, +) ?? -1
      #expect(rule == nil ? voted > 0 : voted == 0)
    }
    #expect(!rules.contains("warmSplit"))  // (which speaks after a vote)
    let seed = try traffic(
      "classify", "--profile", "seed", "--format", "jsonl", "SampleFrames/carpark-sequence")
    #expect(!seed.stdout.contains("decidedBy"))
  }

  /// A 416x416 photo is searched as a frame, and says so: an orange wall is no light. Read
  /// whole as one light's crop (what the bound of 512x512 did), the wall reads red.
  @Test func classify_smallPhoto_isSearched_andSaysHowItWasRead() throws {
    let folder = try temporaryFolder()
    var photo = RGBImage(width: 416, height: 416, fill: (120, 130, 140))
    for y in 0..<200 { for x in 0..<416 { photo[x, y] = (225, 85, 40) } }
    try writePNG(photo, to: folder + "/wall.png")
    let run = try traffic("classify", "--format", "csv", folder + "/wall.png")
    #expect(run.status == 0)
    #expect(
      run.stdout.split(separator: "\n").last
        == "\(folder)/wall.png,frame,,,,,unknown,0.00,,,,,,no light found")
    let whole = try traffic("classify", "--format", "csv", "--whole-image", folder + "/wall.png")
    #expect(whole.stdout.split(separator: "\n").last?.hasPrefix("\(folder)/wall.png,crop,,,,,red,") == true)
  }

  @Test func classify_csv_hasAHeaderAndOneRowPerImage() throws {
    let run = try traffic("classify", "--format", "csv", "SampleFrames/stills/red")
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.first
        == "path,read,region_x,region_y,region_width,region_height,color,confidence,red,yellow,green,decided_by,error,note"
    )
    #expect(lines.count == 5)
    #expect(
      lines.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 14 })
  }

  @Test func classify_naturalOrder_andBadFilesAmongGoodOnes_reportsEveryOne_andExitsOne() throws {
    let folder = try temporaryFolder()
    for (name, color) in [
      ("frame_1.png", SignalColor.red), ("frame_10.png", .green), ("frame_9.png", .yellow),
    ] {
      try writePNG(syntheticLight(lit: color), to: folder + "/" + name)
    }
    try Data("not an image".utf8).write(to: URL(fileURLWithPath: folder + "/frame_2.jpg"))
    let good = try Data(contentsOf: URL(fileURLWithPath: folder + "/frame_1.png"))
    try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: folder + "/frame_3.png"))
    try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
    let run = try traffic("classify", "--profile", "seed", "--format", "jsonl", folder)
    #expect(run.status == 1)
    let counts = #"{"red":2,"yellow":0,"green":0}"#
    #expect(
      run.stdout.split(separator: "\n").map(String.init) == [
        #"{"path":"\#(folder)/frame_1.png","read":"crop","color":"red","counts":\#(counts),"confidence":1}"#,
        #"{"path":"\#(folder)/frame_2.jpg","error":"not a JPEG or PNG file"}"#,
        #"{"path":"\#(folder)/frame_3.png","error":"corrupt PNG: read beyond end of data"}"#,
        #"{"path":"\#(folder)/frame_9.png","read":"crop","color":"yellow","counts":{"red":0,"yellow":3,"green":0},"confidence":1}"#,
        #"{"path":"\#(folder)/frame_10.png","read":"crop","color":"green","counts":{"red":0,"yellow":0,"green":2},"confidence":1}"#,
      ])
    #expect(run.stderr == "Note: skipped 1 files not named like an image (--verbose names them)\n")
    let verbose = try traffic("classify", "--profile", "seed", "--format", "jsonl", "--verbose", folder)
    #expect(
      verbose.stderr == "Note: skipped \(folder)/notes.txt: not named like an image (.jpg, .jpeg, .png)\n")
  }

  @Test func classify_fifoAndLinkLoop_doNotHang() throws {
    let folder = try temporaryFolder()
    try writePNG(syntheticLight(lit: .green), to: folder + "/a.png")
    #expect(mkfifo(folder + "/x.jpg", 0o644) == 0)
    try FileManager.default.createSymbolicLink(atPath: folder + "/loop", withDestinationPath: folder)
    let run = try traffic("classify", "--format", "jsonl", "--profile", "seed", folder)
    #expect(run.status == 1)
    #expect(run.stdout.contains(#""path":"\#(folder)/a.png","read":"crop","color":"green""#))
    #expect(run.stdout.contains(#"{"path":"\#(folder)/x.jpg","error":"not a regular file"}"#))
    #expect(run.stderr.contains("Note: skipped \(folder)/loop: folder already read"))
  }

  @Test func classify_folderWithNoImage_isAnError_andTheOthersAreStillRead() throws {
    let empty = try temporaryFolder()
    _ = FileManager.default.createFile(atPath: empty + "/frame_0.bmp", contents: Data())
    let full = try temporaryFolder()
    try writePNG(syntheticLight(lit: .green), to: full + "/a.png")
    let run = try traffic("classify", "--format", "jsonl", "--profile", "seed", empty, full)
    #expect(run.status == 1)
    #expect(run.stdout.contains(#""path":"\#(full)/a.png","read":"crop","color":"green""#))
    #expect(run.stderr.contains("Error: \(empty): no .jpg, .jpeg or .png file in it or its subfolders\n"))
    #expect(try traffic("classify", "--profile", "seed", full).status == 0)
  }

  @Test func classify_missingFile_isAnErrorRowInText() throws {
    let run = try traffic("classify", "--profile", "seed", "/nonexistent/x.jpg")
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        PATH                READ   REGION               COLOR    CONF   RED  YELLOW  GREEN
        /nonexistent/x.jpg  -      -                    error    -      No such file or directory

        """)
  }

  /// jsonl gives the evidence of a reading: the lit lamp the light was placed from, its
  /// colour, and the housing read, in the image's pixels; a reading of the region whole
  /// (`seed`, or no lamp seen) gives none of them.
  @Test func classify_jsonl_saysWhichLampWasRead_andWhere() throws {
    let folder = try temporaryFolder()
    var frame = RGBImage(width: 100, height: 150, fill: (120, 160, 220))
    paste(syntheticLight(lit: .green), into: &frame, x: 40, y: 30)
    try writePNG(frame, to: folder + "/light.png")
    try writePNG(RGBImage(width: 40, height: 90, fill: (120, 120, 120)), to: folder + "/grey.png")
    let run = try traffic("classify", "--format", "jsonl", folder)
    let objects = try run.stdout.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
    #expect(objects.count == 2)
    #expect(objects[0]["color"] as? String == "unknown" && objects[0]["lamp"] == nil)
    #expect(objects[1]["color"] as? String == "green" && objects[1]["lampColor"] as? String == "green")
    let lamp = try #require(objects[1]["lamp"] as? [Int])
    let housing = try #require(objects[1]["housing"] as? [Int])
    // The green lamp lies in the bottom third of the 30 by 90 light at (40, 30).
    #expect(lamp.count == 4 && lamp[0] >= 40 && lamp[0] + lamp[2] <= 70, "\(lamp)")
    #expect(lamp[1] >= 90 && lamp[1] + lamp[3] <= 120, "\(lamp)")
    #expect(housing.count == 4 && housing[1] <= lamp[1] && housing[1] + housing[3] >= lamp[1] + lamp[3])
    let seed = try traffic("classify", "--profile", "seed", "--format", "jsonl", folder)
    #expect(!seed.stdout.contains("\"lamp\"") && !seed.stdout.contains("\"housing\""))
  }

  @Test func classify_roi_readsOnlyThatRectangle() throws {
    let folder = try temporaryFolder()
    var frame = RGBImage(width: 100, height: 90, fill: (120, 160, 220))
    paste(syntheticLight(lit: .red), into: &frame, x: 10, y: 0)
    paste(syntheticLight(lit: .green), into: &frame, x: 60, y: 0)
    try writePNG(frame, to: folder + "/frame.png")
    let left = try traffic("classify", "--profile", "seed", "--format", "csv", "--roi", "10,0,30,90", folder)
    #expect(
      left.stdout.split(separator: "\n").last == "\(folder)/frame.png,region,10,0,30,90,red,1.00,2,0,0,,,")
    // Clipped to the image.
    let right = try traffic(
      "classify", "--profile", "seed", "--format", "csv", "--roi", "60,-20,30,200", folder)
    #expect(
      right.stdout.split(separator: "\n").last == "\(folder)/frame.png,region,60,0,30,90,green,1.00,0,0,2,,,")
    #expect(try traffic("classify", "--roi", "1,2,3", folder).status == 64)
    // Wholly outside: unknown, and said.
    let outside = try traffic(
      "classify", "--profile", "seed", "--format", "csv", "--roi", "500,0,30,90", folder)
    #expect(outside.status == 0)
    #expect(
      outside.stdout.split(separator: "\n").last
        == "\(folder)/frame.png,region,,,,,unknown,0.00,0,0,0,,,outside the image")
    #expect(
      outside.stderr
        == "Note: \(folder)/frame.png: --roi 500,0,30,90 lies outside the image: read as unknown\n")
  }

  @Test func classify_turnsPhonePhotos_byTheirExifOrientation() throws {
    // A phone stores a portrait photo sideways and tags it "turn 90 degrees clockwise" (6).
    let folder = try temporaryFolder()
    let sideways = ExifOrientation.rotated270.display(syntheticLight(lit: .green))
    #expect(ExifOrientation.rotated90.display(sideways) == syntheticLight(lit: .green))
    let tag = exifTIFF(orientation: 6)
    try Data(withExifChunk(try ImageEncoder.png(sideways), tag)).write(
      to: URL(fileURLWithPath: folder + "/a.png"))
    try Data(withExif(try ImageEncoder.jpeg(sideways, quality: 95), tag))
      .write(to: URL(fileURLWithPath: folder + "/b.jpg"))
    let turned = try traffic("classify", "--profile", "seed", "--format", "csv", folder)
    #expect(
      turned.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] } == [
        "green", "green",
      ])
    // As stored, the centre column crosses only the dark middle lamp.
    let stored = try traffic(
      "classify", "--profile", "seed", "--format", "csv", "--ignore-exif-orientation", folder)
    #expect(
      stored.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] } == [
        "unknown", "unknown",
      ])

    // --roi is in the turned picture's pixels.
    var frame = RGBImage(width: 100, height: 90, fill: (120, 160, 220))
    paste(syntheticLight(lit: .red), into: &frame, x: 10, y: 0)
    paste(syntheticLight(lit: .green), into: &frame, x: 60, y: 0)
    let photo = try temporaryFolder() + "/photo.png"
    try Data(withExifChunk(try ImageEncoder.png(ExifOrientation.rotated270.display(frame)), tag))
      .write(to: URL(fileURLWithPath: photo))
    let left = try traffic("classify", "--profile", "seed", "--format", "csv", "--roi", "10,0,30,90", photo)
    #expect(left.stdout.split(separator: "\n").last == "\(photo),region,10,0,30,90,red,1.00,2,0,0,,,")
  }

  @Test func classify_labels_readEachBoxOfTheChosenClass() throws {
    let folder = try temporaryFolder()
    let labels = try temporaryFolder()
    var frame = RGBImage(width: 200, height: 100, fill: (120, 160, 220))
    paste(syntheticLight(lit: .red), into: &frame, x: 20, y: 5)
    paste(syntheticLight(lit: .green), into: &frame, x: 120, y: 5)
    try writePNG(frame, to: folder + "/cam_1.png")
    try writePNG(frame, to: folder + "/cam_2.png")
    // Two traffic lights (class 9) and a car (class 2); cam_2 has no label file.
    try """
    9 0.175 0.5 0.15 0.9
    2 0.5 0.5 0.2 0.2
    9 0.675 0.5 0.15 0.9

    """.write(toFile: labels + "/cam_1.txt", atomically: true, encoding: .utf8)
    let run = try traffic("classify", "--profile", "seed", "--format", "jsonl", "--labels", labels, folder)
    #expect(run.status == 0)
    #expect(
      run.stdout.split(separator: "\n").map(String.init) == [
        #"{"path":"\#(folder)/cam_1.png","read":"box","region":{"x":20,"y":5,"width":30,"height":90},"color":"red","counts":{"red":2,"yellow":0,"green":0},"confidence":1}"#,
        #"{"path":"\#(folder)/cam_1.png","read":"box","region":{"x":120,"y":5,"width":30,"height":90},"color":"green","counts":{"red":0,"yellow":0,"green":2},"confidence":1}"#,
        #"{"path":"\#(folder)/cam_2.png","read":"box","color":"unknown","counts":{"red":0,"yellow":0,"green":0},"confidence":0,"note":"no box of class 9"}"#,
      ])
    let cars = try traffic(
      "classify", "--profile", "seed", "--format", "csv", "--labels", labels, "--label-class", "2", folder)
    #expect(
      cars.stdout.split(separator: "\n")[1]
        == "\(folder)/cam_1.png,box,80,40,40,20,unknown,0.00,0,0,0,,,dark lamps: no coloured point")
    try "9 0.5 0.5 wide 0.2\n".write(toFile: labels + "/cam_2.txt", atomically: true, encoding: .utf8)
    let broken = try traffic(
      "classify", "--profile", "seed", "--format", "jsonl", "--labels", labels, folder + "/cam_2.png")
    #expect(broken.status == 1)
    #expect(
      broken.stdout
        == #"{"path":"\#(folder)/cam_2.png","error":"\#(labels)/cam_2.txt:1: 'wide' is not a number between 0 and 1"}"#
        + "\n")
  }

  @Test func classify_mask_paintsTheClassesAndRingsTheSamplePoints() throws {
    let folder = try temporaryFolder()
    let masks = folder + "/masks"
    try writePNG(syntheticLight(lit: .red), to: folder + "/light.png")
    let run = try traffic("classify", "--profile", "seed", "--mask", masks, folder + "/light.png")
    #expect(run.status == 0)
    let mask = try ImageDecoder().decode(fileAt: masks + "/light.mask.png").pixels
    // A 30x90 crop is drawn 8 times larger, so a person can see it: each map pixel an 8x8 square.
    #expect(mask.width == 240 && mask.height == 720)
    // Sample points at x = 15, y = 11, 22, ...: the first two on the lit red lamp.
    #expect(mask[15 * 8 + 4, 11 * 8 + 4] == (255, 0, 0))
    #expect(mask[15 * 8 + 4, 22 * 8 + 4] == (255, 0, 0))
    #expect(mask[15 * 8 - 2, 11 * 8 + 4] == (255, 255, 255))  // the ring around the point's square
    #expect(mask[15 * 8 + 4, 45 * 8 + 4] == (0, 0, 0))  // dark housing: none
    #expect(mask[2 * 8, 45 * 8] == (0, 0, 0))
    // Two inputs of one file name: the second mask's name is said.
    let other = try temporaryFolder()
    try writePNG(syntheticLight(lit: .green), to: other + "/light.png")
    let twice = try traffic(
      "classify", "--profile", "seed", "--mask", masks, folder + "/light.png", other + "/light.png")
    #expect(
      twice.stderr
        == "Note: \(other)/light.png: mask written as \(masks)/light-2.mask.png (an earlier input has the same file name)\n"
    )
  }

  @Test func classify_jobs_keepInputOrder() throws {
    let one = try traffic("classify", "--profile", "seed", "--format", "jsonl", "--jobs", "1", "SampleFrames")
    let two = try traffic("classify", "--profile", "seed", "--format", "jsonl", "--jobs", "2", "SampleFrames")
    #expect(one.stdout == two.stdout)
    #expect(one.stdout == (try CLIPaths.expected("classify-sampleframes-seed.jsonl")))
  }

  @Test func output_isWrittenAtomically_andSurvivesAFailedRun() throws {
    let folder = try temporaryFolder()
    let output = folder + "/results.jsonl"
    try "earlier results\n".write(toFile: output, atomically: true, encoding: .utf8)
    // A run that fails before it reads anything leaves the file as it was, with no litter.
    let bad = try traffic("classify", "--output", output, "--profile", "nope", "SampleFrames")
    #expect(bad.status == 64)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "earlier results\n")
    // An interrupted run leaves it too: a run of 2000 frames, still writing when it is stopped
    // however long this test takes to see it start (a few dozen images finished first on a
    // busy machine under a sanitizer).
    let inputs = try temporaryFolder()
    try writePNG(syntheticFrame([(.red, 140, 40)]), to: inputs + "/frame-0.png")
    for k in 1..<2000 {
      try FileManager.default.copyItem(atPath: inputs + "/frame-0.png", toPath: inputs + "/frame-\(k).png")
    }
    let process = Process()
    process.executableURL = CLIPaths.binary
    process.arguments = ["classify", "--jobs", "1", "--output", output, inputs]
    process.currentDirectoryURL = CLIPaths.packageRoot
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Stop it once it is writing: its temporary file exists.
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline,
      !(try FileManager.default.contentsOfDirectory(atPath: folder)).contains(where: {
        $0.hasPrefix(".traffic-light-partial-")
      })
    {
      usleep(1000)
    }
    process.terminate()
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus == 128 + SIGTERM)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "earlier results\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["results.jsonl"], "litter")
    // A complete run replaces it.
    let good = try traffic(
      "classify", "--output", output, "--profile", "seed", "--format", "jsonl", "SampleFrames")
    #expect(good.status == 0 && good.stdout.isEmpty)
    #expect(
      try String(contentsOfFile: output, encoding: .utf8)
        == (try CLIPaths.expected("classify-sampleframes-seed.jsonl")))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["results.jsonl"])
  }

  @Test func output_toADevice_isWrittenInPlace_notReplaced() throws {
    let run = try traffic("classify", "--output", "/dev/null", "SampleFrames/stills/red")
    #expect(run.status == 0 && run.stdout.isEmpty)
    var status = stat()
    #expect(stat("/dev/null", &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFCHR)
  }

  @Test func output_neverOverwritesAnInput() throws {
    let folder = try temporaryFolder()
    try writePNG(syntheticLight(lit: .red), to: folder + "/a.png")
    let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/a.png"))
    let run = try traffic("classify", "--output", folder + "/a.png", folder)
    #expect(run.status == 64)
    #expect(run.stderr.hasPrefix("Error: --output \(folder)/a.png is one of the inputs"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/a.png")) == before)
  }

  @Test func help_goesToStdout_withExitZero() throws {
    let top = try traffic("--help")
    #expect(top.status == 0 && top.stderr.isEmpty)
    #expect(top.stdout.contains("classify PATH...") && top.stdout.contains("sequence DIR"))
    for command in ["classify", "sequence"] {
      let help = try traffic(command, "--help")
      #expect(help.status == 0 && help.stderr.isEmpty)
      #expect(help.stdout.contains("Usage: traffic-light \(command)"))
      #expect(help.stdout.contains("--profile NAME|FILE") && help.stdout.contains("--labels DIR"))
    }
    #expect(try traffic("sequence", "-h").stdout.contains("--timeline FILE.svg"))
  }

  @Test func badUsage_isAnErrorAndAUsageLine_withExit64() throws {
    let usage = "Usage: traffic-light classify [options] PATH...\n"
    #expect(
      try traffic("classify", "--bogus", "SampleFrames")
        == Run(status: 64, stdout: "", stderr: "Error: unknown option '--bogus'\n" + usage))
    #expect(try traffic("classify") == Run(status: 64, stdout: "", stderr: "Error: no PATH given\n" + usage))
    #expect(
      try traffic("classify", "--format", "xml", "SampleFrames")
        == Run(
          status: 64, stdout: "", stderr: "Error: unknown format 'xml' (choose text, jsonl, csv)\n" + usage))
    #expect(try traffic("classify", "--format").stderr == "Error: --format needs a value\n" + usage)
    #expect(
      try traffic("classify", "--window", "3", "SampleFrames").stderr == "Error: unknown option '--window'\n"
        + usage)
    #expect(try traffic("classify", "--jobs", "0", "SampleFrames").status == 64)
    #expect(try traffic("classify", "--sigma", "-1", "SampleFrames").status == 64)
    let profile = try traffic("classify", "--profile", "nope", "SampleFrames")
    #expect(profile.status == 64)
    #expect(profile.stderr.hasPrefix("Error: no profile named 'nope'"))
    #expect(try traffic("frobnicate").status == 64)
    #expect(try traffic().status == 64)
  }
}

@Suite struct ProgressLineTests {
  /// Runs the tool with stderr on a pseudo-terminal, through util-linux's `script`.
  func onTerminal(_ command: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", "\(CLIPaths.binary.path) \(command) > /dev/null", "/dev/null"]
    process.currentDirectoryURL = CLIPaths.packageRoot
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  @Test func progress_isShownOnATerminal_andClearedAtTheEnd() throws {
    let screen = try onTerminal("classify --jobs 1 SampleFrames")
    #expect(screen.contains("24/24  "))
    #expect(screen.contains(" frames/s  "))
    #expect(screen.contains(" left"))
    #expect(screen.hasSuffix("\r\u{1B}[K"))  // the line is cleared when the run ends
  }

  @Test func progress_isNotShownForAFewInputs() throws {
    let screen = try onTerminal("classify SampleFrames/stills/red")
    #expect(!screen.contains("frames/s"))
  }
}
