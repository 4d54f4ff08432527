import Foundation
import TrafficLightKernels

/// One box of a YOLO label file: `class cx cy w h`, the centre and size normalised to 0...1.
public struct LabelBox: Sendable, Equatable, Hashable {
  /// The detector's class number.
  public var classID: Int
  /// The box's centre, as a fraction of the image's width.
  public var centreX: Double
  /// The box's centre, as a fraction of the image's height.
  public var centreY: Double
  /// The box's width, as a fraction of the image's.
  public var width: Double
  /// The box's height, as a fraction of the image's.
  public var height: Double
  /// The detector's confidence, from a sixth field; nil when there is none.
  public var score: Double?

  /// A box in YOLO's normalised form.
  public init(
    classID: Int, centreX: Double, centreY: Double, width: Double, height: Double, score: Double? = nil
  ) {
    self.score = score
    self.classID = classID
    self.centreX = centreX
    self.centreY = centreY
    self.width = width
    self.height = height
  }

  /// The box in pixels of an image of `imageWidth` x `imageHeight`, edges rounded to the
  /// nearest pixel boundary (not clipped: the pipeline clips).
  public func region(imageWidth: Int, imageHeight: Int) -> PixelRegion {
    let left = ((centreX - width / 2) * Double(imageWidth)).rounded()
    let top = ((centreY - height / 2) * Double(imageHeight)).rounded()
    let right = ((centreX + width / 2) * Double(imageWidth)).rounded()
    let bottom = ((centreY + height / 2) * Double(imageHeight)).rounded()
    return PixelRegion(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
  }
}

/// Why a label file could not be used.
public enum LabelError: Error, Sendable, Equatable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case malformed(path: String, line: Int, reason: String)
  /// Detection `index` (from 1) of a detector's JSON file is not one.
  case badDetection(path: String, index: Int, reason: String)

  /// The label file, the line when it is one line's fault, and the reason.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot read its boxes: \(reason)"
    case .malformed(let path, let line, let reason): "\(path):\(line): \(reason)"
    case .badDetection(let path, let index, let reason): "\(path): detection \(index): \(reason)"
    }
  }
}

/// YOLO label files: one `.txt` per image, named like the image, one box per line.
public enum YOLOLabels {
  /// The class of traffic lights among the 80 COCO classes YOLO models number from 0
  /// (COCO's own category ids, `DetectorBoxes.cocoTrafficLight`, give it 10).
  public static let trafficLightClass = 9

  /// The label file for `imagePath` in `folder`: the image's file name with `.txt` for its
  /// extension.
  public static func labelPath(forImage imagePath: String, in folder: String) -> String {
    let name = (imagePath as NSString).lastPathComponent
    let stem = (name as NSString).deletingPathExtension
    return (folder as NSString).appendingPathComponent(stem + ".txt")
  }

  /// The boxes in the file at `path`; a missing file means no boxes.
  ///
  /// - Throws: `LabelError` for a file that exists but cannot be read or parsed.
  public static func load(_ path: String) throws(LabelError) -> [LabelBox] {
    var status = stat()
    guard FileSystemPath.status(path, &status) else { return [] }
    let bytes: [UInt8]
    do {
      bytes = try FileReader.readAll(path, maxBytes: 64 << 20)
    } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .unreadable(path: path, reason: "not readable UTF-8 text")
    }
    return try parse(text, path: path)
  }

  /// The boxes in `text`; `path` names the file in errors. Lines end with LF, CRLF or CR
  /// (Swift reads CRLF as one character, which a split on LF alone never splits); blank
  /// lines are ignored; a sixth field is the detector's confidence (`score`; a field that is
  /// not a finite number is ignored).
  public static func parse(_ text: String, path: String) throws(LabelError) -> [LabelBox] {
    var boxes: [LabelBox] = []
    for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      .enumerated()
    {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      if fields.isEmpty { continue }
      guard fields.count == 5 || fields.count == 6 else {
        throw .malformed(
          path: path, line: index + 1, reason: "expected 'class cx cy w h', got \(fields.count) fields")
      }
      guard let classID = Int(fields[0]), classID >= 0 else {
        throw .malformed(path: path, line: index + 1, reason: "class '\(fields[0])' is not a whole number")
      }
      var numbers: [Double] = []
      for field in fields[1...4] {
        guard let value = Double(field), value.isFinite, value >= 0, value <= 1 else {
          throw .malformed(path: path, line: index + 1, reason: "'\(field)' is not a number between 0 and 1")
        }
        numbers.append(value)
      }
      let score = fields.count == 6 ? Double(fields[5]).flatMap { $0.isFinite ? $0 : nil } : nil
      boxes.append(
        LabelBox(
          classID: classID, centreX: numbers[0], centreY: numbers[1], width: numbers[2], height: numbers[3],
          score: score))
    }
    return boxes
  }
}
