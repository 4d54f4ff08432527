import CImageCodecs
import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight

/// Files built to cost far more to decode than their size says: each is refused or defused
/// without the work.
@Suite struct DecoderBombTests {
  /// A 48x48 progressive JPEG whose last scan is repeated `copies` times more before its end
  /// (libjpeg warns of a repeated scan and would decode every copy: a 673 KB file of them
  /// took 34 s).
  static func repeatedScans(_ copies: Int) throws -> [UInt8] {
    var image = RGBImage(width: 48, height: 48)
    for y in 0..<48 {
      for x in 0..<48 { image[x, y] = (UInt8(x * 5), UInt8(y * 5), UInt8((x ^ y) * 4)) }
    }
    let jpeg = try ImageEncoder.jpeg(image, quality: 90, progressive: true)
    // The last start-of-scan marker (FF DA) and the end-of-image marker (FF D9) after it.
    var lastScan = 0
    for i in 0..<(jpeg.count - 1) where jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA { lastScan = i }
    let end = jpeg.count - 2
    #expect(lastScan > 0 && jpeg[end] == 0xFF && jpeg[end + 1] == 0xD9)
    let scan = Array(jpeg[lastScan..<end])
    return Array(jpeg[..<end]) + Array([[UInt8]](repeating: scan, count: copies).joined()) + [0xFF, 0xD9]
  }

  /// Repeated scans past the file's budget of decoding work (256 coefficient-passes a block;
  /// the usual progression costs about 200) are refused, naming the reason, whole or region.
  @Test func jpeg_withScansPastItsWorkBudget_isRefusedSayingWhy() throws {
    let decoder = ImageDecoder(acceptsDamagedData: true)
    // The ordinary progressive file decodes.
    #expect(try decoder.decode(Self.repeatedScans(0)).pixels.width == 48)
    let bomb = try Self.repeatedScans(40)
    #expect(throws: DecodeError.self) { try decoder.decode(bomb) }
    do {
      _ = try decoder.decode(bomb)
    } catch {
      #expect("\(error)".contains("ask for more decoding than the image's size warrants"), "\(error)")
    }
    #expect(throws: DecodeError.self) {
      try decoder.decode(bomb, region: PixelRegion(x: 0, y: 0, width: 8, height: 8))
    }
  }

  /// CRC-32 of PNG chunks (ISO 3309), bit by bit: small inputs only.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    func bigEndian(_ value: UInt32) -> [UInt8] {
      (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
  }

  /// `png` with text chunks put in after its header (IHDR is the first chunk, 8 + 25 bytes).
  static func withText(_ png: [UInt8]) -> [UInt8] {
    // zTXt: keyword, 0, method 0, then a zlib stream (here deliberately not one).
    let texts =
      chunk("tEXt", Array("Comment\u{0}hello".utf8))
      + chunk("zTXt", Array("Big\u{0}".utf8) + [0, 0x78, 0x9C, 1, 2, 3, 4, 5])
      + chunk("iTXt", Array("Title\u{0}".utf8) + [1, 0] + Array("en\u{0}\u{0}".utf8) + [0x78, 0x9C, 9, 9])
    return Array(png[..<33]) + texts + Array(png[33...])
  }

  @Test func png_textChunks_areDropped_beforeLibpngSeesThem() throws {
    let png = try ImageEncoder.png(patternImage())
    let texty = Self.withText(png)
    #expect(texty.count > png.count)
    var size = 0
    let stripped = texty.withUnsafeBufferPointer { tl_png_without_text($0.baseAddress!, $0.count, &size) }
    #expect(stripped != nil)
    if let stripped {
      #expect(Array(UnsafeBufferPointer(start: stripped, count: size)) == png)
      free(stripped)
    }
    // Nothing to drop: no copy.
    let none = png.withUnsafeBufferPointer { tl_png_without_text($0.baseAddress!, $0.count, &size) }
    #expect(none == nil)
    // And the file decodes as the one without text, with no damage noted.
    let decoded = try ImageDecoder().decode(texty)
    #expect(decoded.pixels == patternImage())
    #expect(decoded.damage == nil)
  }

  /// A chunk claiming more bytes than the file has (found by fuzzing: 205 bytes that made
  /// libpng allocate and fill 1.9 GB) ends the data handed to libpng where it starts.
  @Test func png_chunkLongerThanTheFile_endsTheDataThere() throws {
    let png = try ImageEncoder.png(patternImage())
    let claim: [UInt8] = [0x74, 0x45, 0x58, 0x74] + Array("zTXt".utf8) + [0x78, 0x9C, 1, 2]
    let bogus = Array(png[..<33]) + claim
    var size = 0
    let cut = bogus.withUnsafeBufferPointer { tl_png_without_text($0.baseAddress!, $0.count, &size) }
    #expect(cut != nil)
    if let cut {
      #expect(Array(UnsafeBufferPointer(start: cut, count: size)) == Array(png[..<33]))
      free(cut)
    }
    #expect(throws: DecodeError.self) { try ImageDecoder().decode(bogus) }
    // A chunk header in the last 8 to 11 bytes claims its length too (found by fuzzing: 102
    // bytes that made libpng allocate 1.7 GB).
    let tail = Array(png[..<33]) + Array("iTXtzTXt".utf8) + [0]
    let cutTail = tail.withUnsafeBufferPointer { tl_png_without_text($0.baseAddress!, $0.count, &size) }
    #expect(cutTail != nil)
    if let cutTail {
      #expect(Array(UnsafeBufferPointer(start: cutTail, count: size)) == Array(png[..<33]))
      free(cutTail)
    }
    // A whole file is handed over as it is.
    let whole = png.withUnsafeBufferPointer { tl_png_without_text($0.baseAddress!, $0.count, &size) }
    #expect(whole == nil)
  }

  @Test func png_truncatedAfterText_isStillReportedAsTruncated() throws {
    let texty = Self.withText(try ImageEncoder.png(patternImage()))
    let cut = Array(texty[..<(texty.count - 30)])
    #expect(throws: DecodeError.self) { try ImageDecoder().decode(cut) }
  }
}
