import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight
@testable import TrafficLightStudy

/// A 16x8 image: left half red, right half green, with a blue bottom row: enough structure
/// to tell a correct decode from a transposed or channel-swapped one.
func patternImage() -> RGBImage {
  var image = RGBImage(width: 16, height: 8)
  for y in 0..<8 {
    for x in 0..<16 {
      image[x, y] = y == 7 ? (0, 0, 255) : x < 8 ? (230, 20, 20) : (20, 230, 20)
    }
  }
  return image
}

func assertClose(
  _ pixel: (r: UInt8, g: UInt8, b: UInt8), _ expected: (Int, Int, Int), tolerance: Int,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let difference = max(
    abs(Int(pixel.r) - expected.0), abs(Int(pixel.g) - expected.1), abs(Int(pixel.b) - expected.2))
  #expect(difference <= tolerance, "\(pixel) is not \(expected)", sourceLocation: sourceLocation)
}

@Suite struct ImageDecoderTests {
  let decoder = ImageDecoder()

  @Test func png_rgb_decodesExactly() throws {
    let image = patternImage()
    let decoded = try decoder.decode(try ImageEncoder.png(image)).pixels
    #expect(decoded == image)
  }

  @Test func jpeg_rgb_decodesCloseToOriginal() throws {
    let decoded = try decoder.decode(try ImageEncoder.jpeg(patternImage(), quality: 95)).pixels
    #expect(decoded.width == 16 && decoded.height == 8)
    assertClose(decoded[2, 2], (230, 20, 20), tolerance: 24)
    assertClose(decoded[13, 2], (20, 230, 20), tolerance: 24)
  }

  @Test func jpeg_progressive_decodes() throws {
    let bytes = try ImageEncoder.jpeg(patternImage(), quality: 95, progressive: true)
    #expect(bytes.contains(0xC2) && !bytes.isEmpty)  // SOF2: progressive
    let decoded = try decoder.decode(bytes).pixels
    assertClose(decoded[2, 2], (230, 20, 20), tolerance: 24)
  }

  @Test func jpeg_grayscale_expandsToRGB() throws {
    let gray = RGBImage(width: 8, height: 8, fill: (120, 0, 0))
    let decoded = try decoder.decode(try ImageEncoder.jpeg(gray, layout: .gray)).pixels
    assertClose(decoded[4, 4], (120, 120, 120), tolerance: 2)
  }

  @Test func jpeg_cmyk_convertsToRGB() throws {
    let decoded = try decoder.decode(try ImageEncoder.jpeg(patternImage(), quality: 95, layout: .cmyk)).pixels
    assertClose(decoded[2, 2], (230, 20, 20), tolerance: 24)
    assertClose(decoded[13, 2], (20, 230, 20), tolerance: 24)
  }

  @Test func png_grayAndGrayAlpha_expandAndCompositeOnBlack() throws {
    let grayFile = try ImageEncoder.png(samples: [0, 100, 200, 255], width: 2, height: 2, layout: .gray)
    #expect(pngHeader(grayFile) == (depth: 8, colorType: 0))
    let gray = try decoder.decode(grayFile).pixels
    #expect(gray[1, 0] == (100, 100, 100))
    #expect(gray[1, 1] == (255, 255, 255))
    // Gray 200 at full alpha stays 200; gray 200 at alpha 0 becomes black.
    let grayAlphaFile = try ImageEncoder.png(
      samples: [200, 255, 200, 0], width: 2, height: 1, layout: .grayAlpha)
    #expect(pngHeader(grayAlphaFile) == (depth: 8, colorType: 4))
    let grayAlpha = try decoder.decode(grayAlphaFile).pixels
    #expect(grayAlpha[0, 0] == (200, 200, 200))
    #expect(grayAlpha[1, 0] == (0, 0, 0))
  }

  @Test func png_rgba_dropsAlphaOntoBlack() throws {
    let samples: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 0]
    let file = try ImageEncoder.png(samples: samples, width: 2, height: 1, layout: .rgba)
    #expect(pngHeader(file) == (depth: 8, colorType: 6))
    let decoded = try decoder.decode(file).pixels
    #expect(decoded[0, 0] == (255, 0, 0))
    #expect(decoded[1, 0] == (0, 0, 0))
  }

  @Test func png_sixteenBit_isReducedToEightBits() throws {
    // libpng's simplified writer takes 16-bit gray as linear light and stores it with an
    // sRGB-equivalent gamma; what matters here is that the extremes and the order survive.
    let values: [UInt16] = [0, 1000, 30000, 65535]
    let bytes = values.withUnsafeBytes { Array($0) }
    let file = try ImageEncoder.png(samples: bytes, width: 4, height: 1, layout: .gray16)
    #expect(pngHeader(file) == (depth: 16, colorType: 0))
    let decoded = try decoder.decode(file).pixels
    #expect(decoded[0, 0] == (0, 0, 0))
    #expect(decoded[3, 0] == (255, 255, 255))
    #expect(decoded[1, 0].r < decoded[2, 0].r)
    #expect(decoded[2, 0].r == decoded[2, 0].g && decoded[2, 0].g == decoded[2, 0].b)
  }

  @Test func png_palette_expands() throws {
    let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 0, 255), (10, 20, 30)]
    let file = try ImageEncoder.png(samples: [0, 1, 2, 1], width: 2, height: 2, layout: .palette(palette))
    #expect(pngHeader(file).colorType == 3)  // libpng packs 3 entries into 2-bit indices
    let decoded = try decoder.decode(file).pixels
    #expect(decoded[0, 0] == (255, 0, 0))
    #expect(decoded[1, 0] == (0, 0, 255))
    #expect(decoded[0, 1] == (10, 20, 30))
  }

  @Test func decode_fileOnDisk_sameAsBytes() throws {
    let bytes = try ImageEncoder.png(patternImage())
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("decode-\(UUID()).png").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try decoder.decode(fileAt: path).pixels == patternImage())
  }

  @Test func decode_formatComesFromContentNotName() throws {
    let bytes = try ImageEncoder.jpeg(patternImage())
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-\(UUID()).png").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try decoder.decode(fileAt: path).pixels.width == 16)
  }

  @Test func pixelBudget_isCheckedFromTheHeader() throws {
    let bytes = try ImageEncoder.png(patternImage())  // 128 pixels
    let tight = ImageDecoder(maxPixels: 127)
    #expect(throws: DecodeError.tooManyPixels(path: "p.png", width: 16, height: 8, limit: 127)) {
      try tight.decode(bytes, name: "p.png")
    }
    #expect(try ImageDecoder(maxPixels: 128).decode(bytes).pixels.pixelCount == 128)
  }

  @Test func pixelBudget_rejectsHugeHeaderWithoutAllocating() throws {
    // A PNG header claiming 100000 x 100000 pixels with no data behind it.
    var bytes = try ImageEncoder.png(patternImage())
    let huge: [UInt8] = [0x00, 0x01, 0x86, 0xA0]  // 100000
    bytes.replaceSubrange(16..<20, with: huge)
    bytes.replaceSubrange(20..<24, with: huge)
    // Fix the IHDR CRC so the header parses.
    let crc = crc32(bytes[12..<29])
    bytes.replaceSubrange(
      29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
    #expect(
      throws: DecodeError.tooManyPixels(path: "huge.png", width: 100_000, height: 100_000, limit: 100_000_000)
    ) {
      try decoder.decode(bytes, name: "huge.png").pixels
    }
  }

  @Test func errors_nameTheFileAndTheReason() throws {
    #expect(throws: DecodeError.unreadable(path: "empty.jpg", reason: "file is empty")) {
      try decoder.decode([], name: "empty.jpg").pixels
    }
    #expect(throws: DecodeError.unsupportedFormat(path: "notes.jpg")) {
      try decoder.decode(Array("hello, world".utf8), name: "notes.jpg").pixels
    }
    let missing = "/nonexistent/\(UUID()).jpg"
    #expect(throws: DecodeError.unreadable(path: missing, reason: "No such file or directory")) {
      try decoder.decode(fileAt: missing).pixels
    }
    #expect(throws: DecodeError.unreadable(path: "/tmp", reason: "is a directory")) {
      try decoder.decode(fileAt: "/tmp").pixels
    }
    let cutPNG = Array(try ImageEncoder.png(patternImage()).prefix(60))
    do {
      _ = try decoder.decode(cutPNG, name: "cut.png").pixels
      Issue.record("a truncated PNG decoded")
    } catch {
      #expect(error.path == "cut.png")
      #expect(error.description.hasPrefix("cut.png: corrupt PNG: "))
    }
  }

  @Test func truncatedJPEG_isDamaged_unlessAccepted() throws {
    let bytes = try ImageEncoder.jpeg(randomPatternImage(), quality: 90)
    let cut = Array(bytes.prefix(bytes.count * 2 / 3))
    do throws(DecodeError) {
      _ = try decoder.decode(cut, name: "cut.jpg").pixels
      Issue.record("a truncated JPEG decoded without complaint")
    } catch {
      guard case .damaged(path: "cut.jpg", format: .jpeg, let warning) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(warning.contains("Premature end"))
    }
    let lenient = ImageDecoder(acceptsDamagedData: true)
    #expect(try lenient.decode(cut).pixels.width == 64)
  }

  @Test func corruptJPEGHeader_isAnError() throws {
    var bytes = try ImageEncoder.jpeg(patternImage())
    bytes.replaceSubrange(2..<bytes.count / 2, with: repeatElement(0x00, count: bytes.count / 2 - 2))
    #expect(throws: DecodeError.self) { try decoder.decode(bytes, name: "bad.jpg").pixels }
  }
}

/// 64x64 of noise: a JPEG of it is long enough to cut in the middle of the scan.
func randomPatternImage() -> RGBImage {
  var state: UInt32 = 12345
  return RGBImage(
    width: 64, height: 64,
    bytes: (0..<64 * 64 * 3).map { _ in
      state = state &* 1_103_515_245 &+ 12345
      return UInt8(truncatingIfNeeded: state >> 16)
    })
}

/// Bit depth and colour type from a PNG's IHDR chunk: proof of what kind of file a test made.
func pngHeader(_ bytes: [UInt8]) -> (depth: UInt8, colorType: UInt8) { (bytes[24], bytes[25]) }

@Suite struct FuzzRegressionTests {
  @Test func fuzzerInputs_decodeOrFailCleanly_andDecodedOnesGoThroughThePipeline() throws {
    let folder = TestPaths.packageRoot.appendingPathComponent("Fuzz/regressions").path
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".md") }
      .sorted()
    #expect(names.count >= 20)
    let pipeline = FramePipeline(profile: .default)
    var decoded = 0
    for name in names {
      do {
        let image = try ImageDecoder(maxPixels: 4_000_000).decode(fileAt: folder + "/" + name).pixels
        decoded += 1
        _ = pipeline.classify(image)
      } catch {
        #expect(error.path == folder + "/" + name)
        #expect(!error.reason.isEmpty)
      }
    }
    print("fuzz regressions: \(names.count) inputs, \(decoded) decoded")
  }
}

@Suite struct RegionDecodeTests {
  /// A 401 x 203 picture with detail everywhere, so that a wrong pixel anywhere shows (large
  /// enough that the decoder takes the region path, not a whole decode).
  static func detailed() -> RGBImage {
    var generator = SeededGenerator(seed: 11)
    var image = RGBImage(width: 401, height: 203)
    for y in 0..<203 {
      for x in 0..<401 {
        let noise = UInt8(generator.next() % 40)
        image[x, y] = (
          UInt8((x * 5) % 200) &+ noise, UInt8((y * 3) % 220) &+ noise, UInt8(((x + y) * 2) % 180) &+ noise
        )
      }
    }
    return image
  }

  static let regions = [
    PixelRegion(x: 0, y: 0, width: 401, height: 203), PixelRegion(x: 0, y: 0, width: 1, height: 1),
    PixelRegion(x: 100, y: 50, width: 60, height: 150), PixelRegion(x: 37, y: 91, width: 13, height: 7),
    PixelRegion(x: 390, y: 190, width: 11, height: 13), PixelRegion(x: 17, y: 0, width: 384, height: 1),
    PixelRegion(x: 150, y: 100, width: 400, height: 400),  // clipped to the image
  ]

  /// Regions of the 401x203 image (decoded region by region) and of a 200x150 one (at most
  /// 2^16 pixels: decoded whole, by the same reader that read the header, and cropped).
  @Test(arguments: [JPEGLayout.rgb, .gray, .cmyk])
  func regionDecode_equalsFullDecodeCropped(layout: JPEGLayout) throws {
    for (progressive, small) in [(false, false), (true, false), (false, true), (true, true)] {
      let image =
        small
        ? Self.detailed().cropped(to: PixelRegion(x: 0, y: 0, width: 200, height: 150)) : Self.detailed()
      let jpeg = try ImageEncoder.jpeg(image, quality: 85, layout: layout, progressive: progressive)
      let folder = try temporaryFolder()
      let path = folder + "/frame.jpg"
      try Data(jpeg).write(to: URL(fileURLWithPath: path))
      let decoder = ImageDecoder()
      let full = try decoder.decode(jpeg).pixels
      for region in Self.regions {
        let decoded = try decoder.decode(fileAt: path, region: region)
        let expected = region.clipped(toWidth: image.width, height: image.height)
        #expect(decoded.region == expected)
        #expect(decoded.damage == nil)
        #expect(
          decoded.pixels == expected.map { full.cropped(to: $0) } ?? RGBImage(width: 0, height: 0),
          "\(layout), progressive \(progressive), \(image.width)x\(image.height), \(region)")
      }
      let outside = try decoder.decode(fileAt: path, region: PixelRegion(x: 500, y: 0, width: 5, height: 5))
      #expect(outside.region == nil && outside.pixels.pixelCount == 0)
    }
  }

  @Test func regionDecode_ofAPNG_cropsTheFullDecode() throws {
    let folder = try temporaryFolder()
    try writePNG(Self.detailed(), to: folder + "/frame.png")
    let region = PixelRegion(x: 100, y: 50, width: 60, height: 150)
    let decoded = try ImageDecoder().decode(fileAt: folder + "/frame.png", region: region)
    #expect(decoded.pixels == Self.detailed().cropped(to: region) && decoded.region == region)
  }
}
