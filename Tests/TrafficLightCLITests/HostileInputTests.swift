import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightStudy
import TrafficLightTestSupport

/// A folder of broken files and of valid but unusual images, made from SampleFrames.
struct HostileCorpus {
  let folder: String
  /// File names that must give an error record.
  var broken: [String] = []
  /// File names that must give a colour.
  var valid: [String] = []
  /// File names that may give either (bit flips can leave a decodable image), but exactly one
  /// record each.
  var either: [String] = []

  init() throws {
    folder = try temporaryFolder()
    let sample = CLIPaths.packageRoot.appendingPathComponent("SampleFrames/stills/red").path
    let first = try FileManager.default.contentsOfDirectory(atPath: sample).sorted()[0]
    let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sample + "/" + first)))
    let image = try ImageDecoder().decode(jpeg).pixels
    let png = try ImageEncoder.png(image)

    // Broken.
    try write("empty.jpg", [], broken: true)
    for offset in [1, 2, 3, 10, 100, jpeg.count / 4, jpeg.count / 2, jpeg.count * 3 / 4, jpeg.count - 2] {
      try write("cut-jpeg-\(offset).jpg", Array(jpeg.prefix(offset)), broken: true)
    }
    for offset in [8, 20, 33, png.count / 2] {
      try write("cut-png-\(offset).png", Array(png.prefix(offset)), broken: true)
    }
    // Cut inside the end chunk: every pixel is there, and libpng decodes it.
    try write("cut-png-end.png", Array(png.prefix(png.count - 5)), either: true)
    try write("notes.jpg", Array("just some text\n".utf8), broken: true)
    try write("page.png", Array("<!doctype html><html><body>not a picture</body></html>".utf8), broken: true)
    var generator = SeededGenerator(seed: 6)
    try write("noise.jpg", (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }, broken: true)
    try write(
      "noise-with-jpeg-magic.jpg",
      [0xFF, 0xD8, 0xFF] + (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) },
      broken: true)
    try write("huge-png.png", Self.pngHeader(png, width: 100_000, height: 100_000), broken: true)
    try write("zero-png.png", Self.pngHeader(png, width: 0, height: 16), broken: true)
    try write("huge-jpeg.jpg", Self.jpegSize(jpeg, width: 65000, height: 65000), broken: true)
    try write("zero-jpeg.jpg", Self.jpegSize(jpeg, width: 16, height: 0), broken: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/dangling.jpg", withDestinationPath: folder + "/gone.jpg")
    broken.append("dangling.jpg")
    guard mkfifo(folder + "/fifo.jpg", 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
    broken.append("fifo.jpg")
    try FileManager.default.createDirectory(
      atPath: folder + "/folder.jpg", withIntermediateDirectories: false)

    // Bit flips: decodable or not, one record each.
    for position in [30, jpeg.count / 3, jpeg.count / 2, jpeg.count - 10] {
      var flipped = jpeg
      flipped[position] ^= 0x5A
      try write("flip-\(position).jpg", flipped, either: true)
    }

    // Valid but unusual.
    let light = syntheticLight(lit: .green, width: 30, height: 90)
    try write("gray.jpg", try ImageEncoder.jpeg(light, layout: .gray))
    try write("progressive.jpg", try ImageEncoder.jpeg(image, progressive: true))
    try write("cmyk.jpg", try ImageEncoder.jpeg(image, layout: .cmyk))
    try write("upper.JPG", jpeg)
    try write("jpeg-named.png", jpeg)
    let gray = light.byteArray.enumerated().compactMap { $0.offset % 3 == 1 ? $0.element : nil }
    try write("gray.png", try ImageEncoder.png(samples: gray, width: 30, height: 90, layout: .gray))
    try write(
      "gray-alpha.png",
      try ImageEncoder.png(samples: gray.flatMap { [$0, 255] }, width: 30, height: 90, layout: .grayAlpha))
    let gray16 = gray.flatMap { value in withUnsafeBytes(of: UInt16(value) * 257) { Array($0) } }
    try write("gray16.png", try ImageEncoder.png(samples: gray16, width: 30, height: 90, layout: .gray16))
    try write(
      "palette.png",
      try ImageEncoder.png(
        samples: gray.map { $0 > 100 ? 1 : 0 }, width: 30, height: 90,
        layout: .palette([(20, 20, 20), (0, 250, 120)])))
    try write(
      "rgba.png",
      try ImageEncoder.png(
        samples: light.byteArray.enumerated().flatMap {
          $0.offset % 3 == 2 ? [$0.element, 255] : [$0.element]
        },
        width: 30, height: 90, layout: .rgba))
    for (width, height) in [(1, 1), (1, 7), (4000, 3), (3, 4000)] {
      try write(
        "\(width)x\(height).png",
        try ImageEncoder.png(RGBImage(width: width, height: height, fill: (200, 30, 30))))
    }
  }

  private mutating func write(_ name: String, _ bytes: [UInt8], broken: Bool = false, either: Bool = false)
    throws
  {
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
    if broken {
      self.broken.append(name)
    } else if either {
      self.either.append(name)
    } else {
      valid.append(name)
    }
  }

  /// `png` with its IHDR size replaced (and the chunk's CRC fixed, so only the size is wrong).
  static func pngHeader(_ png: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
    var bytes = png
    for (offset, value) in [(16, width), (20, height)] {
      bytes.replaceSubrange(offset..<offset + 4, with: withUnsafeBytes(of: value.bigEndian) { Array($0) })
    }
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes[12..<29] {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    bytes.replaceSubrange(29..<33, with: withUnsafeBytes(of: (~crc).bigEndian) { Array($0) })
    return bytes
  }

  /// `jpeg` with the size in its start-of-frame segment replaced.
  static func jpegSize(_ jpeg: [UInt8], width: UInt16, height: UInt16) -> [UInt8] {
    var bytes = jpeg
    var i = 2
    while i + 9 < bytes.count, bytes[i] == 0xFF {
      let marker = bytes[i + 1]
      let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
      if (0xC0...0xC2).contains(marker) {
        bytes.replaceSubrange(
          i + 5..<i + 9,
          with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return bytes
      }
      i += 2 + length
    }
    return bytes
  }
}

@Suite struct HostileInputTests {
  @Test func hostileCorpus_everyBrokenFileIsAnError_everyValidOneAColour_andTheRunEnds() throws {
    let corpus = try HostileCorpus()
    let run = try traffic(["classify", "--format", "jsonl", "--jobs", "2", corpus.folder], timeout: 120)
    #expect(run.status == 1)
    var records: [String: [String: Any]] = [:]
    for line in run.stdout.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      let name = ((object["path"] as! String) as NSString).lastPathComponent
      #expect(records[name] == nil, "\(name) reported twice")
      records[name] = object
    }
    for name in corpus.broken {
      #expect(
        records[name]?["error"] is String, "\(name) should be an error: \(String(describing: records[name]))")
    }
    for name in corpus.valid {
      #expect(
        records[name]?["color"] is String,
        "\(name) should have a colour: \(String(describing: records[name]))")
    }
    for name in corpus.either { #expect(records[name] != nil, "\(name) has no record") }
    #expect(records.count == corpus.broken.count + corpus.valid.count + corpus.either.count)
    #expect(
      records["huge-png.png"]?["error"] as? String
        == "image is 100000x100000 (10000000000 pixels), over the limit of 100000000 pixels")
    #expect((records["fifo.jpg"]?["error"] as? String) == "not a regular file")
    #expect((records["dangling.jpg"]?["error"] as? String) == "No such file or directory")
    #expect((records["empty.jpg"]?["error"] as? String) == "file is empty")
  }

  @Test func lenient_acceptsATruncatedJPEG_andNotesTheDamage() throws {
    let folder = try temporaryFolder()
    let jpeg = try ImageEncoder.jpeg(syntheticLight(lit: .red, width: 64, height: 192), quality: 95)
    try Data(jpeg.prefix(jpeg.count * 3 / 4)).write(to: URL(fileURLWithPath: folder + "/cut.jpg"))
    let strict = try traffic("classify", "--format", "jsonl", folder + "/cut.jpg")
    #expect(strict.status == 1)
    #expect(
      strict.stdout
        == #"{"path":"\#(folder)/cut.jpg","error":"damaged JPEG data: Premature end of JPEG file"}"# + "\n")
    let lenient = try traffic("classify", "--format", "jsonl", "--lenient", folder + "/cut.jpg")
    #expect(lenient.status == 0)
    #expect(lenient.stdout.contains(#""color":"#))
    #expect(lenient.stdout.contains(#""warning":"Premature end of JPEG file (and 1 more warning)""#))
    #expect(
      lenient.stderr
        == "Note: \(folder)/cut.jpg: damaged data accepted (--lenient): Premature end of JPEG file (and 1 more warning)\n"
    )
  }

  @Test func limits_pixelsFileSizeAndErrorCount() throws {
    let folder = try temporaryFolder()
    try writePNG(syntheticLight(lit: .red, width: 30, height: 90), to: folder + "/a_1.png")  // 2700 pixels
    for index in 2...5 { try Data("broken".utf8).write(to: URL(fileURLWithPath: folder + "/a_\(index).png")) }
    try writePNG(syntheticLight(lit: .green), to: folder + "/a_6.png")
    let pixels = try traffic("classify", "--format", "csv", "--max-pixels", "2K", folder + "/a_1.png")
    #expect(pixels.status == 1)
    #expect(pixels.stdout.contains("image is 30x90 (2700 pixels), over the limit of 2000 pixels"))
    let bytes = try traffic("classify", "--format", "csv", "--max-file-size", "100", folder + "/a_1.png")
    #expect(bytes.stdout.contains("over the limit of 100"))
    let stop = try traffic("classify", "--format", "jsonl", "--max-errors", "2", "--jobs", "1", folder)
    #expect(stop.status == 1)
    let lines = stop.stdout.split(separator: "\n")
    #expect(lines.count == 3)  // a_1, then the first two failures; a_4 ... a_6 never reported
    #expect(lines.last?.contains("a_3.png") == true)
    #expect(stop.stderr.contains("Error: stopped after 2 failed inputs (--max-errors 2)"))
    #expect(try traffic("classify", "--max-pixels", "-5", folder).status == 64)
  }

  @Test func mask_refusesAFolderHoldingAnInputNamedLikeAMask() throws {
    // x.png's mask would be x.mask.png: named as an input, it is refused.
    let folder = try temporaryFolder()
    try writePNG(syntheticLight(lit: .red), to: folder + "/x.png")
    try writePNG(syntheticLight(lit: .green), to: folder + "/x.mask.png")
    let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/x.mask.png"))
    let run = try traffic("classify", "--mask", folder, folder + "/x.png", folder + "/x.mask.png")
    #expect(run.status == 64)
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/x.mask.png")) == before)
    // In a folder, a file named like a mask is a mask, not an input: it is passed over and
    // the run writes x.png's mask there.
    let walked = try traffic("classify", "--mask", folder, "--format", "jsonl", folder)
    #expect(walked.status == 0)
    #expect(walked.stdout.split(separator: "\n").count == 1)
    #expect(walked.stderr.contains("1 masks (*.mask.png, *.mask.jpg)"))
  }
}

/// `--max-memory`: an image needing more than the run's whole budget is an error row naming
/// it (the run goes on); a budget that is no size is a usage error.
@Suite struct MaxMemoryTests {
  @Test func imageOverTheBudget_isAnError_andTheRunGoesOn() throws {
    let folder = try temporaryFolder()
    try Data(try ImageEncoder.png(RGBImage(width: 1200, height: 900, fill: (0, 0, 0)))).write(
      to: URL(fileURLWithPath: folder + "/big.png"))
    try Data(try ImageEncoder.png(RGBImage(width: 20, height: 40, fill: (200, 0, 0)))).write(
      to: URL(fileURLWithPath: folder + "/small.png"))
    let run = try traffic("classify", "--format", "csv", "--max-memory", "2M", folder)
    #expect(run.status == 1)
    #expect(run.stdout.contains("big.png,,,,,,,,,,,,\"reading it needs about"))
    #expect(run.stdout.contains("more than the memory budget of 2 MB (--max-memory)"))
    #expect(run.stdout.contains("small.png,crop,,,,,"))
    let roomy = try traffic("classify", "--max-memory", "1G", folder)
    #expect(roomy.status == 0, "\(roomy.stderr)")
    for bad in ["0", "-5", "lots", "1T"] {
      let refused = try traffic("classify", "--max-memory", bad, folder)
      #expect(refused.status == 64)
      #expect(refused.stderr.contains("--max-memory must be a positive whole number"))
    }
  }
}
