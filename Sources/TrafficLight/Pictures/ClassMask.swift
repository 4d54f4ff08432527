import TrafficLightKernels

/// Pictures of what the classifier saw, like the original app's overlay.
public enum ClassMask {
  /// The colour each class is painted with; `none` is black.
  public static func paint(_ pixelClass: PixelClass) -> (UInt8, UInt8, UInt8) {
    switch pixelClass {
    case .none: (0, 0, 0)
    case .red: (255, 0, 0)
    case .yellow: (255, 255, 0)
    case .green: (0, 255, 0)
    }
  }

  /// How many output pixels a side of one map pixel takes: small crops are drawn larger (up
  /// to 8 times) so that the picture is about 240 pixels on its short side; frames are 1:1.
  public static func scale(forWidth width: Int, height: Int) -> Int {
    max(1, min(8, 240 / max(1, min(width, height))))
  }

  /// `map` painted class by class, each map pixel a square of `scale` pixels a side (by
  /// default `scale(forWidth:height:)`), each sample point marked by a white ring around its
  /// square (`markRadius` output pixels past it; the square itself keeps its class colour, so
  /// the picture shows what was sampled).
  ///
  /// Complexity: O(width * height * scale^2 + samples * (scale + markRadius)^2).
  public static func render(
    _ map: ClassMap, samples: [SamplePoint], markRadius: Int = 2, scale: Int? = nil
  ) -> RGBImage {
    let scale = max(1, scale ?? Self.scale(forWidth: map.width, height: map.height))
    let width = map.width * scale
    let height = map.height * scale
    var image = RGBImage(width: width, height: height) { bytes in
      for y in 0..<height {
        for x in 0..<width {
          let (r, g, b) = paint(map.classes[(y / scale) * map.width + x / scale])
          let i = y * width + x
          bytes[3 * i] = r
          bytes[3 * i + 1] = g
          bytes[3 * i + 2] = b
        }
      }
    }
    for sample in samples {
      // The ring runs markRadius pixels outside the sample's square.
      let low = (x: sample.x * scale - markRadius, y: sample.y * scale - markRadius)
      let high = (x: sample.x * scale + scale - 1 + markRadius, y: sample.y * scale + scale - 1 + markRadius)
      for y in low.y...high.y {
        for x in low.x...high.x where x == low.x || x == high.x || y == low.y || y == high.y {
          if x >= 0 && x < width && y >= 0 && y < height { image[x, y] = (255, 255, 255) }
        }
      }
    }
    return image
  }
}
