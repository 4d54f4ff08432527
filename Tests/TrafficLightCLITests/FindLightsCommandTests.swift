import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightTestSupport

@Suite struct FindLightsCommandTests {
  private func jsonObjects(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
  }

  @Test func classify_findLights_jsonl_listsEveryLight_andReadsTheOneThatMatters() throws {
    let folder = try temporaryFolder()
    try writePNG(syntheticFrame([(.green, 30, 40), (.red, 250, 50)]), to: folder + "/a.png")
    try writePNG(syntheticFrame(), to: folder + "/b.png")
    let run = try traffic("classify", "--find-lights", "--format", "jsonl", folder)
    #expect(run.status == 0 && run.stderr == "")
    let objects = try jsonObjects(run.stdout)
    try #require(objects.count == 2)
    #expect(objects[0]["color"] as? String == "red")
    #expect(objects[0]["decidedBy"] as? String == "litLamp")
    // A found light is read by its lamp: no points were counted, and the row says it was a frame.
    #expect(objects[0]["counts"] == nil)
    #expect(objects[0]["read"] as? String == "frame")
    let lights = try #require(objects[0]["lights"] as? [[String: Any]])
    #expect(lights.count == 2)
    #expect(Set(lights.compactMap { $0["color"] as? String }) == ["red", "green"])
    for light in lights {
      let box = try #require(light["box"] as? [Int])
      #expect(box.count == 4)
      // Each box holds the centre of the light pasted there (x 30..<60 or 250..<280).
      let cx = box[0] + box[2] / 2
      #expect((30..<60).contains(cx) || (250..<280).contains(cx), "\(box)")
      #expect((light["confidence"] as? Double ?? 0) > 0.5)
    }
    #expect(objects[1]["color"] as? String == "unknown")
    #expect((objects[1]["lights"] as? [Any])?.isEmpty == true)
    #expect(objects[1]["note"] as? String == "no light found")
  }

  @Test func classify_findLights_text_showsTheCountAndTheChosenLight() throws {
    let folder = try temporaryFolder()
    try writePNG(syntheticFrame([(.yellow, 100, 40), (.green, 200, 40)]), to: folder + "/a.png")
    let run = try traffic("classify", "--find-lights", folder + "/a.png")
    let row = try #require(run.stdout.split(separator: "\n").last)
    #expect(row.contains(" yellow "), "\(row)")
    #expect(row.contains("(2 lights found)"), "\(row)")
    #expect(row.contains("by litLamp"), "\(row)")
    #expect(row.contains(" frame "), "\(row)")
    #expect(row.contains(" -    -       -  by litLamp"), "\(row)")
  }

  @Test func lightConfidence_dropsLightsLessSure_andIsChecked() throws {
    let folder = try temporaryFolder()
    try writePNG(syntheticFrame([(.green, 30, 40)]), to: folder + "/a.png")
    let all = try traffic("classify", "--find-lights", "--format", "jsonl", folder + "/a.png")
    #expect(all.stdout.contains("\"color\":\"green\""))
    let none = try traffic(
      "classify", "--find-lights", "--light-confidence", "1", "--format", "jsonl", folder + "/a.png")
    #expect(none.stdout.contains("\"lights\":[]"), "\(none.stdout)")
    let bad = try traffic("classify", "--light-confidence", "2", folder + "/a.png")
    #expect(bad.status == 64 && bad.stderr.contains("--light-confidence"), "\(bad.stderr)")
  }

  @Test func findLights_withRoiOrLabels_isRefused() throws {
    for extra in [["--roi", "0,0,10,10"], ["--labels", "."]] {
      let run = try traffic(["classify", "--find-lights"] + extra + ["SampleFrames"])
      #expect(run.status == 64)
      #expect(run.stderr.contains("--find-lights searches whole images"), "\(run.stderr)")
    }
  }

  @Test func sequence_findLights_votesOnTheLightThatMatters() throws {
    let folder = try temporaryFolder()
    for index in 0..<6 {
      let color: SignalColor = index < 3 ? .green : .red
      try writePNG(syntheticFrame([(color, 100 + 2 * index, 40)]), to: folder + "/f\(index).png")
    }
    let run = try traffic("sequence", "--find-lights", "--window", "1", "--format", "jsonl", folder)
    #expect(run.status == 0)
    let colors = try jsonObjects(run.stdout).map { $0["color"] as? String }
    #expect(colors == ["green", "green", "green", "red", "red", "red"])
  }

  @Test func orientation_makesTheFinderLookForThoseHeadsOnly() throws {
    var frame = syntheticFrame([(.red, 20, 20)])
    paste(turnedToHorizontal(syntheticLight(lit: .green)), into: &frame, x: 160, y: 140)
    // The horizontal head is labelled too.
    let folder = try boxedFramesFolder(
      [("a.png", frame)],
      boxes: "file,state,xmin,ymin,xmax,ymax\na.png,red,20,20,50,110\na.png,green,160,140,250,170\n")
    for (orientation, colors) in [
      ("auto", ["red", "green"]), ("vertical", ["red"]), ("horizontal", ["green"]),
    ] {
      let run = try traffic(
        "classify", "--find-lights", "--orientation", orientation, "--format", "jsonl",
        folder + "/frames/a.png")
      #expect(run.status == 0)
      let lights = try #require(try jsonObjects(run.stdout).first?["lights"] as? [[String: Any]])
      #expect(Set(lights.compactMap { $0["color"] as? String }) == Set(colors), "\(orientation)")
    }
    // evaluate on boxed frames: the horizontal head is labelled, and not looked for.
    #expect(try traffic("evaluate", folder).stdout.contains("lights found: 2 of 2 (100.0%)"))
    let vertical = try traffic("evaluate", "--orientation", "vertical", folder).stdout
    #expect(vertical.contains("lights found: 1 of 2 (50.0%)"), "\(vertical)")
    let bad = try traffic("evaluate", "--orientation", "diagonal", folder)
    #expect(bad.status == 64 && bad.stderr.contains("--orientation must be auto, vertical or horizontal"))
  }

  @Test func profilesFinder_isTheOneFramesAreSearchedWith() throws {
    let folder = try boxedFramesFolder(
      [("a.png", syntheticFrame([(.red, 30, 40), (.green, 250, 50)]))],
      boxes: "file,state,xmin,ymin,xmax,ymax\na.png,red,30,40,60,130\na.png,green,250,50,280,140\n")
    // A finder whose red window is empty (red lamps are not lit pixels), with no second look
    // at dim pixels, and that keeps only lights at least 0.5 sure; its crops read vertical
    // lights.
    let profile = """
      {"name": "no-red", "orientation": "vertical",
       "locator": {"kind": "litLamp", "finder": {"heads": "vertical", "minimumConfidence": 0.5, "dimThresholds": null,
         "thresholds": {"saturationFloor": 0.4, "valueFloor": 0.508, "green": {"lower": 95, "upper": 195},
           "yellow": {"lower": 18, "upper": 70}, "red": {"lower": 330, "upper": 331}}}},
       "thresholds": {"saturationFloor": 0.4, "green": {"lower": 95, "upper": 195},
         "yellow": {"lower": 18, "upper": 70}, "red": {"lower": 330, "upper": 18}}}
      """
    try profile.write(toFile: folder + "/p.json", atomically: true, encoding: .utf8)
    let run = try traffic(
      "classify", "--find-lights", "--profile", folder + "/p.json", "--format", "jsonl",
      folder + "/frames/a.png")
    #expect(run.status == 0, "\(run.stderr)")
    let lights = try #require(try jsonObjects(run.stdout).first?["lights"] as? [[String: Any]])
    #expect(lights.compactMap { $0["color"] as? String } == ["green"], "\(run.stdout)")
    #expect(lights.allSatisfy { ($0["confidence"] as? Double ?? 0) >= 0.5 })
    let evaluated = try traffic("evaluate", "--profile", folder + "/p.json", folder).stdout
    #expect(evaluated.contains("lights found: 1 of 2 (50.0%)"), "\(evaluated)")
    #expect(try traffic("evaluate", folder).stdout.contains("lights found: 2 of 2 (100.0%)"))
    // --light-confidence, when given, takes the place of the finder's own.
    let all = try traffic(
      "classify", "--find-lights", "--profile", folder + "/p.json", "--light-confidence", "0", "--format",
      "jsonl", folder + "/frames/a.png")
    #expect(all.stdout.contains("\"color\":\"green\""), "\(all.stdout)")
    // The finder looks for both ways in a frame whatever way the profile's crops run.
    var turned = syntheticFrame()
    paste(turnedToHorizontal(syntheticLight(lit: .green)), into: &turned, x: 160, y: 140)
    try writePNG(turned, to: folder + "/turned.png")
    let sideways = try traffic(
      "classify", "--find-lights", "--profile", folder + "/p.json", "--format", "jsonl",
      folder + "/turned.png")
    #expect(sideways.stdout.contains("\"orientation\":\"horizontal\""), "\(sideways.stdout)")
  }

  @Test func evaluate_boxedFrames_reportsFoundFalseAndColours() throws {
    let folder = try boxedFramesFolder(
      [("a.png", syntheticFrame([(.red, 30, 40), (.green, 250, 50)])), ("b.png", syntheticFrame())],
      boxes:
        "file,state,xmin,ymin,xmax,ymax\na.png,red,30,40,60,130\nb.png,yellow,100,40,130,130\n"
        + "b.png,unknown,200,40,230,130\n")
    let text = try traffic("evaluate", folder)
    #expect(text.status == 0)
    // The dark box, with no light there, is neither found nor missed.
    #expect(text.stdout.contains("\(folder): 2 frames, 2 labelled lit boxes, and 1 dark one left out"))
    #expect(text.stdout.contains("lights found: 1 of 2 (50.0%)"))
    #expect(
      text.stdout.contains("false lights: 1 (0.500 per frame; 0 of them on a labelled light found already)"))
    #expect(text.stdout.contains("colours of the lights found: 1 of 1 right (100.0%), red read as green 0"))
    #expect(text.stdout.contains("keeping only lights at least this confident (--light-confidence):"))
    // The table starts at the finder's own least confidence (0.6), where it repeats the
    // figures above; lights less sure were never found, so no row goes below it.
    #expect(text.stdout.contains("  0.60        50.0%   0.500            0\n"), "\(text.stdout)")
    #expect(text.stdout.contains("  0.90  "))
    #expect(!text.stdout.contains("  0.50  "))
    let misses = try traffic("evaluate", "--misses", folder).stdout
    #expect(misses.contains("\(folder)/frames/b.png: yellow box at 100,40 30x90 not found"), "\(misses)")
    #expect(misses.contains("\(folder)/frames/a.png: green light found at "), "\(misses)")
    #expect(misses.contains("no box there"))
    #expect(!misses.contains("unknown box"))
    let json = try jsonObjects(try traffic("evaluate", "--format", "jsonl", "--misses", folder).stdout)
    #expect(json.count == 1)
    #expect(json[0]["found"] as? Int == 1 && json[0]["falseLights"] as? Int == 1)
    let missed = try #require(json[0]["misses"] as? [[String: Any]])
    #expect(Set(missed.compactMap { $0["miss"] as? String }) == ["notFound", "falseLight"])
  }

  /// calibrate reads each housing box of boxed frames as a light's crop (the region of its
  /// frame), beside crop folders too.
  @Test func calibrate_boxedFrames_fitsToTheirHousings() throws {
    let folder = try boxedFramesFolder(
      [
        ("a.png", syntheticFrame([(.red, 30, 40), (.green, 250, 50)])),
        ("b.png", syntheticFrame([(.yellow, 100, 40)])),
      ],
      boxes:
        "file,state,xmin,ymin,xmax,ymax\na.png,red,30,40,60,130\na.png,green,250,50,280,140\n"
        + "b.png,yellow,100,40,130,130\nb.png,unknown,200,40,230,130\n")
    let run = try traffic("calibrate", folder, "-o", folder + "/p.json")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.contains("  \(folder):\n    default      accuracy 100.0% (3 of 3), red read as green 0\n"))
    #expect(
      run.stdout.contains("    p            accuracy 100.0% (3 of 3), red read as green 0\n"), "\(run.stdout)"
    )
    #expect(try traffic("classify", "--profile", folder + "/p.json", "SampleFrames/stills").status == 0)
    // Left out in turn beside a crop folder: each read by a fit to the other.
    let crops = try temporaryFolder()
    for color in SignalColor.byRestrictiveness {
      try FileManager.default.createDirectory(
        atPath: crops + "/" + color.rawValue, withIntermediateDirectories: true)
      try writePNG(syntheticLight(lit: color), to: crops + "/\(color.rawValue)/0.png")
    }
    let split = try traffic("calibrate", "--split", "folders", crops, folder, "-o", folder + "/q.json")
    #expect(split.status == 0, "\(split.stderr)")
    #expect(split.stdout.contains("  \(folder): accuracy "), "\(split.stdout)")
    // Boxes of lit lamps are no housings: refused, with the reason.
    let lamps = try boxedFramesFolder(
      [("a.png", syntheticFrame([(.red, 30, 40)]))],
      boxes: "file,lamp,xmin,ymin,xmax,ymax\na.png,red,35,45,55,65\n")
    let refused = try traffic("calibrate", lamps, "-o", lamps + "/p.json")
    #expect(refused.status != 0 && refused.stderr.contains("boxes of lit lamps"), "\(refused.stderr)")
    #expect(!FileManager.default.fileExists(atPath: lamps + "/p.json"))
  }

  @Test func evaluate_candidates_writesEveryCandidateLabelled_forFittingTheEvidence() throws {
    let folder = try boxedFramesFolder(
      [("a.png", syntheticFrame([(.red, 30, 40)]))],
      boxes: "file,state,xmin,ymin,xmax,ymax\na.png,red,30,40,60,130\n")
    let run = try traffic("evaluate", "--candidates", folder + "/c.csv", folder)
    #expect(run.status == 0, "\(run.stderr)")
    let lines = try String(contentsOfFile: folder + "/c.csv", encoding: .utf8).split(separator: "\n")
    let header = lines[0].split(separator: ",").map(String.init)
    #expect(
      Array(header.prefix(14)) == [
        "folder", "path", "color", "orientation", "x", "y", "width", "height",
        "lampX", "lampY", "lampWidth", "lampHeight", "confidence", "litLamp",
      ])
    #expect(Array(header.dropFirst(14)) == LampMeasurements.names)
    let rows = lines.dropFirst().map { $0.split(separator: ",").map(String.init) }
    #expect(rows.allSatisfy { $0.count == header.count })
    let lit = rows.filter { $0[13] == "1" }
    try #require(lit.count >= 1, "\(rows)")
    #expect(lit.allSatisfy { $0[1] == folder + "/frames/a.png" && $0[2] == "red" })
    // The lamp's box lies inside its head's: the red lamp of a head at (30, 40).
    for row in lit {
      let head = row[4..<8].compactMap { Int($0) }
      let lamp = row[8..<12].compactMap { Int($0) }
      try #require(head.count == 4 && lamp.count == 4, "\(row)")
      #expect(lamp[0] >= head[0] && lamp[1] >= head[1], "\(row)")
      #expect(lamp[0] + lamp[2] <= head[0] + head[2] && lamp[1] + lamp[3] <= head[1] + head[3], "\(row)")
      #expect(lamp[3] < head[3], "\(row)")
    }
    // Crops are no frames: refused, naming the option.
    let crops = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: crops + "/red", withIntermediateDirectories: true)
    try writePNG(syntheticLight(lit: .red), to: crops + "/red/a.png")
    let refused = try traffic("evaluate", "--candidates", crops + "/c.csv", crops)
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("--candidates reads folders of boxed frames only"), "\(refused.stderr)")
  }
}

@Suite struct FindLightsMaskTests {
  @Test func mask_withFindLights_isTheFrameWithItsLightsOutlined() throws {
    let folder = try temporaryFolder()
    let frame = syntheticFrame([(.red, 100, 40)])
    try writePNG(frame, to: folder + "/a.png")
    let run = try traffic("classify", "--find-lights", "--mask", folder + "/masks", folder + "/a.png")
    #expect(run.status == 0)
    let picture = try ImageDecoder().decode(fileAt: folder + "/masks/a.mask.png").pixels
    #expect(picture.width == 320 && picture.height == 240)
    // Red outline pixels around the light, and the frame itself elsewhere.
    var red = 0
    for y in 30..<140 {
      for x in 90..<140 where picture[x, y] == (255, 0, 0) { red += 1 }
    }
    #expect(red > 200)
    #expect(picture[300, 10] == frame[300, 10])
  }
}

@Suite struct FramesOrCropsTests {
  /// A 640x480 frame (over 320x320 pixels) of sky with one light.
  private func largeFrame(_ color: SignalColor) -> RGBImage {
    var frame = RGBImage(width: 640, height: 480, fill: (150, 180, 220))
    paste(syntheticLight(lit: color), into: &frame, x: 300, y: 100)
    return frame
  }

  @Test func byDefault_largeImagesAreSearched_smallOnesReadAsCrops() throws {
    let folder = try temporaryFolder()
    try writePNG(largeFrame(.green), to: folder + "/frame.png")
    try writePNG(syntheticLight(lit: .green), to: folder + "/crop.png")
    let run = try traffic("classify", "--format", "jsonl", folder + "/crop.png", folder + "/frame.png")
    #expect(run.status == 0)
    let objects = try run.stdout.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    try #require(objects.count == 2)
    #expect(objects[0]["lights"] == nil)  // the crop: read as one light
    #expect(objects[0]["color"] as? String == "green")
    #expect((objects[1]["lights"] as? [Any])?.count == 1)  // the frame: searched
    #expect(objects[1]["color"] as? String == "green")
    #expect(objects[1]["decidedBy"] as? String == "litLamp")
    // --whole-image reads the frame as one light; with --find-lights it is refused.
    let whole = try traffic("classify", "--format", "jsonl", "--whole-image", folder + "/frame.png")
    #expect(!whole.stdout.contains("\"lights\""))
    let both = try traffic("classify", "--find-lights", "--whole-image", folder + "/frame.png")
    #expect(both.status == 64 && both.stderr.contains("cannot be used together"))
  }
}
