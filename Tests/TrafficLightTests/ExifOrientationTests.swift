import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight
@testable import TrafficLightStudy

@Suite struct ExifOrientationTests {
  /// A 3x2 picture whose pixels are a, b, c on the top row and d, e, f below (as greys 1 to 6).
  static let stored = RGBImage(
    width: 3, height: 2, bytes: (1...6).flatMap { [UInt8($0), UInt8($0), UInt8($0)] })

  /// Each orientation's picture of `stored`, written out from the EXIF definitions ("the 0th
  /// row is the visual right-hand side, the 0th column the visual top" for 6, and so on).
  static let displayed: [ExifOrientation: (width: Int, rows: [[UInt8]])] = [
    .normal: (3, [[1, 2, 3], [4, 5, 6]]),
    .mirrored: (3, [[3, 2, 1], [6, 5, 4]]),
    .rotated180: (3, [[6, 5, 4], [3, 2, 1]]),
    .flipped: (3, [[4, 5, 6], [1, 2, 3]]),
    .transposed: (2, [[1, 4], [2, 5], [3, 6]]),
    .rotated90: (2, [[4, 1], [5, 2], [6, 3]]),
    .transversed: (2, [[6, 3], [5, 2], [4, 1]]),
    .rotated270: (2, [[3, 6], [2, 5], [1, 4]]),
  ]

  @Test(arguments: ExifOrientation.allCases)
  func display_turnsThePixelsAsTheTagDefines(orientation: ExifOrientation) {
    let (width, rows) = Self.displayed[orientation]!
    let expected = RGBImage(width: width, height: rows.count, bytes: rows.joined().flatMap { [$0, $0, $0] })
    #expect(orientation.display(Self.stored) == expected)
    let size = orientation.displayedSize(width: 3, height: 2)
    #expect(size.width == width && size.height == rows.count)
  }

  @Test(arguments: ExifOrientation.allCases)
  func display_ofImagesLargerThanATile_equalsAPixelByPixelTurn(orientation: ExifOrientation) {
    var generator = SeededGenerator(seed: 8)
    for (width, height) in [(70, 45), (1, 33), (65, 1), (64, 64)] {
      let image = RGBImage(
        width: width, height: height,
        bytes: (0..<width * height * 3).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
      let shown = orientation.display(image)
      let size = orientation.displayedSize(width: width, height: height)
      var expected = RGBImage(width: size.width, height: size.height)
      for y in 0..<size.height {
        for x in 0..<size.width {
          let stored = orientation.storedPixel(x: x, y: y, width: width, height: height)
          expected[x, y] = image[stored.x, stored.y]
        }
      }
      #expect(shown == expected, "\(orientation), \(width)x\(height)")
    }
  }

  @Test(arguments: ExifOrientation.allCases)
  func storedRegion_holdsExactlyTheDisplayedRegion(orientation: ExifOrientation) {
    var generator = SeededGenerator(seed: 5)
    let image = RGBImage(
      width: 7, height: 5, bytes: (0..<7 * 5 * 3).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    let shown = orientation.display(image)
    for y in 0..<shown.height {
      for x in 0..<shown.width {
        for height in 1...(shown.height - y) {
          for width in 1...(shown.width - x) {
            let region = PixelRegion(x: x, y: y, width: width, height: height)
            let stored = orientation.storedRegion(for: region, width: 7, height: 5)
            #expect(orientation.display(image.cropped(to: stored)) == shown.cropped(to: region))
          }
        }
      }
    }
  }

  @Test(arguments: ExifOrientation.allCases)
  func decode_turnsJPEGAndPNG_byTheirTag(orientation: ExifOrientation) throws {
    let image = patternImage()
    for littleEndian in [true, false] {
      let tiff = exifTIFF(orientation: orientation.rawValue, littleEndian: littleEndian)
      let png = withExifChunk(try ImageEncoder.png(image), tiff)
      #expect(ExifOrientation.declared(by: png) == orientation)
      #expect(try ImageDecoder().decode(png).pixels == orientation.display(image))
      #expect(try ImageDecoder(appliesOrientation: false).decode(png).pixels == image)

      let jpeg = withExif(try ImageEncoder.jpeg(image, quality: 95), tiff)
      #expect(ExifOrientation.declared(by: jpeg) == orientation)
      let asStored = try ImageDecoder(appliesOrientation: false).decode(jpeg).pixels
      #expect(asStored.width == 16 && asStored.height == 8)
      #expect(try ImageDecoder().decode(jpeg).pixels == orientation.display(asStored))
    }
  }

  @Test func declared_findsTheExifSegment_pastOtherAPP1Segments() throws {
    let jpeg = try ImageEncoder.jpeg(patternImage())
    let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
    let both = withAPP1(withExif(jpeg, exifTIFF(orientation: 6)), xmp)
    #expect(ExifOrientation.declared(by: both) == .rotated90)
    #expect(ExifOrientation.declared(by: withAPP1(jpeg, xmp)) == .normal)
    #expect(ExifOrientation.declared(by: jpeg) == .normal)
  }

  @Test func declared_isNormal_forTagsItCannotUse() throws {
    let jpeg = try ImageEncoder.jpeg(patternImage())
    let tags: [[UInt8]] = [
      exifTIFF(orientation: 0), exifTIFF(orientation: 9), exifTIFF(orientation: 6, type: 4),
      Array(exifTIFF(orientation: 6).prefix(20)),  // cut inside the directory
      [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0, 0],  // directory offset past the end
      [0x49, 0x49, 43, 0, 8, 0, 0, 0, 0, 0],  // not 42
      Array("XX".utf8) + exifTIFF(orientation: 6).dropFirst(2),  // no byte order
    ]
    for tiff in tags {
      #expect(ExifOrientation.declared(by: withExif(jpeg, tiff)) == .normal, "\(tiff)")
    }
    // An eXIf chunk after the image data does not count (the PNG specification puts it before).
    let png = try ImageEncoder.png(patternImage())
    let late = withExifChunk(png, exifTIFF(orientation: 3), afterImageData: true)
    #expect(ExifOrientation.declared(by: late) == .normal)
    #expect(try ImageDecoder().decode(late).pixels == patternImage())
  }

  @Test func declared_survivesEveryCutAndRandomDamage_ofTheHeaders() throws {
    let jpeg = withExif(try ImageEncoder.jpeg(patternImage()), exifTIFF(orientation: 8, littleEndian: false))
    let png = withExifChunk(try ImageEncoder.png(patternImage()), exifTIFF(orientation: 8))
    for file in [jpeg, png] {
      for cut in 0...200 { _ = ExifOrientation.declared(by: Array(file.prefix(cut))) }
      var generator = SeededGenerator(seed: 99)
      for _ in 0..<2000 {
        var damaged = file
        for _ in 0..<3 {
          let at = Int(generator.next() % 120)
          damaged[at] = UInt8(truncatingIfNeeded: generator.next())
        }
        _ = ExifOrientation.declared(by: damaged)  // returns; never traps
      }
    }
  }

  @Test(arguments: ExifOrientation.allCases)
  func regionDecode_isInDisplayedPixels_andEqualsTheFullDecodeCropped(orientation: ExifOrientation) throws {
    let jpeg = withExif(
      try ImageEncoder.jpeg(RegionDecodeTests.detailed(), quality: 85),
      exifTIFF(orientation: orientation.rawValue))
    let path = try temporaryFolder() + "/frame.jpg"
    try Data(jpeg).write(to: URL(fileURLWithPath: path))
    let decoder = ImageDecoder()
    let full = try decoder.decode(jpeg).pixels
    let size = orientation.displayedSize(width: 401, height: 203)
    #expect(full.width == size.width && full.height == size.height)
    for region in RegionDecodeTests.regions + [PixelRegion(x: 180, y: 300, width: 20, height: 90)] {
      let decoded = try decoder.decode(fileAt: path, region: region)
      let expected = region.clipped(toWidth: size.width, height: size.height)
      #expect(decoded.region == expected)
      #expect(
        decoded.pixels == expected.map { full.cropped(to: $0) } ?? RGBImage(width: 0, height: 0),
        "\(orientation), \(region)")
    }
  }
}
