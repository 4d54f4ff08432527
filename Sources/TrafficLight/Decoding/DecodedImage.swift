import TrafficLightKernels

/// What the decoder gives: the pixels asked for, where they lie in the image, and the damage
/// the decoder patched over.
public struct DecodedImage: Sendable, Equatable {
  /// The pixels decoded: the whole image, or the region asked for (clipped to the image);
  /// empty when that region lies wholly outside the image.
  public let pixels: RGBImage
  /// Where `pixels` lie in the image, in the pixels of the image as displayed (turned by its
  /// orientation tag); `nil` when the region asked for lies wholly outside the image.
  public let region: PixelRegion?
  /// The first warning of damaged data the decoder patched over (with the count of the
  /// others), when damaged data is accepted; `nil` when there was none.
  public let damage: String?

  /// Decoded pixels, the region of the image they are (`nil` when it lay outside), and the damage patched over.
  public init(pixels: RGBImage, region: PixelRegion?, damage: String? = nil) {
    self.pixels = pixels
    self.region = region
    self.damage = damage
  }
}
