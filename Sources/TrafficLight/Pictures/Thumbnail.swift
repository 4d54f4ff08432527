import TrafficLightKernels

/// Small pictures of a reading for a review page: the image fitted to a bounding size, with
/// the lights found in it outlined.
public enum Thumbnail {
  /// `image` fitted within `maxWidth` x `maxHeight`: a larger image shrunk by the smallest
  /// whole factor that fits it (each output pixel the mean of its block), a smaller one
  /// enlarged by the largest whole factor that fits (each pixel repeated, so a crop's pixels
  /// stay visible); `lights`, in `image`'s pixels, are outlined in their colours with their
  /// confidences (`FoundLightsPicture`, lines of one pixel, digits at twice their size) after
  /// the fitting, so lines stay sharp.
  public static func make(
    _ image: RGBImage, lights: [FoundLight] = [], maxWidth: Int = 240, maxHeight: Int = 180
  ) -> RGBImage {
    precondition(maxWidth > 0 && maxHeight > 0, "a thumbnail has pixels")
    guard image.width > 0, image.height > 0 else { return image }
    let shrink = max((image.width + maxWidth - 1) / maxWidth, (image.height + maxHeight - 1) / maxHeight)
    let fitted: RGBImage
    let place: (Int) -> Int
    if shrink > 1 {
      fitted = shrunk(image, by: shrink)
      place = { $0 / shrink }
    } else {
      let grow = max(1, min(maxWidth / image.width, maxHeight / image.height))
      fitted = grow > 1 ? grown(image, by: grow) : image
      place = { $0 * grow }
    }
    guard !lights.isEmpty else { return fitted }
    let placed = lights.map { light in
      var light = light
      light.box = PixelRegion(
        x: place(light.box.x), y: place(light.box.y), width: max(1, place(light.box.width)),
        height: max(1, place(light.box.height)))
      light.lamp = PixelRegion(
        x: place(light.lamp.x), y: place(light.lamp.y), width: max(1, place(light.lamp.width)),
        height: max(1, place(light.lamp.height)))
      return light
    }
    return FoundLightsPicture.render(fitted, lights: placed, line: 1, text: 2)
  }

  /// Each `factor` x `factor` block of `image` as its mean (the last partial blocks dropped).
  static func shrunk(_ image: RGBImage, by factor: Int) -> RGBImage {
    let width = max(1, image.width / factor)
    let height = max(1, image.height / factor)
    var out = [UInt8](repeating: 0, count: width * height * 3)
    image.read { pixels in
      for y in 0..<height {
        for x in 0..<width {
          var sums = (0, 0, 0)
          var n = 0
          for dy in 0..<factor where y * factor + dy < image.height {
            let row = (y * factor + dy) * image.width
            for dx in 0..<factor where x * factor + dx < image.width {
              let at = (row + x * factor + dx) * 3
              sums.0 += Int(pixels[at])
              sums.1 += Int(pixels[at + 1])
              sums.2 += Int(pixels[at + 2])
              n += 1
            }
          }
          let at = (y * width + x) * 3
          out[at] = UInt8((sums.0 + n / 2) / n)
          out[at + 1] = UInt8((sums.1 + n / 2) / n)
          out[at + 2] = UInt8((sums.2 + n / 2) / n)
        }
      }
    }
    return RGBImage(width: width, height: height, bytes: out)
  }

  /// `image` with each pixel repeated `factor` times each way.
  static func grown(_ image: RGBImage, by factor: Int) -> RGBImage {
    let width = image.width * factor
    let height = image.height * factor
    var out = [UInt8](repeating: 0, count: width * height * 3)
    image.read { pixels in
      for y in 0..<height {
        let source = (y / factor) * image.width
        for x in 0..<width {
          let from = (source + x / factor) * 3
          let at = (y * width + x) * 3
          out[at] = pixels[from]
          out[at + 1] = pixels[from + 1]
          out[at + 2] = pixels[from + 2]
        }
      }
    }
    return RGBImage(width: width, height: height, bytes: out)
  }
}
