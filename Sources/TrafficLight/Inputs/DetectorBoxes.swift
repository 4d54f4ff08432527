import Foundation
import TrafficLightKernels

/// One box a detector found in an image, in the image's pixels.
public struct DetectorBox: Sendable, Equatable, Hashable {
  /// The box, edges rounded to the nearest pixel boundary (not clipped: the pipeline clips).
  public var region: PixelRegion
  /// The detector's confidence in the box; nil when the file gave none.
  public var score: Double?

  /// A box at `region` with `score`.
  public init(region: PixelRegion, score: Double? = nil) {
    self.region = region
    self.score = score
  }

  /// The box from its corners in pixels, rounded to the nearest pixel boundaries.
  init(xmin: Double, ymin: Double, xmax: Double, ymax: Double, score: Double?) {
    let (left, top) = (Int(xmin.rounded()), Int(ymin.rounded()))
    let (right, bottom) = (Int(xmax.rounded()), Int(ymax.rounded()))
    self.init(region: PixelRegion(x: left, y: top, width: right - left, height: bottom - top), score: score)
  }
}

/// The boxes of a detector's output file, by the image each names: a CSV of
/// `file,xmin,ymin,xmax,ymax[,score]` (pixels; a header line naming those columns may put
/// them in any order beside others), or a COCO results JSON (detections with `bbox` as
/// x, y, width, height in pixels, `category_id` and `score`, each naming its image by
/// `file_name`, or by `image_id` with an `images` list of `id` and `file_name`).
///
/// An entry names its image by a path whose last components are those of the image's
/// absolute path: `a.jpg` names `drive/a.jpg` (read in `/data`), and so do `drive/a.jpg` and
/// `/data/drive/a.jpg`; the longest such name wins. A fault in one entry (a box that is not
/// a box) belongs to the image the entry names: reading that image fails with it, and the
/// other images are read.
public struct DetectorBoxes: Sendable, Equatable {
  /// The file the boxes came from.
  public let path: String
  /// The boxes kept (of the class asked for, scoring at least the least score asked for),
  /// by image name as the file writes it.
  public private(set) var boxes: [String: [DetectorBox]] = [:]
  /// The first fault of each image name's entries.
  public private(set) var faults: [String: LabelError] = [:]
  /// Faults in entries that name no image.
  public private(set) var unplaced: [LabelError] = []
  /// The image names with entries (boxes, faults, or boxes all filtered out), each once.
  public private(set) var names: Set<String> = []

  /// The largest coordinate a box may have, either way (2^30).
  public static let largestCoordinate = Double(1 << 30)

  /// The COCO category of traffic lights (COCO's 91 category ids; YOLO's 80 classes number
  /// it 9).
  public static let cocoTrafficLight = 10

  /// The boxes of the file at `path`: JSON when its first character (past white space) is
  /// `[` or `{`, CSV otherwise. `category` keeps COCO detections of that `category_id` (a
  /// CSV has no class); `minimumScore` keeps boxes scoring at least that (boxes with no
  /// score are kept).
  ///
  /// - Throws: `LabelError.unreadable` when the file cannot be read or is not CSV or JSON
  ///   of this form as a whole (a fault in one entry is kept in `faults` or `unplaced`).
  public static func load(
    _ path: String, category: Int = cocoTrafficLight, minimumScore: Double? = nil, maxBytes: Int = 1 << 30
  ) throws(LabelError) -> DetectorBoxes {
    let bytes: [UInt8]
    do {
      bytes = try FileReader.readAll(path, maxBytes: maxBytes)
    } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
      return try parseJSON(bytes, path: path, category: category, minimumScore: minimumScore)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .unreadable(path: path, reason: "neither JSON nor readable UTF-8 text")
    }
    return try parseCSV(text, path: path, minimumScore: minimumScore)
  }

  /// The boxes of CSV `text` (see the type); `path` names the file in faults.
  public static func parseCSV(_ text: String, path: String, minimumScore: Double? = nil) throws(LabelError)
    -> DetectorBoxes
  {
    var result = DetectorBoxes(path: path)
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
      .map { (number: $0.offset + 1, fields: csvFields($0.element)) }
      .filter { $0.fields != [""] }
    guard let firstLine = lines.first else { return result }
    // file, xmin, ymin, xmax, ymax, score: by the header's names, or in that order.
    var columns = [0, 1, 2, 3, 4, 5]
    var rows = lines[...]
    let headerless: Bool
    let header = firstLine.fields.map { $0.lowercased() }
    if header.contains("file") || header.contains("xmin") {
      let wanted = ["file", "xmin", "ymin", "xmax", "ymax"]
      let found = wanted.map { header.firstIndex(of: $0) }
      guard found.allSatisfy({ $0 != nil }) else {
        let missing = zip(wanted, found).filter { $0.1 == nil }.map(\.0).joined(separator: ", ")
        throw .malformed(path: path, line: firstLine.number, reason: "the header does not name \(missing)")
      }
      columns = found.map { $0! } + [header.firstIndex(of: "score") ?? -1]
      rows = rows.dropFirst()
      headerless = false
    } else {
      headerless = true
    }
    let (fileColumn, scoreColumn) = (columns[0], columns[5])
    let cornersEnd = columns[1...4].max()! + 1
    for (number, fields) in rows {
      func fault(_ reason: String) -> LabelError { .malformed(path: path, line: number, reason: reason) }
      guard fields.count > fileColumn, !fields[fileColumn].isEmpty else {
        result.unplaced.append(fault("no file named"))
        continue
      }
      let name = fields[fileColumn]
      guard fields.count >= cornersEnd, !headerless || fields.count <= 6 else {
        result.note(
          fault(
            headerless
              ? "expected 'file,xmin,ymin,xmax,ymax[,score]', got \(fields.count) fields"
              : "expected \(header.count) fields, got \(fields.count)"), for: name)
        continue
      }
      var corners: [Double] = []
      for column in columns[1...4] {
        let field = fields[column].trimmingCharacters(in: .whitespaces)
        guard let value = Double(field), value.isFinite, abs(value) <= largestCoordinate else {
          corners = []
          result.note(fault("'\(field)' is not a pixel coordinate"), for: name)
          break
        }
        corners.append(value)
      }
      guard corners.count == 4 else { continue }
      var score: Double? = nil
      if scoreColumn >= 0 && fields.count > scoreColumn {
        let field = fields[scoreColumn].trimmingCharacters(in: .whitespaces)
        if !field.isEmpty {
          guard let value = Double(field), value.isFinite else {
            result.note(fault("score '\(field)' is not a number"), for: name)
            continue
          }
          score = value
        }
      }
      guard corners[2] > corners[0], corners[3] > corners[1] else {
        result.note(fault("a box needs xmin < xmax and ymin < ymax"), for: name)
        continue
      }
      result.add(
        DetectorBox(xmin: corners[0], ymin: corners[1], xmax: corners[2], ymax: corners[3], score: score),
        for: name, minimumScore: minimumScore)
    }
    return result.finish()
  }

  /// The boxes of COCO results JSON `bytes` (see the type); `path` names the file in faults,
  /// and each detection is named by its place in the list (from 1).
  public static func parseJSON(_ bytes: [UInt8], path: String, category: Int, minimumScore: Double? = nil)
    throws(LabelError) -> DetectorBoxes
  {
    var result = DetectorBoxes(path: path)
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: Data(bytes))
    } catch {
      let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
      throw .unreadable(
        path: path,
        reason: "not JSON" + (detail.map { " (\($0.trimmingCharacters(in: .punctuationCharacters)))" } ?? ""))
    }
    let detections: [Any]
    var imageNames: [String: String] = [:]
    var hasImages = false
    if let list = root as? [Any] {
      detections = list
    } else if let object = root as? [String: Any] {
      guard let list = object["annotations"] as? [Any] else {
        throw .unreadable(path: path, reason: "a JSON object needs an 'annotations' list of detections")
      }
      detections = list
      if let images = object["images"] {
        guard let images = images as? [Any] else {
          throw .unreadable(path: path, reason: "'images' is not a list")
        }
        hasImages = true
        for (index, image) in images.enumerated() {
          guard let image = image as? [String: Any], let id = image["id"].flatMap(jsonKey),
            let name = image["file_name"] as? String, !name.isEmpty
          else {
            throw .unreadable(path: path, reason: "image \(index + 1) needs an 'id' and a 'file_name'")
          }
          imageNames[id] = name
        }
      }
    } else {
      throw .unreadable(path: path, reason: "expected a list of detections, or an object with 'annotations'")
    }
    for (index, item) in detections.enumerated() {
      func fault(_ reason: String) -> LabelError {
        .badDetection(path: path, index: index + 1, reason: reason)
      }
      guard let detection = item as? [String: Any] else {
        result.unplaced.append(fault("not an object"))
        continue
      }
      let name: String
      if let fileName = detection["file_name"] as? String, !fileName.isEmpty {
        name = fileName
      } else if let id = detection["image_id"].flatMap(jsonKey) {
        if let named = imageNames[id] {
          name = named
        } else if !hasImages, detection["image_id"] is String {
          name = id
        } else {
          result.unplaced.append(
            fault(
              hasImages
                ? "image_id \(id) is not in 'images'"
                : "image_id \(id) needs an 'images' list to name its file"))
          continue
        }
      } else {
        result.unplaced.append(fault("no 'file_name' or 'image_id'"))
        continue
      }
      result.names.insert(name)
      if let id = detection["category_id"] {
        guard let value = jsonNumber(id).flatMap({ Int(exactly: $0) }) else {
          result.note(fault("category_id is not a whole number"), for: name)
          continue
        }
        if value != category { continue }
      }
      guard let bbox = detection["bbox"] as? [Any], bbox.count == 4 else {
        result.note(fault("'bbox' is not a list of x, y, width, height"), for: name)
        continue
      }
      let numbers = bbox.map { value in
        jsonNumber(value).flatMap { $0.isFinite && abs($0) <= largestCoordinate ? $0 : nil }
      }
      guard let x = numbers[0], let y = numbers[1], let width = numbers[2], let height = numbers[3],
        width > 0, height > 0
      else {
        result.note(fault("'bbox' needs four pixel numbers, width and height above 0"), for: name)
        continue
      }
      var score: Double? = nil
      if let value = detection["score"] {
        guard let number = jsonNumber(value), number.isFinite else {
          result.note(fault("score is not a number"), for: name)
          continue
        }
        score = number
      }
      result.add(
        DetectorBox(xmin: x, ymin: y, xmax: x + width, ymax: y + height, score: score), for: name,
        minimumScore: minimumScore)
    }
    return result.finish()
  }

  /// A JSON id as a key: a string, or a whole number.
  private static func jsonKey(_ value: Any) -> String? {
    if let text = value as? String { return text }
    return jsonNumber(value).flatMap { Int(exactly: $0) }.map(String.init)
  }

  /// A JSON number's value; nil for anything else, `true` and `false` included (which
  /// Foundation gives as numbers of type `c`, and which Swift's `is Bool` cannot tell from
  /// 0 and 1).
  private static func jsonNumber(_ value: Any) -> Double? {
    guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
    return number.doubleValue
  }

  /// The fields of one CSV line: separated by commas, a field in double quotes may hold
  /// commas and doubled quotes.
  static func csvFields(_ line: Substring) -> [String] {
    var fields: [String] = []
    var field = ""
    var quoted = false
    var iterator = line.makeIterator()
    var pending: Character? = nil
    while let character = pending ?? iterator.next() {
      pending = nil
      if quoted {
        if character == "\"" {
          if let next = iterator.next() {
            if next == "\"" {
              field.append("\"")
            } else {
              quoted = false
              pending = next
            }
          } else {
            quoted = false
          }
        } else {
          field.append(character)
        }
      } else if character == "\"" && field.allSatisfy(\.isWhitespace) {
        field = ""
        quoted = true
      } else if character == "," {
        fields.append(field.trimmingCharacters(in: .whitespaces))
        field = ""
      } else if character != "\r" {
        field.append(character)
      }
    }
    fields.append(field.trimmingCharacters(in: .whitespaces))
    return fields
  }

  private init(path: String) { self.path = path }

  private mutating func note(_ fault: LabelError, for name: String) {
    names.insert(name)
    if faults[name] == nil { faults[name] = fault }
  }

  private mutating func add(_ box: DetectorBox, for name: String, minimumScore: Double?) {
    names.insert(name)
    if Self.keeps(score: box.score, atLeast: minimumScore) { boxes[name, default: []].append(box) }
  }

  /// Whether a box scoring `score` is kept when boxes must score `atLeast` (nil: no least
  /// score); a box with no score is always kept.
  public static func keeps(score: Double?, atLeast minimum: Double?) -> Bool {
    guard let score, let minimum else { return true }
    return score >= minimum
  }

  /// The name in the file that names the image at `imagePath` (see the type); nil when none
  /// does.
  public func name(forImage imagePath: String) -> String? {
    // The image's absolute path: a detector run elsewhere may have written absolute names.
    let absolute =
      imagePath.hasPrefix("/") ? imagePath : FileManager.default.currentDirectoryPath + "/" + imagePath
    let imageParts = Self.components((absolute as NSString).standardizingPath)
    var best: (name: String, length: Int)? = nil
    for name in candidates(named: imageParts.last ?? "") {
      let parts = Self.components(name)
      guard parts.count <= imageParts.count, Array(imageParts.suffix(parts.count)) == parts else { continue }
      if best == nil || parts.count > best!.length { best = (name, parts.count) }
    }
    return best?.name
  }

  /// The boxes for the image at `imagePath`: none when the file names it nowhere, or all of
  /// its boxes were filtered out.
  ///
  /// - Throws: the first fault in the entries naming it.
  public func boxes(forImage imagePath: String) throws(LabelError) -> [DetectorBox] {
    guard let name = name(forImage: imagePath) else { return [] }
    if let fault = faults[name] { throw fault }
    return boxes[name] ?? []
  }

  /// The names in the file that name none of `images`.
  public func namesMatchingNone(of images: [String]) -> [String] {
    let used = Set(images.compactMap { name(forImage: $0) })
    return names.subtracting(used).sorted()
  }

  private func candidates(named last: String) -> [String] {
    byLastComponent[last] ?? []
  }

  /// `names` by their last path component.
  private var byLastComponent: [String: [String]] = [:]

  /// Indexes the names once all are added.
  private mutating func finish() -> DetectorBoxes {
    byLastComponent = Dictionary(grouping: names) { Self.components($0).last ?? "" }
    return self
  }

  /// A path's components, with `.` and empty ones dropped.
  private static func components(_ path: String) -> [String] {
    path.split(separator: "/").map(String.init).filter { $0 != "." }
  }
}
