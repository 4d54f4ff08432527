import Foundation
import Testing
import TrafficLightKernels

@testable import TrafficLight

@Suite struct DetectorBoxesTests {
  static func region(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> PixelRegion {
    PixelRegion(x: x, y: y, width: width, height: height)
  }

  /// Without a header the columns are file,xmin,ymin,xmax,ymax[,score]; with one, they are
  /// found by name beside other columns; quoted names may hold commas; corners round to the
  /// nearest pixel boundary.
  @Test func csv_positionalOrNamedColumns() throws {
    let plain = try DetectorBoxes.parseCSV(
      "cam.png,20,5,50,95,0.9\r\n\"a, b.png\",120.4,5.6,150.5,95\n", path: "boxes.csv")
    #expect(plain.boxes["cam.png"] == [DetectorBox(region: Self.region(20, 5, 30, 90), score: 0.9)])
    #expect(plain.boxes["a, b.png"] == [DetectorBox(region: Self.region(120, 6, 31, 89), score: nil)])
    let named = try DetectorBoxes.parseCSV(
      "score,label,ymax,xmax,ymin,xmin,file\n0.5,light,95,50,5,20,cam.png\n", path: "boxes.csv")
    #expect(named.boxes["cam.png"] == [DetectorBox(region: Self.region(20, 5, 30, 90), score: 0.5)])
  }

  /// A bad entry is its image's fault (the first one kept); an entry naming no image is
  /// kept apart; a header that lacks a corner fails the whole file.
  @Test func csv_faults_belongToTheirImage() throws {
    let text = """
      file,xmin,ymin,xmax,ymax
      cam.png,20,5,wide,95
      cam.png,50,5,20,95
      ok.png,1,2,3,4
      nan.png,nan,1,2,3
      inf.png,1,1,1e300,3
      ,1,2,3,4
      short.png,1,2
      """
    let boxes = try DetectorBoxes.parseCSV(text, path: "b.csv")
    #expect(
      boxes.faults["cam.png"]
        == .malformed(path: "b.csv", line: 2, reason: "'wide' is not a pixel coordinate"))
    #expect(
      boxes.faults["nan.png"] == .malformed(path: "b.csv", line: 5, reason: "'nan' is not a pixel coordinate")
    )
    #expect(
      boxes.faults["inf.png"]
        == .malformed(path: "b.csv", line: 6, reason: "'1e300' is not a pixel coordinate"))
    #expect(
      boxes.faults["short.png"] == .malformed(path: "b.csv", line: 8, reason: "expected 5 fields, got 3"))
    #expect(boxes.unplaced == [.malformed(path: "b.csv", line: 7, reason: "no file named")])
    #expect(boxes.boxes["ok.png"] == [DetectorBox(region: Self.region(1, 2, 2, 2))])
    #expect(
      throws: LabelError.malformed(path: "b.csv", line: 1, reason: "a box needs xmin < xmax and ymin < ymax")
    ) {
      try DetectorBoxes.parseCSV("cam.png,50,5,20,95\ncam.png,50,5,20,95\n", path: "b.csv").boxes(
        forImage: "x/cam.png")
    }
    #expect(
      throws: LabelError.malformed(path: "b.csv", line: 1, reason: "the header does not name ymin, ymax")
    ) {
      try DetectorBoxes.parseCSV("file,xmin,xmax\n", path: "b.csv")
    }
  }

  /// COCO results: a list naming images by file_name (or a string image_id), or an object
  /// whose images list names them by id; only the category asked for is kept, and scores
  /// below the least are left out.
  @Test func coco_listOrObject_categoryAndScore() throws {
    let list = """
      [{"file_name": "cam.png", "category_id": 10, "bbox": [20, 5, 30, 90], "score": 0.9},
       {"file_name": "cam.png", "category_id": 3, "bbox": [0, 0, 10, 10], "score": 0.99},
       {"image_id": "b.png", "category_id": 10, "bbox": [1.5, 2, 3, 4], "score": 0.3}]
      """
    let fromList = try DetectorBoxes.parseJSON(
      Array(list.utf8), path: "d.json", category: 10, minimumScore: 0.5)
    #expect(fromList.boxes["cam.png"] == [DetectorBox(region: Self.region(20, 5, 30, 90), score: 0.9)])
    #expect(fromList.boxes["b.png"] == nil && fromList.names == ["cam.png", "b.png"])
    let object = """
      {"images": [{"id": 7, "file_name": "frames/cam.png"}],
       "annotations": [{"image_id": 7, "category_id": 10, "bbox": [20, 5, 30, 90]},
                       {"image_id": 8, "category_id": 10, "bbox": [20, 5, 30, 90]},
                       {"image_id": 7, "category_id": 10, "bbox": [20, 5, -1, 90]},
                       "text", {"image_id": 7, "category_id": true, "bbox": [1, 1, 1, 1]}]}
      """
    let fromObject = try DetectorBoxes.parseJSON(Array(object.utf8), path: "d.json", category: 10)
    #expect(fromObject.boxes["frames/cam.png"] == [DetectorBox(region: Self.region(20, 5, 30, 90))])
    #expect(
      fromObject.faults["frames/cam.png"]
        == .badDetection(
          path: "d.json", index: 3, reason: "'bbox' needs four pixel numbers, width and height above 0"))
    #expect(
      fromObject.unplaced == [
        .badDetection(path: "d.json", index: 2, reason: "image_id 8 is not in 'images'"),
        .badDetection(path: "d.json", index: 4, reason: "not an object"),
      ])
    #expect(throws: LabelError.self) {
      try DetectorBoxes.parseJSON(Array("{\"images\": []}".utf8), path: "d.json", category: 10)
    }
    #expect(throws: LabelError.self) {
      try DetectorBoxes.parseJSON(
        Array(String(repeating: "[", count: 100_000).utf8), path: "d.json", category: 10)
    }
  }

  /// A name matches an image whose path ends with the name's components, the longest
  /// name winning; other images have no boxes.
  @Test func names_matchByTheirLastComponents() throws {
    let boxes = try DetectorBoxes.parseCSV(
      "cam.png,1,1,5,5\nleft/cam.png,2,2,6,6\n./right/cam.png,3,3,7,7\n", path: "b.csv")
    #expect(boxes.name(forImage: "/data/left/cam.png") == "left/cam.png")
    #expect(boxes.name(forImage: "data/right/cam.png") == "./right/cam.png")
    #expect(boxes.name(forImage: "data/up/cam.png") == "cam.png")
    #expect(boxes.name(forImage: "cam2.png") == nil)
    #expect(try boxes.boxes(forImage: "elsewhere.png") == [])
    #expect(boxes.namesMatchingNone(of: ["/x/left/cam.png"]) == ["./right/cam.png", "cam.png"])
    // A relative image path is matched as its absolute path: a detector may write those.
    let cwd = FileManager.default.currentDirectoryPath
    let absolute = try DetectorBoxes.parseCSV(
      "\(cwd)/left/cam.png,1,1,5,5\n/elsewhere/cam.png,2,2,6,6\n", path: "b.csv")
    #expect(absolute.name(forImage: "left/cam.png") == "\(cwd)/left/cam.png")
    #expect(absolute.name(forImage: "./right/../left/cam.png") == "\(cwd)/left/cam.png")
    #expect(absolute.name(forImage: "up/cam.png") == nil)
  }
}
