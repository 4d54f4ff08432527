import CKernels

/// An 8-bit RGB image.
///
/// Layout: interleaved `r, g, b` bytes, rows top to bottom, row stride exactly `width * 3`,
/// no padding. Pixels live in an array, so copies are cheap until one is written
/// (copy-on-write). Reach the bytes through `read` and `update`.
public struct RGBImage: Sendable, Equatable {
  /// The width, in pixels.
  public let width: Int
  /// The height, in pixels.
  public let height: Int
  private var bytes: [UInt8]

  /// An image of `width` x `height` pixels, all set to `fill`.
  public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
    precondition(width >= 0 && height >= 0, "image size must not be negative")
    self.width = width
    self.height = height
    var bytes = [UInt8](repeating: 0, count: width * height * 3)
    if fill != (0, 0, 0) {
      for i in stride(from: 0, to: bytes.count, by: 3) {
        bytes[i] = fill.0
        bytes[i + 1] = fill.1
        bytes[i + 2] = fill.2
      }
    }
    self.bytes = bytes
  }

  /// An image over `bytes`, which must hold exactly `width * height * 3` values.
  public init(width: Int, height: Int, bytes: [UInt8]) {
    precondition(width >= 0 && height >= 0, "image size must not be negative")
    precondition(bytes.count == width * height * 3, "byte count must be width * height * 3")
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  /// An image whose bytes are written by `initializer`, which must write all
  /// `width * height * 3` of them. If it throws, nothing is returned.
  public init<E: Error>(
    width: Int, height: Int,
    initializingWith initializer: (UnsafeMutableBufferPointer<UInt8>) throws(E) -> Void
  ) throws(E) {
    precondition(width >= 0 && height >= 0, "image size must not be negative")
    let count = width * height * 3
    var failure: E?
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      do throws(E) {
        try initializer(buffer)
        initialized = count
      } catch {
        // Only trivial UInt8 values were written: dropping them is safe.
        failure = error
        initialized = 0
      }
    }
    if let failure { throw failure }
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  /// `width * height`.
  public var pixelCount: Int { width * height }

  /// The pixel at column `x`, row `y`.
  public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
    get {
      precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel out of bounds")
      let i = (y * width + x) * 3
      return (bytes[i], bytes[i + 1], bytes[i + 2])
    }
    set {
      precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel out of bounds")
      let i = (y * width + x) * 3
      bytes[i] = newValue.r
      bytes[i + 1] = newValue.g
      bytes[i + 2] = newValue.b
    }
  }

  /// Calls `body` with the image's bytes.
  public func read<R, E: Error>(
    _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
  ) throws(E) -> R {
    // withUnsafeBufferPointer's rethrows loses the error type: carry it across by hand.
    var result: Result<R, E>!
    bytes.withUnsafeBufferPointer { buffer in
      do throws(E) { result = .success(try body(buffer)) } catch { result = .failure(error) }
    }
    return try result.get()
  }

  /// Calls `body` with the image's bytes, writable.
  public mutating func update<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> R) -> R {
    bytes.withUnsafeMutableBufferPointer { body($0) }
  }

  /// The pixels inside `region`, which must lie inside the image: the image itself, not a
  /// copy, when `region` is all of it.
  ///
  /// Complexity: O(region.width * region.height).
  public func cropped(to region: PixelRegion) -> RGBImage {
    precondition(
      region.x >= 0 && region.y >= 0 && region.width >= 0 && region.height >= 0
        && region.x + region.width <= width && region.y + region.height <= height,
      "crop region must lie inside the image")
    if region == PixelRegion(x: 0, y: 0, width: width, height: height) { return self }
    let rowBytes = region.width * 3
    return RGBImage(width: region.width, height: region.height) { out in
      read { source in
        for row in 0..<region.height where rowBytes > 0 {
          let from = ((region.y + row) * width + region.x) * 3
          (out.baseAddress! + row * rowBytes).update(from: source.baseAddress! + from, count: rowBytes)
        }
      }
    }
  }

  /// The bytes, as an array (a copy only when the image is later written).
  public var byteArray: [UInt8] { bytes }
}

/// A rectangle in pixel coordinates: `x`, `y` of its top-left pixel, then its size.
public struct PixelRegion: Sendable, Equatable, Hashable, Codable {
  /// The left column.
  public var x: Int
  /// The top row.
  public var y: Int
  /// The width, in pixels.
  public var width: Int
  /// The height, in pixels.
  public var height: Int

  /// The `width` x `height` rectangle at (`x`, `y`).
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// This region clipped to an image of `width` x `height`; `nil` when nothing is left.
  /// Any coordinates are safe: sums past `Int`'s range saturate.
  public func clipped(toWidth imageWidth: Int, height imageHeight: Int) -> PixelRegion? {
    @inline(__always) func end(_ start: Int, _ size: Int) -> Int {
      let (sum, overflow) = start.addingReportingOverflow(size)
      return overflow ? (size > 0 ? Int.max : Int.min) : sum
    }
    let left = max(x, 0)
    let top = max(y, 0)
    let right = min(end(x, width), imageWidth)
    let bottom = min(end(y, height), imageHeight)
    guard right > left, bottom > top else { return nil }
    return PixelRegion(x: left, y: top, width: right - left, height: bottom - top)
  }
}

/// The value (largest channel) and chroma (largest less smallest) of each of the `count`
/// interleaved RGB pixels at `pixels`, at every third byte of `values` and `chromas` (a
/// pixel's at the index of its first byte; the bytes between hold nothing meant): each
/// needs `3 * count` bytes. Sixteen bytes at a time (`tl_value_chroma_rgb8`).
package func valuesAndChromas(
  of pixels: UnsafePointer<UInt8>, count: Int, into values: UnsafeMutablePointer<UInt8>,
  _ chromas: UnsafeMutablePointer<UInt8>
) {
  tl_value_chroma_rgb8(pixels, Int32(count), values, chromas)
}

/// The summed value (largest channel) and chroma (largest less smallest) of the `count`
/// interleaved RGB pixels at `pixels`. Sixteen bytes at a time (`tl_sum_value_chroma_rgb8`).
package func summedValueAndChroma(of pixels: UnsafePointer<UInt8>, count: Int) -> (value: Int, chroma: Int) {
  var (value, chroma): (UInt64, UInt64) = (0, 0)
  tl_sum_value_chroma_rgb8(pixels, Int32(count), &value, &chroma)
  return (Int(value), Int(chroma))
}
