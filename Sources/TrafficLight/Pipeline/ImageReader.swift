import Foundation
import TrafficLightKernels

/// Where in each image the light is.
public enum RegionSource: Sendable, Equatable {
  /// The image is the crop of one light.
  case wholeImage
  /// The same rectangle in every image (clipped to it).
  case fixed(PixelRegion)
  /// Boxes of class `classID` from the YOLO label file named like the image in `folder`.
  case labels(folder: String, classID: Int)
}

/// Why an input gave no reading.
public enum InputError: Error, Sendable, Equatable, CustomStringConvertible {
  case decode(DecodeError)
  case labels(LabelError)

  /// The reason, without the image's path (a label error names its label file).
  public var reason: String {
    switch self {
    case .decode(let error): error.reason
    case .labels(let error): error.description
    }
  }

  public var description: String {
    switch self {
    case .decode(let error): error.description
    case .labels(let error): error.description
    }
  }
}

/// One region of an image and what was read there.
public struct RegionReading: Sendable, Equatable {
  /// The label box the region came from, with `--labels`.
  public let box: LabelBox?
  public let result: FrameResult

  public init(box: LabelBox?, result: FrameResult) {
    self.box = box
    self.result = result
  }
}

/// What was read from one input file.
public struct ImageReading: Sendable, Equatable {
  public let path: String
  /// Every region read (one per box with labels; none when a label file has no box of the
  /// class), or why the file gave nothing.
  public let outcome: Result<[RegionReading], InputError>
  /// Damage the decoder patched over, when damaged images are accepted.
  public let damage: String?

  public init(path: String, outcome: Result<[RegionReading], InputError>, damage: String? = nil) {
    self.path = path
    self.outcome = outcome
    self.damage = damage
  }

  /// The reading that stands for the frame in a sequence: the largest region (the first of
  /// equal ones); `nil` when there is none.
  public var primary: RegionReading? {
    guard case .success(let readings) = outcome else { return nil }
    return readings.enumerated().max { a, b in
      let areaA = a.element.result.region.map { $0.width * $0.height } ?? 0
      let areaB = b.element.result.region.map { $0.width * $0.height } ?? 0
      return areaA != areaB ? areaA < areaB : a.offset > b.offset
    }?.element
  }

  /// The frame's colour in a sequence: the primary region's, else `unknown`.
  public var frameColor: SignalColor { primary?.result.color ?? .unknown }

  /// This reading without the class maps (which are large), for keeping.
  public func droppingMaps() -> ImageReading {
    ImageReading(
      path: path,
      outcome: outcome.map { readings in
        readings.map { reading in
          RegionReading(
            box: reading.box,
            result: FrameResult(decision: reading.result.decision, region: reading.result.region))
        }
      }, damage: damage)
  }
}

/// Reads input files: decode once, then each region through the pipeline.
public struct ImageReader: Sendable {
  public let pipeline: FramePipeline
  public let regions: RegionSource
  /// Whether readings keep their class maps (for masks).
  public let keepingMaps: Bool

  public init(pipeline: FramePipeline, regions: RegionSource = .wholeImage, keepingMaps: Bool = false) {
    self.pipeline = pipeline
    self.regions = regions
    self.keepingMaps = keepingMaps
  }

  /// Reads the image at `path`. Never throws: failures are in the outcome.
  public func read(_ path: String) -> ImageReading {
    var boxes: [LabelBox]? = nil
    if case .labels(let folder, let classID) = regions {
      do {
        boxes = try YOLOLabels.load(YOLOLabels.labelPath(forImage: path, in: folder)).filter {
          $0.classID == classID
        }
      } catch {
        return ImageReading(path: path, outcome: .failure(.labels(error)))
      }
    }
    if case .fixed(let region) = regions {
      do {
        let (result, damage) = try pipeline.classifyNotingDamage(
          fileAt: path, region: region, keepingMap: keepingMaps)
        return ImageReading(
          path: path, outcome: .success([RegionReading(box: nil, result: result)]), damage: damage)
      } catch {
        return ImageReading(path: path, outcome: .failure(.decode(error)))
      }
    }
    let image: RGBImage
    let damage: String?
    do {
      (image, damage) = try pipeline.decoder.decodeNotingDamage(fileAt: path)
    } catch {
      return ImageReading(path: path, outcome: .failure(.decode(error)))
    }
    let readings: [RegionReading]
    switch regions {
    case .wholeImage:
      readings = [RegionReading(box: nil, result: pipeline.classify(image, keepingMap: keepingMaps))]
    case .fixed(let region):
      readings = [
        RegionReading(box: nil, result: pipeline.classify(image, region: region, keepingMap: keepingMaps))
      ]
    case .labels:
      readings = (boxes ?? []).map { box in
        let region = box.region(imageWidth: image.width, imageHeight: image.height)
        return RegionReading(
          box: box, result: pipeline.classify(image, region: region, keepingMap: keepingMaps))
      }
    }
    return ImageReading(path: path, outcome: .success(readings), damage: damage)
  }
}
