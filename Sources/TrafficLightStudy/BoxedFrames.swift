import Foundation
import TrafficLight
import TrafficLightKernels

/// A box labelled in a whole frame: a light's housing with its state, or a lit lamp.
public struct LabelledBox: Sendable, Equatable {
  /// What the box holds.
  public enum Kind: Sendable, Equatable {
    /// A light's housing.
    case light
    /// A lit lamp (the light around it is not boxed).
    case lamp
  }

  /// Whether the box is a housing or a lamp.
  public var kind: Kind
  /// The label as written (`red`, `yellow`, `green`, or for lamps also `left`).
  public var label: String
  /// The colour the label stands for: a left-turn arrow is a green lamp; nil for labels of
  /// no colour.
  public var color: SignalColor?
  /// The box, in the frame's pixels.
  public var box: PixelRegion

  /// A box of `kind` labelled `label` at `box`.
  public init(kind: Kind, label: String, box: PixelRegion) {
    self.kind = kind
    self.label = label
    self.color = label == "left" ? .green : SignalColor(rawValue: label).flatMap { $0 == .unknown ? nil : $0 }
    self.box = box
  }
}

/// A whole frame and the boxes labelled in it.
public struct BoxedFrame: Sendable, Equatable {
  /// The frame's file.
  public var path: String
  /// Its labelled boxes; none when it shows no light.
  public var boxes: [LabelledBox]

  /// The colour the frame's labels give: the most restrictive of its lights' (red, then
  /// yellow, then green), `unknown` when it has none.
  public var color: SignalColor {
    SignalColor.byRestrictiveness.first { color in boxes.contains { $0.color == color } } ?? .unknown
  }
}

/// A folder of whole frames with boxes: `frames/` and a `boxes.csv` with the columns
/// `file,state,xmin,ymin,xmax,ymax` (housing boxes) or `file,lamp,xmin,ymin,xmax,ymax` (lit-lamp
/// boxes), integer pixels with `xmax` and `ymax` exclusive. Frames in `frames/` with no row show
/// no light.
public enum BoxedFrames {
  /// The largest coordinate a box may have, either way (2^30).
  public static let largestCoordinate = 1 << 30

  /// Whether `folder` has the layout above.
  public static func isBoxedFolder(_ folder: String) -> Bool {
    let files = FileManager.default
    var isFolder: ObjCBool = false
    return files.fileExists(atPath: (folder as NSString).appendingPathComponent("boxes.csv"))
      && files.fileExists(
        atPath: (folder as NSString).appendingPathComponent("frames"), isDirectory: &isFolder)
      && isFolder.boolValue
  }

  /// The frames of `folder`, in natural order, with their boxes.
  public static func load(_ folder: String) throws(LabelledSetError) -> [BoxedFrame] {
    guard isBoxedFolder(folder) else { throw .noLabels(folder) }
    let csv = (folder as NSString).appendingPathComponent("boxes.csv")
    guard let text = try? String(contentsOfFile: csv, encoding: .utf8) else {
      throw .badLabels(path: csv, line: 1, reason: "not readable UTF-8 text")
    }
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
    }
    guard let header = lines.first, let file = header.firstIndex(of: "file") else {
      throw .badLabels(path: csv, line: 1, reason: "the header must name a 'file' column")
    }
    let kind: LabelledBox.Kind
    let labelColumn: Int
    if let state = header.firstIndex(of: "state") {
      (kind, labelColumn) = (.light, state)
    } else if let lamp = header.firstIndex(of: "lamp") {
      (kind, labelColumn) = (.lamp, lamp)
    } else {
      throw .badLabels(path: csv, line: 1, reason: "the header must name a 'state' or a 'lamp' column")
    }
    let corners = ["xmin", "ymin", "xmax", "ymax"].map { header.firstIndex(of: $0) }
    guard corners.allSatisfy({ $0 != nil }) else {
      throw .badLabels(path: csv, line: 1, reason: "the header must name xmin, ymin, xmax and ymax columns")
    }
    var boxes: [String: [LabelledBox]] = [:]
    for (index, fields) in lines.enumerated().dropFirst() where fields != [""] {
      let needed = ([file, labelColumn] + corners.map { $0! }).max()!
      guard fields.count > needed else {
        throw .badLabels(path: csv, line: index + 1, reason: "expected \(header.count) fields")
      }
      // Bounded far beyond any frame (at most 100 million pixels), so that no sum or
      // difference of coordinates overflows.
      let numbers = corners.map {
        Int(fields[$0!]).flatMap {
          (-Self.largestCoordinate...Self.largestCoordinate).contains($0) ? $0 : nil
        }
      }
      guard let x0 = numbers[0], let y0 = numbers[1], let x1 = numbers[2], let y1 = numbers[3], x1 > x0,
        y1 > y0
      else {
        throw .badLabels(
          path: csv, line: index + 1,
          reason: "a box needs whole numbers from -\(Self.largestCoordinate) to \(Self.largestCoordinate) "
            + "with xmin < xmax, ymin < ymax")
      }
      let box = LabelledBox(
        kind: kind, label: fields[labelColumn],
        box: PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
      boxes[fields[file], default: []].append(box)
    }
    let frames = (folder as NSString).appendingPathComponent("frames")
    return InputCollector.collect([frames]).compactMap { input in
      guard case .image(let path) = input else { return nil }
      return BoxedFrame(path: path, boxes: boxes[(path as NSString).lastPathComponent] ?? [])
    }
  }

  /// The labelled lights of `folder` for fitting a reading: each housing box of each frame,
  /// in frame order, a light labelled with its box's state (`unknown`: a light whose lamps
  /// all show dark) and read as that region of the frame. Frames with no box add none.
  ///
  /// - Throws: `LabelledSetError` as `load(_:)` does; `badLabels` for a folder of lit-lamp
  ///   boxes (no housing to read as a light) and for a state other than red, yellow, green
  ///   or unknown.
  public static func labelledLights(_ folder: String) throws(LabelledSetError) -> [LabelledImage] {
    let frames = try load(folder)
    let csv = (folder as NSString).appendingPathComponent("boxes.csv")
    var lights: [LabelledImage] = []
    for frame in frames {
      for box in frame.boxes {
        guard box.kind == .light else {
          throw .badLabels(
            path: csv, line: 1,
            reason:
              "boxes of lit lamps (a 'lamp' column), not of lights: a light's housing is what is read as its crop"
          )
        }
        guard let truth = SignalColor(rawValue: box.label) else {
          let name = (frame.path as NSString).lastPathComponent
          throw .badLabels(
            path: csv, line: line(in: csv, naming: name, label: box.label),
            reason: "\(name)'s box is labelled '\(box.label)': a state is red, yellow, green or unknown")
        }
        lights.append(LabelledImage(path: frame.path, truth: truth, region: box.box))
      }
    }
    return lights
  }

  /// The line of `csv` (from 1) whose fields hold `name` and `label`; 1 when none does.
  private static func line(in csv: String, naming name: String, label: String) -> Int {
    guard let text = try? String(contentsOfFile: csv, encoding: .utf8) else { return 1 }
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    let index = lines.firstIndex { line in
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      return fields.contains(name) && fields.contains(label)
    }
    return (index ?? 0) + 1
  }
}
