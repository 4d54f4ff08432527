import CImageCodecs
import TrafficLightKernels

/// Why an image could not be decoded. Every case names the file (or the name given to bytes
/// in memory).
public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be read at all (missing, a directory, no permission, ...).
  case unreadable(path: String, reason: String)
  /// The bytes are neither JPEG nor PNG.
  case unsupportedFormat(path: String)
  /// The header claims more pixels than the budget allows; nothing large was allocated.
  case tooManyPixels(path: String, width: Int, height: Int, limit: Int)
  /// The decoder gave up on the data.
  case corrupt(path: String, format: ImageFormat, reason: String)
  /// The decoder patched over damaged data (a truncated JPEG is filled with grey, for
  /// example) and the options ask for such images to be refused.
  case damaged(path: String, format: ImageFormat, warning: String)
  /// Reading the image would take more memory than the whole budget of the run
  /// (`MemoryBudget`); nothing large was allocated.
  case overMemoryBudget(path: String, needed: Int, budget: Int)

  /// The file (or the name given to bytes in memory).
  public var path: String {
    switch self {
    case .unreadable(let path, _), .unsupportedFormat(let path), .tooManyPixels(let path, _, _, _),
      .corrupt(let path, _, _), .damaged(let path, _, _), .overMemoryBudget(let path, _, _):
      path
    }
  }

  /// The reason alone, without the path: for a message that names the file elsewhere.
  public var reason: String {
    switch self {
    case .unreadable(_, let reason): reason
    case .unsupportedFormat: "not a JPEG or PNG file"
    case .tooManyPixels(_, let width, let height, let limit):
      "image is \(width)x\(height) (\(width * height) pixels), over the limit of \(limit) pixels"
    case .corrupt(_, let format, let reason): "corrupt \(format.rawValue.uppercased()): \(reason)"
    case .damaged(_, let format, let warning):
      "damaged \(format.rawValue.uppercased()) data: \(warning)"
    case .overMemoryBudget(_, let needed, let budget):
      "reading it needs about \(Self.megabytes(needed)), more than the memory budget of \(Self.megabytes(budget)) (--max-memory)"
    }
  }

  /// The file and the reason.
  public var description: String { "\(path): \(reason)" }

  static func megabytes(_ bytes: Int) -> String { "\((bytes + (1 << 20) - 1) >> 20) MB" }
}

/// Decodes JPEG and PNG files to 8-bit RGB.
///
/// Grayscale is expanded to RGB, 16-bit PNG reduced to 8 bits, alpha composited on black,
/// palettes expanded; progressive JPEG works and CMYK/YCCK JPEG is converted. An image is
/// turned as its EXIF orientation tag says, unless `appliesOrientation` is false. Errors are
/// values; the decoders never print and never end the process.
public struct ImageDecoder: Sendable {
  /// The largest image, in pixels, that is decoded. Checked from the header.
  public var maxPixels: Int
  /// The largest file, in bytes, that is read.
  public var maxFileBytes: Int
  /// Whether an image whose data the decoder had to patch over is accepted (true) or is a
  /// `DecodeError.damaged` (false).
  public var acceptsDamagedData: Bool
  /// Whether an image is turned as its EXIF orientation tag says (`ExifOrientation`), as
  /// photo viewers show it (true), or left as its pixels are stored (false).
  public var appliesOrientation: Bool

  /// A decoder with these limits (the defaults are the tool's).
  public init(
    maxPixels: Int = 100_000_000, maxFileBytes: Int = 256 << 20, acceptsDamagedData: Bool = false,
    appliesOrientation: Bool = true
  ) {
    self.maxPixels = maxPixels
    self.maxFileBytes = maxFileBytes
    self.acceptsDamagedData = acceptsDamagedData
    self.appliesOrientation = appliesOrientation
  }

  /// Reads the file at `path` and decodes it, or only `region` of it (clipped to the image,
  /// in the coordinates of the image as displayed, turned by its orientation tag). For a
  /// JPEG, rows above the region are skipped and decoding stops below it, so a small region
  /// of a large frame costs a fraction of a full decode; a PNG is decoded whole and cropped.
  /// The pixels are those of a full decode.
  ///
  /// - Throws: `DecodeError`, naming `path`.
  public func decode(fileAt path: String, region: PixelRegion? = nil) throws(DecodeError) -> DecodedImage {
    try decode(try FileReader.readAll(path, maxBytes: maxFileBytes), name: path, region: region)
  }

  /// Decodes an image held in memory, or only `region` of it (as `decode(fileAt:region:)`);
  /// `name` stands for the file in errors.
  ///
  /// - Throws: `DecodeError`, naming `name`.
  /// - Complexity: O(width * height); the header is parsed (and the budget checked) before
  ///   the pixels are allocated.
  public func decode(
    _ bytes: [UInt8], name: String = "<memory>", region: PixelRegion? = nil
  ) throws(DecodeError) -> DecodedImage {
    try decode(bytes, name: name, region: region, header: nil)
  }

  /// `decode(_:name:region:)`, with the header of `bytes` already read (`header(of:name:)`),
  /// or nil to read it.
  func decode(_ bytes: [UInt8], name: String, region: PixelRegion?, header: Header?) throws(DecodeError)
    -> DecodedImage
  {
    let orientation = header?.orientation ?? declaredOrientation(bytes)
    guard let region else {
      let (image, damage) = try decodeWhole(bytes, name: name, turnedTo: orientation, header: header)
      return DecodedImage(
        pixels: image, region: PixelRegion(x: 0, y: 0, width: image.width, height: image.height),
        damage: damage)
    }
    guard ImageFormat(sniffing: bytes) == .jpeg else {
      let (whole, damage) = try decodeWhole(bytes, name: name, turnedTo: orientation)
      return DecodedImage(cropping: whole, to: region, damage: damage)
    }
    return try bytes.withUnsafeBufferPointer { (data) throws(DecodeError) -> DecodedImage in
      var report = tl_codec_report()
      // One header read serves the checks and the decode.
      let (reader, width, height) = try openedJPEG(data, &report, name: name)
      let shown = orientation.displayedSize(width: width, height: height)
      guard let area = region.clipped(toWidth: shown.width, height: shown.height) else {
        tl_jpeg_close(reader)
        return DecodedImage(pixels: RGBImage(width: 0, height: 0), region: nil)
      }
      // A region that is the whole image, or a small image, decodes whole faster.
      if (area.width == shown.width && area.height == shown.height) || width * height <= 1 << 16 {
        let image = try readWhole(reader, &report, width: width, height: height, name: name)
        return DecodedImage(
          pixels: orientation.display(image).cropped(to: area), region: area,
          damage: try damage(report, name: name, format: .jpeg))
      }
      let stored = orientation.storedRegion(for: area, width: width, height: height)
      let image = try RGBImage(width: stored.width, height: stored.height) { (pixels) throws(DecodeError) in
        let status = tl_jpeg_read_region_rgb(
          reader, UInt32(stored.x), UInt32(stored.y), UInt32(stored.width), UInt32(stored.height),
          pixels.baseAddress, pixels.count, &report)
        guard status == TL_STATUS_OK else {
          throw .corrupt(path: name, format: .jpeg, reason: report.messageText)
        }
      }
      return DecodedImage(
        pixels: orientation.display(image), region: area,
        damage: try damage(report, name: name, format: .jpeg))
    }
  }

  /// The image in `bytes` at about 1/`denominator` of its size (1, 2, 4 or 8), turned as
  /// its EXIF tag says: a JPEG is scaled while decoding (libjpeg's DCT scaling, to
  /// ceil(side / denominator), much cheaper than a full decode); a PNG is decoded whole and
  /// halved (2x2 means) until it is. For searching a frame before reading parts of it.
  ///
  /// - Throws: `DecodeError`, naming `name`.
  public func decodeReduced(
    _ bytes: [UInt8], name: String = "<memory>", denominator: Int
  ) throws(DecodeError) -> (image: RGBImage, damage: String?) {
    precondition([1, 2, 4, 8].contains(denominator), "the denominator must be 1, 2, 4 or 8")
    let orientation = declaredOrientation(bytes)
    guard ImageFormat(sniffing: bytes) == .jpeg else {
      var (image, damage) = try decodeWhole(bytes, name: name, turnedTo: orientation)
      var left = denominator
      while left > 1 {
        image = image.halved()
        left /= 2
      }
      return (image, damage)
    }
    return try decodeWhole(bytes, name: name, turnedTo: orientation, denominator: denominator)
  }

  /// The size of the image in `bytes` as shown: after its EXIF turn, when turns apply.
  ///
  /// - Throws: `DecodeError` when the header cannot be read or the image is over the pixel
  ///   limit.
  public func displayedSize(of bytes: [UInt8], name: String = "<memory>") throws(DecodeError) -> (
    width: Int, height: Int
  ) {
    try header(of: bytes, name: name).displayedSize
  }

  /// What the header of an image's bytes says, read once: its stored size (checked against
  /// `maxPixels`) and the turn it is shown at. `decode(_:name:region:header:)` given it does
  /// not read the header again.
  struct Header: Sendable, Equatable {
    let width: Int
    let height: Int
    let orientation: ExifOrientation
    /// The bytes a pixel the decoder itself keeps besides the pixels (`estimatedMemory`).
    let decoderBytesPerPixel: Int
    var displayedSize: (width: Int, height: Int) { orientation.displayedSize(width: width, height: height) }
  }

  /// The header of the image in `bytes`.
  func header(of bytes: [UInt8], name: String) throws(DecodeError) -> Header {
    guard !bytes.isEmpty else { throw .unreadable(path: name, reason: "file is empty") }
    guard let format = ImageFormat(sniffing: bytes) else { throw .unsupportedFormat(path: name) }
    let orientation = declaredOrientation(bytes)
    return try bytes.withUnsafeBufferPointer { (data) throws(DecodeError) -> Header in
      var report = tl_codec_report()
      let (width, height) = try checkedSize(
        format == .jpeg ? tl_jpeg_read_info : tl_png_read_info, data, &report, name: name, format: format)
      return Header(
        width: width, height: height, orientation: orientation,
        decoderBytesPerPixel: Self.decoderBytesPerPixel(report, format: format))
    }
  }

  /// About the most memory reading `bytes` takes, in bytes: the file itself, the decoder's own
  /// buffers (a progressive JPEG keeps every coefficient: 2 bytes a pixel a component; PNG up
  /// to 8 bytes a pixel for 16-bit RGBA rows), the decoded pixels, and the pipeline's copies
  /// (a turn or crop, the blurred image, the class map): 10 bytes a pixel. From the header
  /// alone; the file's size when the header cannot be read or passes `maxPixels` (decoding
  /// then says why, allocating nothing).
  public func estimatedMemory(of bytes: [UInt8]) -> Int {
    guard let format = ImageFormat(sniffing: bytes) else { return bytes.count }
    var report = tl_codec_report()
    let status = bytes.withUnsafeBufferPointer { data in
      (format == .jpeg ? tl_jpeg_read_info : tl_png_read_info)(data.baseAddress, data.count, &report)
    }
    guard status == TL_STATUS_OK else { return bytes.count }
    let pixels = Int(report.width).multipliedReportingOverflow(by: Int(report.height))
    // Over the pixel limit, decoding refuses it before allocating anything: that error says more.
    guard !pixels.overflow, pixels.partialValue <= maxPixels else { return bytes.count }
    return estimatedMemory(
      pixels: pixels.partialValue, decoderBytesPerPixel: Self.decoderBytesPerPixel(report, format: format),
      fileBytes: bytes.count)
  }

  /// `estimatedMemory(of:)` from the header already read (`header(of:name:)`, which checked
  /// the size against `maxPixels`).
  func estimatedMemory(of bytes: [UInt8], header: Header) -> Int {
    estimatedMemory(
      pixels: header.width * header.height, decoderBytesPerPixel: header.decoderBytesPerPixel,
      fileBytes: bytes.count)
  }

  /// The file, and 10 bytes a pixel besides the decoder's own.
  private func estimatedMemory(pixels: Int, decoderBytesPerPixel: Int, fileBytes: Int) -> Int {
    let total = pixels.multipliedReportingOverflow(by: 10 + decoderBytesPerPixel)
    return total.overflow ? Int.max : total.partialValue + fileBytes
  }

  /// The bytes a pixel the decoder keeps for the image a header's `report` describes: a
  /// progressive JPEG 2 a component, a CMYK JPEG's row 4 more, a PNG up to 8.
  private static func decoderBytesPerPixel(_ report: tl_codec_report, format: ImageFormat) -> Int {
    format == .png
      ? 8 : (report.progressive != 0 ? 2 * max(1, Int(report.channels)) : 0) + (report.cmyk != 0 ? 4 : 0)
  }

  /// The orientation the image is turned to: the one `bytes` declare, or `.normal` when
  /// `appliesOrientation` is false.
  private func declaredOrientation(_ bytes: [UInt8]) -> ExifOrientation {
    appliesOrientation ? ExifOrientation.declared(by: bytes) : .normal
  }

  /// Decodes `bytes` whole and turns the image to `orientation`, already read from them; a
  /// JPEG scaled down by `denominator` (1, 2, 4 or 8). A JPEG's header is read once, for the
  /// checks and the decode; a PNG's is not read again when `header` is given.
  private func decodeWhole(
    _ bytes: [UInt8], name: String, turnedTo orientation: ExifOrientation, denominator: Int = 1,
    header: Header? = nil
  ) throws(DecodeError) -> (image: RGBImage, damage: String?) {
    guard !bytes.isEmpty else { throw .unreadable(path: name, reason: "file is empty") }
    guard let format = ImageFormat(sniffing: bytes) else { throw .unsupportedFormat(path: name) }
    return try bytes.withUnsafeBufferPointer { (data) throws(DecodeError) -> (RGBImage, String?) in
      var report = tl_codec_report()
      guard format == .png else {
        let (reader, width, height) = try openedJPEG(data, &report, name: name)
        let image = try readWhole(
          reader, &report, width: width, height: height, denominator: denominator, name: name)
        return (orientation.display(image), try damage(report, name: name, format: format))
      }
      // The size read and checked already, or read now.
      let width: Int
      let height: Int
      if let header {
        (width, height) = (header.width, header.height)
      } else {
        (width, height) = try checkedSize(tl_png_read_info, data, &report, name: name, format: format)
      }
      let image = try RGBImage(width: width, height: height) { (pixels) throws(DecodeError) in
        guard
          tl_png_decode_rgb(data.baseAddress, data.count, pixels.baseAddress, pixels.count, &report)
            == TL_STATUS_OK
        else {
          throw .corrupt(path: name, format: format, reason: report.messageText)
        }
      }
      return (orientation.display(image), try damage(report, name: name, format: format))
    }
  }

  /// The JPEG in `data` opened (`tl_jpeg_open`: its header read into `report`, its
  /// decompressor kept for one decode) and its size checked as `checkedSize` checks it; the
  /// reader is closed when it throws.
  private func openedJPEG(
    _ data: UnsafeBufferPointer<UInt8>, _ report: inout tl_codec_report, name: String
  ) throws(DecodeError) -> (reader: OpaquePointer, width: Int, height: Int) {
    guard let reader = tl_jpeg_open(data.baseAddress, data.count, &report) else {
      throw .corrupt(path: name, format: .jpeg, reason: report.messageText)
    }
    do throws(DecodeError) {
      let (width, height) = try checkedSize(of: report, name: name, format: .jpeg)
      return (reader, width, height)
    } catch {
      tl_jpeg_close(reader)
      throw error
    }
  }

  /// The opened JPEG of `width` x `height` stored pixels decoded whole, scaled down by
  /// `denominator` (to ceil(side / denominator)); frees `reader`.
  private func readWhole(
    _ reader: OpaquePointer, _ report: inout tl_codec_report, width: Int, height: Int, denominator: Int = 1,
    name: String
  ) throws(DecodeError) -> RGBImage {
    try RGBImage(
      width: (width + denominator - 1) / denominator, height: (height + denominator - 1) / denominator
    ) { (pixels) throws(DecodeError) in
      guard
        tl_jpeg_read_rgb(reader, UInt32(denominator), pixels.baseAddress, pixels.count, &report)
          == TL_STATUS_OK
      else {
        throw .corrupt(path: name, format: .jpeg, reason: report.messageText)
      }
    }
  }

  /// Parses the header with `readInfo` into `report` and returns the image size, checked
  /// (`checkedSize(of:name:format:)`).
  private func checkedSize(
    _ readInfo: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<tl_codec_report>?) -> tl_status,
    _ data: UnsafeBufferPointer<UInt8>, _ report: inout tl_codec_report, name: String, format: ImageFormat
  ) throws(DecodeError) -> (width: Int, height: Int) {
    guard readInfo(data.baseAddress, data.count, &report) == TL_STATUS_OK else {
      throw .corrupt(path: name, format: format, reason: report.messageText)
    }
    return try checkedSize(of: report, name: name, format: format)
  }

  /// The image size a header's `report` gives, checked: it has pixels, and no more than the
  /// budget (before anything large is allocated).
  private func checkedSize(of report: tl_codec_report, name: String, format: ImageFormat) throws(DecodeError)
    -> (width: Int, height: Int)
  {
    let width = Int(report.width)
    let height = Int(report.height)
    guard width > 0, height > 0 else {
      throw .corrupt(path: name, format: format, reason: "image has no pixels (\(width)x\(height))")
    }
    guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixels,
      width <= maxPixels, height <= maxPixels
    else {
      throw .tooManyPixels(path: name, width: width, height: height, limit: maxPixels)
    }
    return (width, height)
  }

  /// The damage a decode patched over: `nil` when it raised no warning; the first warning
  /// (with the count of the others) when damaged data is accepted; else `DecodeError.damaged`.
  private func damage(_ report: tl_codec_report, name: String, format: ImageFormat) throws(DecodeError)
    -> String?
  {
    guard report.warning_count > 0 else { return nil }
    guard acceptsDamagedData else { throw .damaged(path: name, format: format, warning: report.warningText) }
    let others = Int(report.warning_count) - 1
    let more = others == 0 ? "" : " (and \(others) more warning\(others == 1 ? "" : "s"))"
    return report.warningText + more
  }
}

extension DecodedImage {
  /// `region` of an image decoded whole, clipped to it.
  fileprivate init(cropping whole: RGBImage, to region: PixelRegion, damage: String?) {
    guard let area = region.clipped(toWidth: whole.width, height: whole.height) else {
      self.init(pixels: RGBImage(width: 0, height: 0), region: nil, damage: damage)
      return
    }
    self.init(pixels: whole.cropped(to: area), region: area, damage: damage)
  }
}
