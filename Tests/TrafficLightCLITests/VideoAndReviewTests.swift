import Foundation
import Testing
import TrafficLight
import TrafficLightKernels

/// External tools these tests run. CI installs them (`.ci/run`) and sets `REQUIRE_TOOLS`, so
/// that there a missing tool fails a test instead of skipping it.
enum Tools {
  static func find(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let path = String(folder) + "/" + name
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }
  static let ffmpeg = find("ffmpeg")
  static let chromium = find("chromium") ?? find("chromium-browser")
  static let required = ProcessInfo.processInfo.environment["REQUIRE_TOOLS"] != nil

  /// Runs `tool` with `arguments`; fails the test when it fails.
  static func run(_ tool: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " "))")
  }
}

@Suite struct ToolsPresent {
  /// Where CI promised the tools, they are there: the tests below did not skip.
  @Test(.enabled(if: Tools.required)) func ciHasFFmpegAndChromium() {
    #expect(Tools.ffmpeg != nil, "REQUIRE_TOOLS is set but ffmpeg is not on PATH")
    #expect(Tools.chromium != nil, "REQUIRE_TOOLS is set but chromium is not on PATH")
  }
}

@Suite(.serialized) struct VideoTests {
  static let sample = CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence"

  /// SampleFrames' car-park frames as PNGs of one size (each crop centred on black), and a
  /// Matroska video of those PNGs, copied in losslessly at 5 frames a second.
  static func madeVideo() throws -> (folder: String, video: String, work: String) {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("video-\(UUID())").path
    let folder = work + "/frames"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let names = try FileManager.default.contentsOfDirectory(atPath: sample).filter { $0.hasSuffix(".jpg") }
      .sorted()
    for (i, name) in names.enumerated() {
      try Tools.run(
        Tools.ffmpeg!,
        [
          "-loglevel", "error", "-i", sample + "/" + name, "-vf", "pad=48:96:(ow-iw)/2:(oh-ih)/2:black",
          String(format: "%@/frame_%03d.png", folder, i),
        ])
    }
    let video = work + "/drive.mkv"
    try Tools.run(
      Tools.ffmpeg!,
      ["-loglevel", "error", "-framerate", "5", "-i", folder + "/frame_%03d.png", "-c:v", "copy", video])
    return (folder, video, work)
  }

  static func records(_ jsonl: String) throws -> [[String: Any]] {
    try jsonl.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
  }

  /// A lossless video of the frames reads as the folder of them does, frame for frame, and
  /// its changes get times from the video's rate.
  @Test(.enabled(if: Tools.ffmpeg != nil)) func video_readsAsItsFolderOfFrames() throws {
    let (folder, video, work) = try Self.madeVideo()
    defer { try? FileManager.default.removeItem(atPath: work) }
    let fromFolder = try traffic(["sequence", "--format", "jsonl", folder])
    let fromVideo = try traffic(["sequence", "--format", "jsonl", "--events", video])
    #expect(fromFolder.status == 0 && fromVideo.status == 0, "\(fromVideo.stderr)")
    let frames = try Self.records(fromFolder.stdout)
    let videoRecords = try Self.records(fromVideo.stdout)
    let videoFrames = videoRecords.filter { $0["event"] == nil }
    #expect(frames.count == 12)
    #expect(videoFrames.count == frames.count)
    for (a, b) in zip(frames, videoFrames) {
      #expect(a["color"] as? String == b["color"] as? String)
      #expect(a["smoothed"] as? String == b["smoothed"] as? String)
      #expect(a["confidence"] as? Double == b["confidence"] as? Double)
      #expect(a["frame"] as? Int == b["frame"] as? Int)
    }
    #expect((videoFrames.first?["path"] as? String)?.hasSuffix("drive.mkv#0") == true)
    let changes = videoRecords.filter { $0["event"] as? String == "change" }
    #expect(!changes.isEmpty)
    for change in changes {
      #expect(change["time"] as? Double == Double(change["frame"] as! Int) / 5)
    }
  }

  /// The README's dashcam start: a video in, a review page out, its thumbnails drawn from the
  /// video's own frames.
  @Test(.enabled(if: Tools.ffmpeg != nil)) func video_reviewPage() throws {
    let (_, video, work) = try Self.madeVideo()
    defer { try? FileManager.default.removeItem(atPath: work) }
    let review = work + "/review"
    let run = try traffic(["sequence", "--review", review, video])
    #expect(run.status == 0, "\(run.stderr)")
    let page = try String(contentsOfFile: review + "/index.html", encoding: .utf8)
    #expect(page.contains("drive.mkv: 12 frames"))
    let shown = page.components(separatedBy: "<img src=\"").dropFirst().map {
      String($0.prefix { $0 != "\"" })
    }
    #expect(!shown.isEmpty)
    for name in shown {
      // A 48x96 frame, kept in its proportions.
      let thumbnail = try ImageDecoder().decode(fileAt: review + "/" + name).pixels
      #expect(thumbnail.width == 48 * thumbnail.height / 96)
    }
  }

  /// `--fps` resamples the video: twice its rate gives twice the frames.
  @Test(.enabled(if: Tools.ffmpeg != nil)) func video_atAnotherRate() throws {
    let (_, video, work) = try Self.madeVideo()
    defer { try? FileManager.default.removeItem(atPath: work) }
    let run = try traffic(["sequence", "--format", "jsonl", "--fps", "10", video])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.records(run.stdout).count == 24)
  }

  /// No ffmpeg, or a file ffmpeg cannot read: an error naming the file and why, exit 1, and
  /// the other recordings are still read.
  @Test func video_withoutFFmpeg_orUnreadable_isAnErrorAndTheRunGoesOn() throws {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("video-\(UUID())").path
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let notVideo = work + "/notes.mp4"
    try Data("not a video at all".utf8).write(to: URL(fileURLWithPath: notVideo))
    let missing = try traffic(
      ["sequence", "--format", "jsonl", notVideo, Self.sample],
      environment: ["TRAFFIC_LIGHT_FFMPEG": work + "/no-ffmpeg-here"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("\(notVideo): reading a video needs ffmpeg"), "\(missing.stderr)")
    #expect(try Self.records(missing.stdout).count == 12)
    guard Tools.ffmpeg != nil else { return }
    let unreadable = try traffic(["sequence", "--format", "jsonl", notVideo, Self.sample])
    #expect(unreadable.status == 1)
    #expect(
      unreadable.stderr.contains("\(notVideo): ffmpeg cannot read it as a video"), "\(unreadable.stderr)")
    #expect(try Self.records(unreadable.stdout).count == 12)
    // Options that need files say so before anything is read.
    let masked = try traffic(["sequence", "--mask", work + "/masks", notVideo])
    #expect(masked.status == 64)
    #expect(masked.stderr.contains("is a video"))
  }
}

@Suite(.serialized) struct ReviewPageTests {
  static let stills = CLIPaths.packageRoot.path + "/SampleFrames/stills"

  /// The pixels that differ between two screenshots of one size (by more than 40 in a
  /// channel).
  static func differing(_ a: String, _ b: String) throws -> Int {
    let x = try ImageDecoder().decode(fileAt: a).pixels
    let y = try ImageDecoder().decode(fileAt: b).pixels
    guard x.width == y.width, x.height == y.height else { return -1 }
    var count = 0
    x.read { p in
      y.read { q in
        for i in stride(from: 0, to: p.count, by: 3)
        where (0..<3).contains(where: { abs(Int(p[i + $0]) - Int(q[i + $0])) > 40 }) {
          count += 1
        }
      }
    }
    return count
  }

  /// Screenshots the page, then again with every thumbnail in `names` replaced by a white
  /// picture of its size: the pixels that differ are what the thumbnails drew.
  static func thumbnailPixels(page folder: String, thumbnails names: [String]) throws -> Int {
    try screenshot(folder + "/index.html", to: folder + "/a.png")
    for name in names {
      let path = folder + "/" + name
      let image = try ImageDecoder().decode(fileAt: path).pixels
      let white = try ImageEncoder.jpeg(
        RGBImage(width: image.width, height: image.height, fill: (255, 255, 255)))
      try Data(white).write(to: URL(fileURLWithPath: path))
    }
    try screenshot(folder + "/index.html", to: folder + "/b.png")
    return try differing(folder + "/a.png", folder + "/b.png")
  }

  static func screenshot(_ page: String, to png: String) throws {
    try Tools.run(
      Tools.chromium!,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,1600",
        "--screenshot=\(png)", "file://\(page)",
      ])
  }

  /// `classify --review`: every image on the contact sheet, unknowns first then the least
  /// confident; opened in headless Chromium, the thumbnails render (the screenshot holds far
  /// more coloured and dark pixels than the same page without its thumbnails).
  @Test func classifyReview_isAContactSheetThatRenders() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try traffic(["classify", "--format", "jsonl", "--review", folder, Self.stills])
    #expect(run.status == 0, "\(run.stderr)")
    let page = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
    let thumbnails = try FileManager.default.contentsOfDirectory(atPath: folder + "/thumbs")
    #expect(thumbnails.count == 12)
    #expect(page.components(separatedBy: "<img src=\"thumbs/").count - 1 == 12)
    // The order: unknowns, then confidence rising.
    let captions = page.components(separatedBy: "<figcaption>").dropFirst().map {
      String($0.prefix { $0 != "<" })
    }
    let confidences = captions.map { caption -> (Bool, Double) in
      let words = caption.split(separator: " ")
      return (words[0] == "unknown", Double(words[1]) ?? -1)
    }
    #expect(confidences.count == 12)
    let unknowns = confidences.prefix { $0.0 }.count
    #expect(confidences.dropFirst(unknowns).allSatisfy { !$0.0 })
    let known = confidences.dropFirst(unknowns).map(\.1)
    #expect(known == known.sorted())
    guard Tools.chromium != nil else { return }
    let drawn = try Self.thumbnailPixels(page: folder, thumbnails: thumbnails.map { "thumbs/" + $0 })
    // 12 thumbnails of about 50 x 100 pixels, mostly a dark housing or a lit lamp.
    #expect(drawn > 12 * 1500, "\(drawn) pixels drawn by the thumbnails")
  }

  /// `sequence --review`: the timeline, each change with the frames around it, and only the
  /// thumbnails the page shows are kept; it renders in Chromium.
  @Test func sequenceReview_showsEachChange() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let sample = CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence"
    let run = try traffic(["sequence", "--format", "jsonl", "--events", "--review", folder, sample])
    #expect(run.status == 0, "\(run.stderr)")
    let changes = run.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"change\"") }.count
    let page = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
    #expect(page.contains("<svg"))
    #expect(page.contains("Changes of the smoothed colour (\(changes))"))
    #expect(page.components(separatedBy: "<div class=\"change\"><p>frame ").count - 1 == changes)
    let shown = Set(
      page.components(separatedBy: "<img src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
    let kept = Set(
      try FileManager.default.contentsOfDirectory(atPath: folder + "/thumbs").map { "thumbs/" + $0 })
    #expect(!shown.isEmpty)
    #expect(shown == kept)
    guard Tools.chromium != nil else { return }
    let drawn = try Self.thumbnailPixels(page: folder, thumbnails: Array(kept))
    #expect(drawn > kept.count * 1500, "\(drawn) pixels drawn by the thumbnails")
  }
}

@Suite struct MaskOptionTests {
  static let sample = CLIPaths.packageRoot.path + "/SampleFrames/carpark-sequence"

  /// `--mask-format jpeg` writes JPEG masks, which a later run over the folder skips as masks.
  @Test func jpegMasks_areWritten_andSkippedAsInputs() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("masks-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try traffic(["classify", "--mask", folder, "--mask-format", "jpeg", Self.sample])
    #expect(run.status == 0, "\(run.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(written.count == 12)
    #expect(written.allSatisfy { $0.hasSuffix(".mask.jpg") })
    let first = try ImageDecoder().decode(fileAt: folder + "/" + written[0])
    #expect(first.pixels.width > 0)
    let again = try traffic(["classify", folder])
    #expect(again.status == 1)
    #expect(again.stderr.contains("masks (*.mask.png, *.mask.jpg)"), "\(again.stderr)")
    #expect(try traffic(["classify", "--mask-format", "gif", "--mask", folder, Self.sample]).status == 64)
    #expect(try traffic(["classify", "--mask-format", "jpeg", Self.sample]).status == 64)
  }

  /// `--mask-changes` writes the masks of the frames the smoothed colour changed on, and no other.
  @Test func maskChanges_writesTheChangeFramesOnly() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("masks-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let run = try traffic([
      "sequence", "--format", "jsonl", "--events", "--mask", folder, "--mask-changes", Self.sample,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let changed = run.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"change\"") }.map {
      line in
      let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      let name = ((object["path"] as! String) as NSString).lastPathComponent
      return (name as NSString).deletingPathExtension + ".mask.png"
    }
    #expect(changed.count >= 2)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == changed.sorted())
    #expect(try traffic(["sequence", "--mask-changes", Self.sample]).status == 64)
  }
}
