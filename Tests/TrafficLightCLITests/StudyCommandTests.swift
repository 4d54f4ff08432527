import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightTestSupport

@Suite struct StudyCommandTests {
  @Test func evaluate_sampleFrames_matchesTheRecordedReport() throws {
    let run = try traffic(
      "evaluate", "--profile", "seed", "SampleFrames/stills", "SampleFrames/carpark-sequence")
    #expect(
      run == Run(status: 0, stdout: try CLIPaths.expected("evaluate-sampleframes-seed.text"), stderr: ""))
  }

  @Test func evaluate_jsonl_givesTheMatrixAndTheFigures() throws {
    let run = try traffic("evaluate", "--format", "jsonl", "--profile", "seed", "SampleFrames/stills")
    #expect(run.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    #expect(object["folder"] as? String == "SampleFrames/stills")
    #expect(object["labelled"] as? Int == 12)
    #expect(object["correct"] as? Int == 2)
    #expect(object["redCalledGreen"] as? Int == 0)
    let confusion = object["confusion"] as? [String: [String: Int]]
    #expect(confusion?["green"] == ["red": 0, "yellow": 0, "green": 2, "unknown": 2])
  }

  /// With images labelled unknown, the confidence table says on what share of them a colour
  /// is named at each threshold (jsonl: `unlitNamed`); without any, it has no such column.
  @Test func evaluate_coverage_saysHowManyOfTheUnknownOnesAreNamed() throws {
    let folder = try temporaryFolder()
    for color in ["red", "unknown"] {
      try FileManager.default.createDirectory(atPath: folder + "/" + color, withIntermediateDirectories: true)
    }
    try writePNG(syntheticLight(lit: .red), to: folder + "/red/lit.png")
    try writePNG(syntheticLight(lit: .green), to: folder + "/unknown/green.png")
    try writePNG(syntheticLight(lit: .unknown), to: folder + "/unknown/dark.png")
    let text = try traffic("evaluate", "--profile", "seed", folder)
    #expect(text.stdout.contains("  confidence  answered  right   red read as green  unknown ones named\n"))
    #expect(text.stdout.contains("\n  0.0         100.0%    100.0%  0                  50.0%\n"))
    let jsonl = try traffic("evaluate", "--profile", "seed", "--format", "jsonl", folder)
    let object = try JSONSerialization.jsonObject(with: Data(jsonl.stdout.utf8)) as! [String: Any]
    let coverage = try #require(object["coverage"] as? [[String: Any]])
    #expect(coverage.first?["unlitNamed"] as? Double == 0.5)
    let lit = try traffic("evaluate", "--profile", "seed", "SampleFrames/stills")
    #expect(!lit.stdout.contains("unknown ones named") && !lit.stdout.contains("unlitNamed"))
  }

  @Test func evaluate_misses_namesEachImageReadOtherThanItsLabel() throws {
    let folder = try temporaryFolder()
    for color in SignalColor.byRestrictiveness {
      try FileManager.default.createDirectory(
        atPath: folder + "/" + color.rawValue, withIntermediateDirectories: true)
      try writePNG(
        syntheticLight(lit: color, width: 30, height: 90), to: folder + "/\(color.rawValue)/right.png")
    }
    try writePNG(syntheticLight(lit: .green, width: 30, height: 90), to: folder + "/red/mislabelled.png")
    try Data("not a PNG".utf8).write(to: URL(fileURLWithPath: folder + "/yellow/broken.png"))

    let plain = try traffic("evaluate", "--profile", "seed", folder)
    #expect(!plain.stdout.contains("misread"))

    // An image that cannot be read is named, left out of every figure, and the run exits 1.
    let text = try traffic("evaluate", "--profile", "seed", "--misses", folder)
    #expect(text.status == 1)
    #expect(text.stderr.hasPrefix("Error: \(folder)/yellow/broken.png: "))
    #expect(text.stdout.contains("accuracy: 75.0% (3 of 4 lit)"))
    #expect(text.stdout.contains("left out, could not be read: 1 images (named above)"))
    let listed = text.stdout.components(separatedBy: "misread: 1\n").last ?? ""
    #expect(listed == "  \(folder)/red/mislabelled.png: red read green\n")

    let jsonl = try traffic("evaluate", "--profile", "seed", "--misses", "--format", "jsonl", folder)
    let object = try JSONSerialization.jsonObject(with: Data(jsonl.stdout.utf8)) as! [String: Any]
    let misses = object["misses"] as? [[String: String]]
    #expect(misses == [["path": folder + "/red/mislabelled.png", "label": "red", "read": "green"]])
    #expect(object["unreadable"] as? Int == 1)
    // calibrate leaves it out the same way; with no image it could read, it writes nothing.
    let empty = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: empty + "/red", withIntermediateDirectories: true)
    try Data("not a PNG".utf8).write(to: URL(fileURLWithPath: empty + "/red/broken.png"))
    let none = try traffic("calibrate", empty, "-o", empty + "/p.json")
    #expect(none.status == 1)
    #expect(none.stderr.contains("Error: no image could be read in \(empty): no profile written"))
    #expect(!FileManager.default.fileExists(atPath: empty + "/p.json"))
  }

  @Test func calibrate_writesAProfileThatClassifyLoads() throws {
    let folder = try temporaryFolder()
    for color in SignalColor.byRestrictiveness {
      try FileManager.default.createDirectory(
        atPath: folder + "/" + color.rawValue, withIntermediateDirectories: true)
      for index in 0..<3 {
        try writePNG(
          syntheticLight(lit: color, width: 24 + 6 * index, height: 72 + 12 * index),
          to: folder + "/\(color.rawValue)/\(index).png")
      }
    }
    let profile = folder + "/mine.json"
    let run = try traffic("calibrate", "--from", "seed", "--folds", "3", folder, "-o", profile)
    #expect(run.status == 0)
    #expect(run.stdout.contains("Cross-validation (3 folds"))
    #expect(run.stdout.contains("\(folder): accuracy 100.0% (9 of 9), red read as green 0"))
    #expect(!run.stdout.contains("partition"))
    let repeated = try traffic(
      "calibrate", "--from", "seed", "--folds", "3", "--split", "interleaved", "--partitions", "2", folder,
      "-o",
      profile)
    #expect(repeated.status == 0)
    #expect(repeated.stdout.contains("held-out fold), partition 1:\n"))
    #expect(repeated.stdout.contains("held-out fold), partition 2:\n"))
    #expect(
      repeated.stdout.contains(
        "Mean over the 2 partitions:\n  \(folder): accuracy 100.0% (9, 9 of 9), red read as green at most 0\n"
      ))
    let leftOut = try traffic(
      "calibrate", "--from", "seed", "--split", "folders", folder, folder, "-o", profile)
    #expect(leftOut.status == 0)
    #expect(
      leftOut.stdout.contains(
        "Cross-validation (leave one folder out: each folder read by a profile fitted on the others):\n"
          + "  \(folder): accuracy 100.0% (9 of 9), red read as green 0\n"))
    // Both profiles side by side, a verdict, and a warning for colours with under 10 images.
    #expect(
      run.stdout.contains("On all images, the starting profile (seed) and the fit (mine):\n  \(folder):\n"))
    #expect(run.stdout.contains("    seed         accuracy "))
    #expect(run.stdout.contains("    mine         accuracy 100.0% (9 of 9), red read as green 0\n"))
    #expect(run.stdout.contains("These are the images it was fitted to"))
    for color in ["red", "yellow", "green"] {
      #expect(
        run.stderr.contains(
          "Warning: only 3 \(color) images (\(folder) 3): a fit to fewer than 10 of a colour is not to be trusted"
        ))
    }
    let loaded = try Profile.named(profile)
    #expect(loaded.name == "mine")
    let evaluated = try traffic("evaluate", "--profile", profile, folder)
    #expect(evaluated.stdout.contains("accuracy: 100.0% (9 of 9 lit)"))
  }

  /// A folder holding both crops and boxed frames is refused without --as, naming both; with
  /// it, it is read that way.
  @Test func evaluate_folderOfTwoKinds_needsAs() throws {
    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder + "/red", withIntermediateDirectories: true)
    try writePNG(syntheticLight(lit: .red), to: folder + "/red/a.png")
    var frame = RGBImage(width: 640, height: 480, fill: (120, 160, 220))
    paste(syntheticLight(lit: .green, width: 30, height: 90), into: &frame, x: 300, y: 100)
    try writePNG(frame, to: folder + "/frames/f.png")
    try "file,state,xmin,ymin,xmax,ymax\nf.png,green,300,100,330,190\n".write(
      toFile: folder + "/boxes.csv", atomically: true, encoding: .utf8)
    let refused = try traffic("evaluate", folder)
    #expect(refused.status == 64)
    #expect(
      refused.stderr.hasPrefix(
        "Error: \(folder) holds both labelled crops and boxed frames (boxes.csv): say which to read with --as crops|frames"
      ), "\(refused.stderr)")
    let crops = try traffic("evaluate", "--as", "crops", folder)
    #expect(crops.status == 0)
    #expect(crops.stdout.contains("1 images, 1 labelled red, yellow or green"), "\(crops.stdout)")
    let frames = try traffic("evaluate", "--as", "frames", "--format", "jsonl", folder)
    #expect(frames.status == 0)
    #expect(
      frames.stdout.hasPrefix("{\"folder\":\"\(folder)\",\"frames\":1,\"labelled\":1,"), "\(frames.stdout)")
    #expect(!frames.stdout.contains("\"confusion\""))
    let none = try traffic("evaluate", "--as", "recording", folder)
    #expect(none.status == 64)
    #expect(none.stderr.hasPrefix("Error: \(folder) holds no labelled recording"), "\(none.stderr)")
  }

  @Test func study_badUsage_exits64() throws {
    #expect(
      try traffic("calibrate", "SampleFrames/stills")
        == Run(
          status: 64, stdout: "",
          stderr:
            "Error: calibrate needs -o PROFILE.json\nUsage: traffic-light calibrate [options] DIR... -o PROFILE.json\n"
        ))
    #expect(try traffic("evaluate").status == 64)
    let notLabelled = try traffic("evaluate", "Sources")
    #expect(notLabelled.status == 64)
    #expect(
      notLabelled.stderr.hasPrefix(
        "Error: Sources has neither red/, yellow/, green/ folders nor a labels.csv"))
    #expect(try traffic("evaluate", "--help").stdout.contains("confusion matrix"))
    #expect(try traffic("calibrate", "--help").stdout.contains("--folds K"))
    let output = try temporaryFolder() + "/p.json"
    #expect(
      try traffic("calibrate", "--partitions", "2", "SampleFrames/stills", "-o", output)
        == Run(
          status: 64, stdout: "",
          stderr:
            "Error: --partitions needs --folds\nUsage: traffic-light calibrate [options] DIR... -o PROFILE.json\n"
        ))
    for (arguments, said) in [
      (["--folds", "3", "--partitions", "2"], "--partitions needs --split interleaved"),
      (["--split", "folders"], "--split folders needs two DIRs or more"),
      (
        ["--split", "folders", "--folds", "3", "SampleFrames/stills"],
        "--split folders makes one fold per DIR"
      ),
      (["--split", "random"], "--split must be blocks, interleaved or folders, not 'random'"),
    ] {
      let run = try traffic(["calibrate"] + arguments + ["SampleFrames/stills", "-o", output])
      #expect(run.status == 64 && run.stderr.hasPrefix("Error: " + said), "\(arguments)")
    }
    let badCount = try traffic(
      "calibrate", "--folds", "3", "--partitions", "0", "SampleFrames/stills", "-o", output)
    #expect(badCount.status == 64)
    #expect(badCount.stderr.hasPrefix("Error: --partitions must be a whole number from 1 to 20, not '0'"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
