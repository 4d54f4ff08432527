import TrafficLightKernels

/// Reads input files: decode once (only the region, for a fixed one), then each region
/// through the pipeline.
public struct ImageReader: Sendable {
  /// The decoder, with its limits.
  public let decoder: ImageDecoder
  /// The stages after decoding.
  public let pipeline: FramePipeline
  /// Where in each image the lights are: the whole image, a fixed region, or label boxes.
  public let regions: RegionSource
  /// Whether readings keep their class maps (for masks).
  public let keepingMaps: Bool
  /// The memory the images read at once share, or nil for no limit: each reading reserves its
  /// image's estimate (`ImageDecoder.estimatedMemory(of:)`) before decoding and gives it back
  /// when done. Readings that keep class maps hold theirs after that, outside the budget.
  public let budget: MemoryBudget?

  /// A reader of these parts; see each property.
  public init(
    decoder: ImageDecoder = ImageDecoder(), pipeline: FramePipeline, regions: RegionSource = .wholeImage,
    keepingMaps: Bool = false, budget: MemoryBudget? = nil
  ) {
    self.decoder = decoder
    self.pipeline = pipeline
    self.regions = regions
    self.keepingMaps = keepingMaps
    self.budget = budget
  }

  /// Reads the image at `path`. Never throws: failures are in the outcome.
  public func read(_ path: String) -> ImageReading {
    var boxes: [LabelBox] = []
    var region: PixelRegion? = nil
    switch regions {
    case .wholeImage, .foundLights, .framesOrCrops: break
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
    var reserved = 0
    defer { if reserved > 0 { budget?.release(reserved) } }
    do throws(DecodeError) {
      let bytes = try FileReader.readAll(path, maxBytes: decoder.maxFileBytes)
      if let budget {
        let needed = max(1, decoder.estimatedMemory(of: bytes))
        guard budget.reserve(needed) else {
          throw DecodeError.overMemoryBudget(path: path, needed: needed, budget: budget.bytes)
        }
        reserved = needed
      }
      switch regions {
      case .foundLights(let finder): return try readingLights(of: bytes, path: path, finder: finder)
      case .framesOrCrops(let finder, let largestCrop):
        let size = try decoder.displayedSize(of: bytes, name: path)
        if size.width * size.height > largestCrop {
          return try readingLights(of: bytes, path: path, finder: finder)
        }
      default: break
      }
      decoded = try decoder.decode(bytes, name: path, region: region)
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

  /// The lights `finder` finds in the image file `bytes` from `path`
  /// (`LampFinder.find(inImageData:name:decoder:)`), with its picture when maps are kept,
  /// drawn on the search's own decode when it was at full size.
  private func readingLights(of bytes: [UInt8], path: String, finder: LampFinder) throws(DecodeError)
    -> ImageReading
  {
    let (lights, damage, fullSize) = try finder.searched(inImageData: bytes, name: path, decoder: decoder)
    var reading = ImageReading(
      path: path, outcome: .success(lights.map(RegionReading.init(found:))), damage: damage)
    reading.searchedForLights = true
    if keepingMaps {
      let pixels = if let fullSize { fullSize } else { try decoder.decode(bytes, name: path).pixels }
      reading.picture = FoundLightsPicture.render(pixels, lights: lights)
    }
    return reading
  }
}
