import TrafficLightKernels

/// Reads input files: decode once (only the region, for a fixed one), then each region
/// through the pipeline.
public struct ImageReader: Sendable {
  public let decoder: ImageDecoder
  public let pipeline: FramePipeline
  public let regions: RegionSource
  /// Whether readings keep their class maps (for masks).
  public let keepingMaps: Bool

  public init(
    decoder: ImageDecoder = ImageDecoder(), pipeline: FramePipeline, regions: RegionSource = .wholeImage,
    keepingMaps: Bool = false
  ) {
    self.decoder = decoder
    self.pipeline = pipeline
    self.regions = regions
    self.keepingMaps = keepingMaps
  }

  /// Reads the image at `path`. Never throws: failures are in the outcome.
  public func read(_ path: String) -> ImageReading {
    var boxes: [LabelBox] = []
    var region: PixelRegion? = nil
    switch regions {
    case .wholeImage: break
    case .fixed(let fixed): region = fixed
    case .labels(let folder, let classID):
      do {
        boxes = try YOLOLabels.load(YOLOLabels.labelPath(forImage: path, in: folder)).filter {
          $0.classID == classID
        }
      } catch {
        return ImageReading(path: path, outcome: .failure(.labels(error)))
      }
    }
    let decoded: DecodedImage
    do {
      decoded = try decoder.decode(fileAt: path, region: region)
    } catch {
      return ImageReading(path: path, outcome: .failure(.decode(error)))
    }
    let readings: [RegionReading]
    if case .labels = regions {
      let image = decoded.pixels
      readings = boxes.map { box in
        let region = box.region(imageWidth: image.width, imageHeight: image.height)
        return RegionReading(
          box: box, result: pipeline.classify(image, region: region, keepingMap: keepingMaps))
      }
    } else {
      readings = [RegionReading(box: nil, result: pipeline.classify(decoded, keepingMap: keepingMaps))]
    }
    return ImageReading(path: path, outcome: .success(readings), damage: decoded.damage)
  }
}
