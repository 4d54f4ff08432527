import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight
@testable import TrafficLightStudy

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct FileSystemPathTests {
  /// Any bytes come back from their String as they were, UTF-8 or not, and names that are
  /// UTF-8 are their own Strings.
  @Test func bytes_roundTripThroughStrings() {
    var generator = SeededGenerator(seed: 11)
    let samples: [[UInt8]] =
      [
        Array("plain/name.jpg".utf8), Array("čšž/日本.png".utf8), [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x2E, 0x6A],
        [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x8F, 0xBC, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF],
      ]
      + (0..<2000).map { _ in
        (0..<Int.random(in: 0...12, using: &generator)).map { _ in
          UInt8.random(in: 1...255, using: &generator)
        }
      }
    for bytes in samples {
      let path = FileSystemPath.string(fromBytes: bytes)
      #expect(FileSystemPath.bytes(path) == bytes, "\(bytes)")
      if let text = String(validating: bytes, as: UTF8.self),
        !text.unicodeScalars.contains(where: { $0.value >= 0x10_FF00 })
      {
        #expect(path == text)
        #expect(!FileSystemPath.hasRawBytes(path))
      }
    }
    #expect(FileSystemPath.displayed(FileSystemPath.string(fromBytes: [0x61, 0xFF, 0x0A])) == "a\\xff\n")
  }

  /// Writes `bytes` to the file `path` (any bytes, any length).
  static func write(_ bytes: [UInt8], to path: String) {
    let descriptor = FileSystemPath.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(descriptor >= 0, "cannot create \(FileSystemPath.displayed(path))")
    _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
  }

  /// A folder tree deeper than PATH_MAX: every image in it is found and decoded, none skipped.
  @Test func deepTree_pastPathMax_isWalkedAndRead() throws {
    let root = try temporaryFolder()
    let jpeg = try ImageEncoder.jpeg(RGBImage(width: 8, height: 8, fill: (200, 0, 0)))
    var folder = root
    var images: [String] = []
    for level in 1...500 {
      folder += "/level-\(level)"
      if level % 100 == 0 {
        #expect(FileSystemPath.makeFolders(folder))
        let image = folder + "/frame.jpg"
        Self.write(jpeg, to: image)
        images.append(image)
      }
    }
    #expect(FileSystemPath.bytes(images.last!).count > Int(PATH_MAX))
    let items = InputCollector.collect([root])
    #expect(items.filter { if case .image = $0 { true } else { false } }.count == images.count)
    #expect(!items.contains { if case .skipped = $0 { true } else { false } }, "\(items.prefix(3))")
    for image in images {
      #expect(try ImageDecoder().decode(fileAt: image).pixels.width == 8)
    }
  }

  /// A name that is not UTF-8 is listed with its bytes and read.
  @Test func nameThatIsNotUTF8_isListedAndRead() throws {
    let root = try temporaryFolder()
    let name = FileSystemPath.string(fromBytes: Array("bad".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8))
    Self.write(try ImageEncoder.jpeg(RGBImage(width: 8, height: 8, fill: (0, 200, 0))), to: root + "/" + name)
    let items = InputCollector.collect([root])
    #expect(items == [.image(path: root + "/" + name)])
    #expect(try ImageDecoder().decode(fileAt: root + "/" + name).pixels.width == 8)
  }
}
