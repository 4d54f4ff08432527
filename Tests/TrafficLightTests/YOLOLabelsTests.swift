import Testing

@testable import TrafficLight

@Suite struct YOLOLabelsTests {
  static let boxes = [
    LabelBox(classID: 9, centreX: 0.5, centreY: 0.25, width: 0.1, height: 0.3),
    LabelBox(classID: 2, centreX: 0.2, centreY: 0.6, width: 0.05, height: 0.1, score: 0.87),
  ]

  /// Windows tools write CRLF; Swift reads "\r\n" as one character. A sixth field is the
  /// detector's score.
  @Test(arguments: ["\n", "\r\n", "\r"])
  func parse_readsEveryLineEnding(ending: String) throws {
    let text = ["9 0.5 0.25 0.1 0.3", "2 0.2 0.6 0.05 0.1 0.87", ""].joined(separator: ending)
    #expect(try YOLOLabels.parse(text, path: "cam.txt") == Self.boxes)
  }

  @Test func parse_namesTheLine_ofABadField_whateverTheLineEnding() {
    #expect(
      throws: LabelError.malformed(path: "cam.txt", line: 2, reason: "'wide' is not a number between 0 and 1")
    ) {
      try YOLOLabels.parse("9 0.5 0.25 0.1 0.3\r\n9 0.5 wide 0.1 0.3\r\n", path: "cam.txt")
    }
  }
}
