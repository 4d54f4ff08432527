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

  /// `map` painted class by class, each sample point marked by a white ring of radius
  /// `markRadius` around it (the point itself keeps its class colour, so the picture shows
  /// what was sampled).
  ///
  /// Complexity: O(width * height + samples * markRadius^2).
  public static func render(_ map: ClassMap, samples: [SamplePoint], markRadius: Int = 2) -> RGBImage {
    var image = RGBImage(width: map.width, height: map.height) { bytes in
      for (i, pixelClass) in map.classes.enumerated() {
        let (r, g, b) = paint(pixelClass)
        bytes[3 * i] = r
        bytes[3 * i + 1] = g
        bytes[3 * i + 2] = b
      }
    }
    for sample in samples {
      for dy in -markRadius...markRadius {
        for dx in -markRadius...markRadius where max(abs(dx), abs(dy)) == markRadius {
          let x = sample.x + dx
          let y = sample.y + dy
          if x >= 0 && x < map.width && y >= 0 && y < map.height { image[x, y] = (255, 255, 255) }
        }
      }
    }
    return image
  }
}
