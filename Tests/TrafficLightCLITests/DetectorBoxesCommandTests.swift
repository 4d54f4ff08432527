import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightTestSupport

/// `--boxes`: a detector's output, as CSV or COCO results JSON, read as `--labels` reads
/// YOLO files.
@Suite struct DetectorBoxesCommandTests {
  /// Two 200x100 frames, each with a red light at 20,5 and a green one at 120,5 (30x90),
  /// and the same boxes as a YOLO folder, a CSV and two COCO JSON files. The green box
  /// scores 0.4, the red 0.9; a car's box (class 2, COCO 3) is beside them.
  static func fixtures() throws -> (
    frames: String, yolo: String, csv: String, cocoList: String, cocoObject: String
  ) {
    let folder = try temporaryFolder()
    let frames = folder + "/frames"
    let yolo = folder + "/yolo"
    try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: yolo, withIntermediateDirectories: true)
    var frame = RGBImage(width: 200, height: 100, fill: (120, 160, 220))
    paste(syntheticLight(lit: .red), into: &frame, x: 20, y: 5)
    paste(syntheticLight(lit: .green), into: &frame, x: 120, y: 5)
    for name in ["cam_1", "cam_2"] {
      try writePNG(frame, to: "\(frames)/\(name).png")
      try "9 0.175 0.5 0.15 0.9 0.9\n2 0.5 0.5 0.2 0.2 0.99\n9 0.675 0.5 0.15 0.9 0.4\n"
        .write(toFile: "\(yolo)/\(name).txt", atomically: true, encoding: .utf8)
    }
    let csv = folder + "/boxes.csv"
    try """
    file,xmin,ymin,xmax,ymax,score
    cam_1.png,20,5,50,95,0.9
    cam_1.png,120,5,150,95,0.4
    frames/cam_2.png,20,5,50,95,0.9
    frames/cam_2.png,120,5,150,95,0.4

    """.write(toFile: csv, atomically: true, encoding: .utf8)
    let cocoList = folder + "/detections.json"
    var detections: [String] = []
    for name in ["cam_1.png", "cam_2.png"] {
      detections += [
        #"{"file_name":"\#(name)","category_id":10,"bbox":[20,5,30,90],"score":0.9}"#,
        #"{"file_name":"\#(name)","category_id":3,"bbox":[80,40,40,20],"score":0.99}"#,
        #"{"file_name":"\#(name)","category_id":10,"bbox":[120,5,30,90],"score":0.4}"#,
      ]
    }
    try "[\(detections.joined(separator: ",\n"))]".write(toFile: cocoList, atomically: true, encoding: .utf8)
    let cocoObject = folder + "/coco.json"
    try """
    {"images": [{"id": 1, "file_name": "cam_1.png"}, {"id": 2, "file_name": "cam_2.png"}],
     "annotations": [
      {"image_id": 1, "category_id": 10, "bbox": [20, 5, 30, 90], "score": 0.9},
      {"image_id": 1, "category_id": 10, "bbox": [120, 5, 30, 90], "score": 0.4},
      {"image_id": 2, "category_id": 10, "bbox": [20, 5, 30, 90], "score": 0.9},
      {"image_id": 2, "category_id": 10, "bbox": [120, 5, 30, 90], "score": 0.4}]}
    """.write(toFile: cocoObject, atomically: true, encoding: .utf8)
    return (frames, yolo, csv, cocoList, cocoObject)
  }

  /// The same boxes give the same readings, row for row, whichever file they come from, in
  /// `classify` and in `sequence`; and `--min-box-score` leaves out the same boxes.
  @Test func boxes_fromYOLOCSVAndCOCO_readTheSame() throws {
    let f = try Self.fixtures()
    for command in ["classify", "sequence"] {
      for score in [[], ["--min-box-score", "0.5"]] {
        let base = [command, "--format", "jsonl"] + score
        let fromYOLO = try traffic(base + ["--labels", f.yolo, f.frames])
        #expect(fromYOLO.status == 0, "\(fromYOLO.stderr)")
        let boxes = fromYOLO.stdout.components(separatedBy: #""read":"box""#).count - 1
        // classify: a row per box; sequence: a row per frame.
        #expect(boxes == (command == "sequence" ? 2 : score.isEmpty ? 4 : 2))
        #expect(fromYOLO.stdout.contains(#""color":"red""#))
        #expect(fromYOLO.stdout.contains(#""color":"green""#) == score.isEmpty)
        for file in [f.csv, f.cocoList, f.cocoObject] {
          let run = try traffic(base + ["--boxes", file, f.frames])
          #expect(run.status == 0, "\(run.stderr)")
          #expect(run.stderr == "")
          #expect(run.stdout == fromYOLO.stdout, "\(command) \(score) \(file)")
        }
      }
    }
  }

  /// The review page's thumbnails outline each box read in the colour read there.
  @Test func boxes_areOutlinedOnTheReviewPage() throws {
    let f = try Self.fixtures()
    let review = (f.csv as NSString).deletingLastPathComponent + "/review"
    let run = try traffic("classify", "--boxes", f.csv, "--review", review, f.frames + "/cam_1.png")
    #expect(run.status == 0, "\(run.stderr)")
    // A 200x100 frame is its own thumbnail (no whole factor fits it larger in 240x180).
    let thumbnail = try ImageDecoder().decode(fileAt: review + "/thumbs/0-0.jpg").pixels
    try #require(thumbnail.width == 200 && thumbnail.height == 100)
    /// Whether a pixel on the box's left edge, below its lamps, is mostly `channel`.
    func edge(x: Int, isMostly channel: Int) -> Bool {
      (45...85).contains { y in
        (x - 1...x + 1).contains { x in
          let pixel = thumbnail[x, y]
          let values = [Int(pixel.0), Int(pixel.1), Int(pixel.2)]
          // JPEG blurs a line of one pixel: its colour is the one channel well above the others.
          return values[channel] > 100
            && values.enumerated().allSatisfy { $0.offset == channel || 2 * $0.element < values[channel] }
        }
      }
    }
    #expect(edge(x: 20, isMostly: 0))
    #expect(edge(x: 120, isMostly: 1))
  }

  /// An image with no box says so, with the file and the least score.
  @Test func boxes_noBoxLeft_saysWhy() throws {
    let f = try Self.fixtures()
    let run = try traffic(
      "classify", "--format", "csv", "--boxes", f.csv, "--min-box-score", "0.95", f.frames + "/cam_1.png")
    #expect(run.status == 0)
    #expect(
      run.stdout.split(separator: "\n").last?.hasSuffix("no box in \(f.csv) scoring at least 0.95") == true)
  }

  /// Hostile detector files: a bad entry fails its own image (named with the file and the
  /// line or detection), the other images are read, and the run exits 1; an entry that
  /// names no image is an error of its own; a file that is not CSV or JSON, or not there,
  /// stops the run before it starts (exit 64).
  @Test func boxes_hostileFiles() throws {
    let f = try Self.fixtures()
    let folder = (f.csv as NSString).deletingLastPathComponent
    let csv = folder + "/bad.csv"
    try "cam_1.png,20,5,wide,95\ncam_2.png,20,5,50,95\n,1,2,3,4\n".write(
      toFile: csv, atomically: true, encoding: .utf8)
    let run = try traffic("classify", "--format", "jsonl", "--boxes", csv, f.frames)
    #expect(run.status == 1)
    let rows = run.stdout.split(separator: "\n").map(String.init)
    #expect(rows.count == 2)
    #expect(
      rows[0] == #"{"path":"\#(f.frames)/cam_1.png","error":"\#(csv):1: 'wide' is not a pixel coordinate"}"#)
    #expect(rows[1].contains(#""color":"red""#))
    #expect(run.stderr.contains("Error: \(csv):3: no file named"))

    let json = folder + "/bad.json"
    try
      #"[{"file_name":"cam_1.png","category_id":10,"bbox":[20,5,"30",90]},{"image_id":4,"bbox":[1,1,1,1]},7]"#
      .write(toFile: json, atomically: true, encoding: .utf8)
    let fromJSON = try traffic("classify", "--format", "jsonl", "--boxes", json, f.frames)
    #expect(fromJSON.status == 1)
    #expect(
      fromJSON.stdout.split(separator: "\n").first
        == #"{"path":"\#(f.frames)/cam_1.png","error":"\#(json): detection 1: 'bbox' needs four pixel numbers, width and height above 0"}"#
    )
    #expect(
      fromJSON.stderr.contains(
        "Error: \(json): detection 2: image_id 4 needs an 'images' list to name its file"))
    #expect(fromJSON.stderr.contains("Error: \(json): detection 3: not an object"))

    for (content, said) in [
      ("[{\"file_name\": ", "not JSON"), ("file,xmin,xmax\n", "the header does not name ymin, ymax"),
      (String(repeating: "[", count: 10_000), "not JSON"),
    ] {
      let broken = folder + "/broken"
      try content.write(toFile: broken, atomically: true, encoding: .utf8)
      let refused = try traffic("classify", "--boxes", broken, f.frames)
      #expect(refused.status == 64)
      #expect(
        refused.stderr.contains("Error: --boxes: \(broken)") && refused.stderr.contains(said),
        "\(refused.stderr)")
      #expect(refused.stdout == "")
    }
    let missing = try traffic("classify", "--boxes", folder + "/none.csv", f.frames)
    #expect(missing.status == 64 && missing.stderr.contains("\(folder)/none.csv"))
  }

  /// Names in the file that match no image read are said once, as a warning: most often a
  /// path written another way.
  @Test func boxes_namesMatchingNoImage_areSaid() throws {
    let f = try Self.fixtures()
    let run = try traffic("classify", "--boxes", f.cocoList, f.frames + "/cam_2.png")
    #expect(run.status == 0)
    #expect(
      run.stderr.contains(
        "Warning: \(f.cocoList): 1 of the 2 images it names is not among the images read (cam_1.png)"))
  }

  /// `--boxes` says where the lights are, as --labels, --roi and --find-lights do: one of
  /// them at a time; a video has no file names to match; a score or class needs boxes.
  @Test func boxes_conflicts() throws {
    let f = try Self.fixtures()
    for extra in [["--labels", f.yolo], ["--roi", "0,0,10,10"], ["--find-lights"]] {
      let run = try traffic(["classify", "--boxes", f.csv] + extra + [f.frames])
      #expect(run.status == 64 && run.stderr.contains("--boxes"), "\(extra)")
    }
    let score = try traffic("classify", "--min-box-score", "0.5", f.frames)
    #expect(score.status == 64 && score.stderr.contains("need --labels or --boxes"))
    let video = (f.csv as NSString).deletingLastPathComponent + "/drive.mp4"
    try Data("not a video".utf8).write(to: URL(fileURLWithPath: video))
    let fromVideo = try traffic("sequence", "--boxes", f.csv, video)
    #expect(fromVideo.status == 64 && fromVideo.stderr.contains("is a video"))
  }
}
