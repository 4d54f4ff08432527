import TrafficLightKernels

/// One light as the reading measured it: the third of its stages (decode, locate, measure,
/// decide), what `FramePipeline.decide(_:)` names a colour from. A fit measures each image
/// once and decides it again under every profile it tries (`calibrate`), so a measurement
/// keeps what a profile's searched values do not change: the grid's points with their
/// blurred colours (classes are made again from the colours when the thresholds differ), or
/// what a decider that reads pixels measures of them (a light network's features).
public struct LightMeasurement: Sendable, Equatable {
  /// The part of the image read: the region asked for, clipped to the image.
  public let area: PixelRegion
  /// The light located in it, in the image's pixels.
  public let light: LocatedLight
  /// The sample grid, turned the light's way (`SampleGrid.turned(_:)`).
  public let grid: SampleGrid
  /// The grid's points, their colours blurred with the profile's blur and their classes by
  /// `thresholds`; empty for a decider that reads pixels.
  public let samples: [SamplePoint]
  /// The thresholds `samples` were classified by.
  public let thresholds: HSVThresholds
  /// For a decider that reads pixels, what it measured of the light's
  /// (`LightDecider.measure(pixelsOf:in:)`); nil when it reads points, or measured nothing.
  public let features: [Float]?
  /// The light's region's busyness (`RGBImage.busyness(in:)`), measured when no lit lamp
  /// placed the light and it was asked for; nil otherwise.
  public let busyness: Double?
  /// Every pixel's class in the light's box, when it was asked for (for pictures).
  public let map: ClassMap?
  /// The pixels of `area`, unblurred, kept for a profile's `networkFallback` (`NetworkFallback`,
  /// which reads the region as given, not the light located in it): nil when the measuring
  /// profile has none.
  public let pixels: RGBImage?

  /// A measurement of these parts.
  public init(
    area: PixelRegion, light: LocatedLight, grid: SampleGrid, samples: [SamplePoint],
    thresholds: HSVThresholds,
    features: [Float]? = nil, busyness: Double? = nil, map: ClassMap? = nil, pixels: RGBImage? = nil
  ) {
    self.area = area
    self.light = light
    self.grid = grid
    self.samples = samples
    self.thresholds = thresholds
    self.features = features
    self.busyness = busyness
    self.map = map
    self.pixels = pixels
  }

}
