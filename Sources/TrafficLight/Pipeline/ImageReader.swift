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
  /// when done (`read(_:reservingPerPixel:then:)` also counts each box's reading and what the
  /// caller makes of the reading while it is reserved, masks for one).
  public let budget: MemoryBudget?

  /// A reader of these parts; see each property. Without `regions` it reads images as the
  /// command line does: an image of at most `RegionSource.largestCrop` pixels is one light's
  /// crop, a larger one a frame searched by the profile's finder (`Profile.frameFinder`).
  public init(
    decoder: ImageDecoder = ImageDecoder(), pipeline: FramePipeline, regions: RegionSource? = nil,
    keepingMaps: Bool = false, budget: MemoryBudget? = nil
  ) {
    self.decoder = decoder
    self.pipeline = pipeline
    self.regions =
      regions ?? .framesOrCrops(pipeline.profile.frameFinder(), largestCrop: RegionSource.largestCrop)
    self.keepingMaps = keepingMaps
    self.budget = budget
  }

  /// Reads the image at `path`. Never throws: failures are in the outcome.
  public func read(_ path: String) -> ImageReading {
    read(path, reservingPerPixel: 0) { $0 }
  }

  /// The memory a reading of one box holds beyond its class map: its sample points and the
  /// rest of its result.
  var bytesPerBox: Int {
    let grid = pipeline.profile.grid
    return grid.points * grid.columns * MemoryLayout<SamplePoint>.stride + 1024
  }

  /// Reads the image at `path` and gives the reading to `finish` while the budget still holds
  /// the memory reserved for it: the decode's, each box's reading (`bytesPerBox`, and its
  /// class map when maps are kept), and `extra` bytes per pixel of the image for what
  /// `finish` makes of it (a mask picture and its encoding). What `finish` returns should
  /// hold no more than it needs: it lives outside the budget.
  public func read<T>(_ path: String, reservingPerPixel extra: Int, then finish: (ImageReading) -> T) -> T {
    read(path, bytes: nil, reservingPerPixel: extra, then: finish)
  }

  /// Reads the image file held in `bytes` as `read(_:reservingPerPixel:then:)` reads a file
  /// (`name` names it in the reading and its errors; label boxes are looked up by it): a
  /// frame of a video, an upload.
  public func read<T>(
    bytes: [UInt8], name: String, reservingPerPixel extra: Int = 0, then finish: (ImageReading) -> T
  ) -> T {
    read(name, bytes: bytes, reservingPerPixel: extra, then: finish)
  }

  private func read<T>(
    _ path: String, bytes given: [UInt8]?, reservingPerPixel extra: Int, then finish: (ImageReading) -> T
  ) -> T {
    var boxes: [LabelBox] = []
    var detected: [DetectorBox] = []
    var region: PixelRegion? = nil
    switch regions {
    case .wholeImage, .foundLights, .framesOrCrops: break
    case .fixed(let fixed): region = fixed
    case .labels(let folder, let classID, let minimumScore):
      do {
        boxes = try YOLOLabels.load(YOLOLabels.labelPath(forImage: path, in: folder)).filter {
          $0.classID == classID && DetectorBoxes.keeps(score: $0.score, atLeast: minimumScore)
        }
      } catch {
        return finish(ImageReading(path: path, outcome: .failure(.labels(error))))
      }
    case .boxes(let table):
      do {
        detected = try table.boxes(forImage: path)
      } catch {
        return finish(ImageReading(path: path, outcome: .failure(.labels(error))))
      }
    }
    let boxCount = boxes.count + detected.count
    /// The boxes to read in an image of `width` x `height`, each with its label box when it
    /// came from a YOLO file.
    func placed(_ width: Int, _ height: Int) -> [(label: LabelBox?, region: PixelRegion)] {
      boxes.map { ($0, $0.region(imageWidth: width, imageHeight: height)) }
        + detected.map { (nil, $0.region) }
    }
    let decoded: DecodedImage
    var reserved = 0
    defer { if reserved > 0 { budget?.release(reserved) } }
    do throws(DecodeError) {
      let bytes: [UInt8]
      if let given {
        bytes = given
      } else {
        bytes = try FileReader.readAll(path, maxBytes: decoder.maxFileBytes)
      }
      // The header's size, read once: the choice of frame or crop needs it, and so does the
      // reservation of boxes and of what `finish` makes.
      var size: (width: Int, height: Int)? = nil
      var header: ImageDecoder.Header? = nil
      if case .framesOrCrops = regions {
        header = try decoder.header(of: bytes, name: path)
        size = header?.displayedSize
      }
      if let budget {
        var needed = max(
          1,
          header.map { decoder.estimatedMemory(of: bytes, header: $0) } ?? decoder.estimatedMemory(of: bytes))
        if extra > 0 || boxCount > 0, size == nil {
          size = try? decoder.displayedSize(of: bytes, name: path)
        }
        if extra > 0 || boxCount > 0, let size {
          let pixels = size.width * size.height
          needed += extra * pixels + boxCount * bytesPerBox
          if keepingMaps {
            needed += placed(size.width, size.height).reduce(0) { total, box in
              total + min(pixels, max(0, box.region.width) * max(0, box.region.height))
            }
          }
        }
        guard budget.reserve(needed) else {
          throw DecodeError.overMemoryBudget(path: path, needed: needed, budget: budget.bytes)
        }
        reserved = needed
      }
      switch regions {
      case .foundLights(let finder): return finish(try readingLights(of: bytes, path: path, finder: finder))
      case .framesOrCrops(let finder, let largestCrop):
        if let size, size.width * size.height > largestCrop {
          return finish(try readingLights(of: bytes, path: path, finder: finder))
        }
      default: break
      }
      decoded = try decoder.decode(bytes, name: path, region: region, header: header)
    } catch {
      return finish(ImageReading(path: path, outcome: .failure(.decode(error))))
    }
    let readings: [RegionReading]
    switch regions {
    case .labels, .boxes:
      let image = decoded.pixels
      readings = placed(image.width, image.height).map { box in
        RegionReading(
          box: box.label, result: pipeline.classify(image, region: box.region, keepingMap: keepingMaps))
      }
    default:
      readings = [RegionReading(box: nil, result: pipeline.classify(decoded, keepingMap: keepingMaps))]
    }
    return finish(ImageReading(path: path, outcome: .success(readings), damage: decoded.damage))
  }

  /// The lights `finder` finds in the image file `bytes` from `path`
  /// (`LampFinder.find(inImageData:name:decoder:)`), with its picture when maps are kept,
  /// drawn on the search's own decode when it was at full size.
  private func readingLights(of bytes: [UInt8], path: String, finder: LampFinder) throws(DecodeError)
    -> ImageReading
  {
    let (lights, damage, seen) = try finder.searched(inImageData: bytes, name: path, decoder: decoder)
    let read = pipeline.read(lights, seen: seen)
    var reading = ImageReading(
      path: path, outcome: .success(read.map { RegionReading(found: $0.light, decision: $0.decision) }),
      damage: damage)
    reading.searchedForLights = true
    reading.choice = finder.choice
    if keepingMaps {
      let size = try decoder.displayedSize(of: bytes, name: path)
      let pixels =
        if let seen, seen.isWhole(width: size.width, height: size.height) {
          seen.image
        } else {
          try decoder.decode(bytes, name: path).pixels
        }
      reading.picture = FoundLightsPicture.render(pixels, lights: read.map(\.light))
    }
    return reading
  }
}
