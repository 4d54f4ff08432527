// EXIF orientation tags written into encoded images, as cameras and phones write them.

/// TIFF data holding one image file directory: a Make tag (ASCII, "Cam" stored in the
/// entry), then an Orientation tag of `value` and `type` (3, SHORT, when right), in the
/// byte order `littleEndian` says.
package func exifTIFF(orientation value: Int, littleEndian: Bool = true, type: Int = 3) -> [UInt8] {
  func field(_ value: Int, bytes count: Int) -> [UInt8] {
    let big = (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    return littleEndian ? big.reversed() : big
  }
  var tiff: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
  tiff += field(42, bytes: 2) + field(8, bytes: 4)
  tiff += field(2, bytes: 2)
  tiff += field(0x010F, bytes: 2) + field(2, bytes: 2) + field(4, bytes: 4) + Array("Cam\0".utf8)
  // A SHORT sits in the first two of the entry's four value bytes, whatever the byte order.
  tiff +=
    field(0x0112, bytes: 2) + field(type, bytes: 2) + field(1, bytes: 4) + field(value, bytes: 2) + [0, 0]
  tiff += field(0, bytes: 4)  // no next directory
  return tiff
}

/// `jpeg` with an APP1 segment of `payload` after its JFIF segment.
package func withAPP1(_ jpeg: [UInt8], _ payload: [UInt8]) -> [UInt8] {
  var at = 2
  if jpeg[2] == 0xFF && jpeg[3] == 0xE0 { at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5])) }
  let length = payload.count + 2
  let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  return Array(jpeg[..<at]) + segment + Array(jpeg[at...])
}

/// `jpeg` with an `Exif` APP1 segment holding `tiff`.
package func withExif(_ jpeg: [UInt8], _ tiff: [UInt8]) -> [UInt8] {
  withAPP1(jpeg, Array("Exif\0\0".utf8) + tiff)
}

/// `png` with an `eXIf` chunk holding `tiff`, after its IHDR chunk, or else just before IEND.
package func withExifChunk(_ png: [UInt8], _ tiff: [UInt8], afterImageData: Bool = false) -> [UInt8] {
  let length = UInt32(tiff.count)
  var chunk = (0..<4).reversed().map { UInt8(truncatingIfNeeded: length >> (8 * UInt32($0))) }
  let body = Array("eXIf".utf8) + tiff
  let crc = crc32(body[...])
  chunk += body + (0..<4).reversed().map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) }
  let at = afterImageData ? png.count - 12 : 8 + 25  // IEND is the last 12 bytes; IHDR the first 25
  return Array(png[..<at]) + chunk + Array(png[at...])
}

/// CRC-32 as PNG chunks use it.
package func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}
