import CImageCodecs
import TrafficLightKernels

/// Why an image could not be encoded.
public enum EncodeError: Error, Sendable, Equatable, CustomStringConvertible {
  case failed(format: ImageFormat, reason: String)
  /// The pixel array does not hold one sample per channel of every pixel.
  case wrongSampleCount(expected: Int, got: Int)

  /// What could not be encoded, and why.
  public var description: String {
    switch self {
    case .failed(let format, let reason): "cannot encode \(format.rawValue.uppercased()): \(reason)"
    case .wrongSampleCount(let expected, let got): "expected \(expected) samples, got \(got)"
    }
  }
}

/// The pixel layouts `ImageEncoder.png` writes.
public enum PNGLayout: Sendable, Equatable {
  case rgb
  case rgba
  case gray
  case grayAlpha
  /// 16-bit gray: two bytes per sample, native byte order, values 0...65535.
  case gray16
  /// 8-bit indices into `palette`, a list of RGB entries (at most 256).
  case palette([(UInt8, UInt8, UInt8)])

  var channels: Int {
    switch self {
    case .rgb: 3
    case .rgba: 4
    case .gray, .gray16, .palette: 1
    case .grayAlpha: 2
    }
  }

  var bytesPerSample: Int { self == .gray16 ? 2 : 1 }

  // PNG_FORMAT_* values of libpng's simplified API (png.h).
  var format: UInt32 {
    let alpha: UInt32 = 0x01
    let color: UInt32 = 0x02
    let linear: UInt32 = 0x04
    let colormap: UInt32 = 0x08
    switch self {
    case .rgb: return color
    case .rgba: return color | alpha
    case .gray: return 0
    case .grayAlpha: return alpha
    case .gray16: return linear
    case .palette: return color | colormap  // entries are RGB
    }
  }

  /// The same layout.
  public static func == (a: PNGLayout, b: PNGLayout) -> Bool {
    switch (a, b) {
    case (.rgb, .rgb), (.rgba, .rgba), (.gray, .gray), (.grayAlpha, .grayAlpha), (.gray16, .gray16):
      true
    case (.palette(let x), .palette(let y)): x.elementsEqual(y) { $0 == $1 }
    default: false
    }
  }
}

/// What `ImageEncoder.jpeg` writes.
public enum JPEGLayout: Sendable {
  case rgb
  /// One channel, from each pixel's red sample.
  case gray
  /// Inverted CMYK with an Adobe marker, as Photoshop writes it.
  case cmyk
}

/// Encodes images, for pictures the tool writes and for tests that need every kind of file.
public enum ImageEncoder {
  /// A PNG of an RGB image.
  public static func png(_ image: RGBImage) throws(EncodeError) -> [UInt8] {
    try png(samples: image.byteArray, width: image.width, height: image.height, layout: .rgb)
  }

  /// A PNG of raw samples laid out as `layout` says, rows top to bottom, no padding.
  public static func png(
    samples: [UInt8], width: Int, height: Int, layout: PNGLayout
  ) throws(EncodeError) -> [UInt8] {
    let expected = width * height * layout.channels * layout.bytesPerSample
    guard samples.count == expected else { throw .wrongSampleCount(expected: expected, got: samples.count) }
    var colormap: [UInt8] = []
    if case .palette(let entries) = layout {
      colormap = entries.flatMap { [$0.0, $0.1, $0.2] }
    }
    var report = tl_codec_report()
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    let status = samples.withUnsafeBytes { pixels in
      colormap.withUnsafeBytes { map in
        tl_png_encode(
          pixels.baseAddress, UInt32(width), UInt32(height), layout.format,
          map.isEmpty ? nil : map.baseAddress, UInt32(colormap.count / 3), &out, &size, &report)
      }
    }
    return try take(status, out, size, report, .png)
  }

  /// A JPEG of an RGB image.
  public static func jpeg(
    _ image: RGBImage, quality: Int = 90, layout: JPEGLayout = .rgb, progressive: Bool = false
  ) throws(EncodeError) -> [UInt8] {
    var report = tl_codec_report()
    var out: UnsafeMutablePointer<UInt8>?
    var size = 0
    let cLayout: tl_jpeg_layout =
      switch layout {
      case .rgb: TL_JPEG_RGB
      case .gray: TL_JPEG_GRAY
      case .cmyk: TL_JPEG_CMYK
      }
    let status = image.read { pixels in
      tl_jpeg_encode(
        pixels.baseAddress, UInt32(image.width), UInt32(image.height), Int32(quality), cLayout,
        progressive ? 1 : 0, &out, &size, &report)
    }
    return try take(status, out, size, report, .jpeg)
  }

  private static func take(
    _ status: tl_status, _ out: UnsafeMutablePointer<UInt8>?, _ size: Int,
    _ report: tl_codec_report, _ format: ImageFormat
  ) throws(EncodeError) -> [UInt8] {
    defer { tl_free(out) }
    guard status == TL_STATUS_OK, let out else {
      throw .failed(format: format, reason: report.messageText)
    }
    return Array(UnsafeBufferPointer(start: out, count: size))
  }
}
