import TrafficLightKernels

/// How a camera's stored pixels turn to the picture it meant: the EXIF Orientation tag
/// (TIFF tag 274), read from a JPEG's `Exif` APP1 segment or a PNG's `eXIf` chunk.
///
/// Phones store a portrait photo as landscape pixels and say "turn me" in this tag; photo
/// viewers and OpenCV's `imread` turn it. Unturned, a vertical traffic light lies on its
/// side, and the sampler reads across its lamps instead of down them. Each case is named
/// for what is done to the stored pixels to display them.
public enum ExifOrientation: Int, Sendable, CaseIterable {
  /// 1: as stored.
  case normal = 1
  /// 2: mirrored left to right.
  case mirrored = 2
  /// 3: turned 180 degrees.
  case rotated180 = 3
  /// 4: mirrored top to bottom.
  case flipped = 4
  /// 5: mirrored across the main diagonal (stored rows become columns).
  case transposed = 5
  /// 6: turned 90 degrees clockwise.
  case rotated90 = 6
  /// 7: mirrored across the other diagonal.
  case transversed = 7
  /// 8: turned 90 degrees counter-clockwise.
  case rotated270 = 8

  /// Whether displaying swaps the stored width and height.
  public var swapsSides: Bool { rawValue >= 5 }

  /// The displayed size of a stored `width` x `height` image.
  public func displayedSize(width: Int, height: Int) -> (width: Int, height: Int) {
    swapsSides ? (height, width) : (width, height)
  }

  /// The stored pixel shown at displayed column `x`, row `y`, in a stored image of `width`
  /// x `height`.
  public func storedPixel(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
    switch self {
    case .normal: (x, y)
    case .mirrored: (width - 1 - x, y)
    case .rotated180: (width - 1 - x, height - 1 - y)
    case .flipped: (x, height - 1 - y)
    case .transposed: (y, x)
    case .rotated90: (y, height - 1 - x)
    case .transversed: (width - 1 - y, height - 1 - x)
    case .rotated270: (width - 1 - y, x)
    }
  }

  /// The stored rectangle that holds the displayed rectangle `region` (which must lie inside
  /// the displayed image) of a stored `width` x `height` image.
  public func storedRegion(for region: PixelRegion, width: Int, height: Int) -> PixelRegion {
    let first = storedPixel(x: region.x, y: region.y, width: width, height: height)
    let last = storedPixel(
      x: region.x + region.width - 1, y: region.y + region.height - 1, width: width, height: height)
    let (left, top) = (min(first.x, last.x), min(first.y, last.y))
    return PixelRegion(
      x: left, y: top, width: max(first.x, last.x) - left + 1, height: max(first.y, last.y) - top + 1)
  }

  /// `image`, as stored, turned to be displayed.
  ///
  /// Complexity: O(pixels). The image is copied in square tiles, so that a turn by 90
  /// degrees reads the stored rows a few cache lines at a time, not a whole column at once.
  public func display(_ image: RGBImage) -> RGBImage {
    guard self != .normal else { return image }
    let (width, height) = (image.width, image.height)
    let shown = displayedSize(width: width, height: height)
    guard shown.width > 0, shown.height > 0 else { return RGBImage(width: shown.width, height: shown.height) }
    // `storedPixel` is affine in x and y, so the stored byte offset of displayed pixel
    // (x, y) is origin + x * stepX + y * stepY.
    func offset(_ pixel: (x: Int, y: Int)) -> Int { (pixel.y * width + pixel.x) * 3 }
    let origin = offset(storedPixel(x: 0, y: 0, width: width, height: height))
    let stepX = offset(storedPixel(x: 1, y: 0, width: width, height: height)) - origin
    let stepY = offset(storedPixel(x: 0, y: 1, width: width, height: height)) - origin
    let tile = 32
    return image.read { source in
      RGBImage(width: shown.width, height: shown.height) { out in
        for top in stride(from: 0, to: shown.height, by: tile) {
          for left in stride(from: 0, to: shown.width, by: tile) {
            for y in top..<min(top + tile, shown.height) {
              var from = origin + left * stepX + y * stepY
              var to = (y * shown.width + left) * 3
              for _ in left..<min(left + tile, shown.width) {
                out[to] = source[from]
                out[to + 1] = source[from + 1]
                out[to + 2] = source[from + 2]
                from += stepX
                to += 3
              }
            }
          }
        }
      }
    }
  }

  /// The orientation a JPEG or PNG file's bytes declare: `.normal` when they declare none,
  /// or when the tag cannot be read (a damaged tag does not stop the image from decoding).
  ///
  /// Complexity: O(bytes before the image data); nothing past the first scan (JPEG) or
  /// image data chunk (PNG) is read.
  public static func declared(by bytes: [UInt8]) -> ExifOrientation {
    let tiff: ArraySlice<UInt8>? =
      switch ImageFormat(sniffing: bytes) {
      case .jpeg: jpegExif(bytes)
      case .png: pngExif(bytes)
      case nil: nil
      }
    return tiff.flatMap(orientation(inTIFF:)) ?? .normal
  }

  /// What an APP1 segment holding EXIF data starts with.
  private static let exifHeader: [UInt8] = Array("Exif\0\0".utf8)

  /// The TIFF data of the first `Exif` APP1 segment before the first scan, if any.
  static func jpegExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
    var i = 2  // past SOI
    while i + 1 < bytes.count {
      guard bytes[i] == 0xFF else { return nil }
      let marker = bytes[i + 1]
      if marker == 0xFF {  // fill byte
        i += 1
        continue
      }
      i += 2
      // Markers with no segment: TEM and the restart markers.
      if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
      // Start of scan, end of image: the headers are over.
      if marker == 0xDA || marker == 0xD9 { return nil }
      guard i + 1 < bytes.count else { return nil }
      let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
      guard length >= 2, i + length <= bytes.count else { return nil }
      if marker == 0xE1, length >= 8, bytes[(i + 2)..<(i + 8)].elementsEqual(exifHeader) {
        return bytes[(i + 8)..<(i + length)]
      }
      i += length
    }
    return nil
  }

  /// The data of the `eXIf` chunk before the first `IDAT` chunk, if any.
  static func pngExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
    var i = 8  // past the signature
    while i + 8 <= bytes.count {
      let length = bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
      let start = i + 8
      guard length <= bytes.count - start else { return nil }
      if type == "IDAT" || type == "IEND" { return nil }
      if type == "eXIf" { return bytes[start..<(start + length)] }
      i = start + length + 4  // past the CRC
    }
    return nil
  }

  /// The Orientation tag of the first image file directory of TIFF data (`II` or `MM` byte
  /// order), if it holds one with a value from 1 to 8.
  static func orientation(inTIFF tiff: ArraySlice<UInt8>) -> ExifOrientation? {
    let data = Array(tiff)
    guard data.count >= 8 else { return nil }
    let littleEndian: Bool
    switch (data[0], data[1]) {
    case (0x49, 0x49): littleEndian = true  // "II"
    case (0x4D, 0x4D): littleEndian = false  // "MM"
    default: return nil
    }
    func unsigned(at offset: Int, bytes count: Int) -> Int? {
      guard offset >= 0, offset <= data.count - count else { return nil }
      let field = data[offset..<(offset + count)]
      return (littleEndian ? field.reversed() : Array(field)).reduce(0) { $0 << 8 | Int($1) }
    }
    guard unsigned(at: 2, bytes: 2) == 42, let directory = unsigned(at: 4, bytes: 4),
      let entries = unsigned(at: directory, bytes: 2)
    else { return nil }
    for entry in 0..<entries {
      let at = directory + 2 + 12 * entry
      guard let tag = unsigned(at: at, bytes: 2) else { return nil }
      guard tag == 0x0112 else { continue }
      // A SHORT (type 3), one value, held in the entry's first two value bytes.
      guard unsigned(at: at + 2, bytes: 2) == 3, unsigned(at: at + 4, bytes: 4) == 1,
        let value = unsigned(at: at + 8, bytes: 2)
      else { return nil }
      return ExifOrientation(rawValue: value)
    }
    return nil
  }
}
