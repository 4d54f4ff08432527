import TrafficLightKernels

/// What the pipeline read from one light.
public struct FrameResult: Sendable, Equatable {
  /// The frame's colour.
  public var color: SignalColor { decision.color }
  /// The points per colour.
  public var counts: ColorCounts { decision.counts }
  /// The decision, with the points read (in the light's coordinates) and their classes.
  public let decision: LightDecision
  /// The part of the image that was read: the whole image, or the region of interest
  /// clipped to it; `nil` when the region fell outside the image.
  public let region: PixelRegion?
  /// Every pixel's class in the region, when it was asked for (for pictures).
  public let map: ClassMap?
  /// The light the points were read on, in the image's pixels, with the lit lamp it was
  /// placed from when the locator saw one: the evidence of where the colour was read; `nil`
  /// when nothing was read.
  public let light: LocatedLight?

  /// A result: the decision, the region read (nil when none), the class map if kept, and
  /// the light read.
  public init(decision: LightDecision, region: PixelRegion?, map: ClassMap? = nil, light: LocatedLight? = nil)
  {
    self.decision = decision
    self.region = region
    self.map = map
    self.light = light
  }

  /// This result without its class map (which is large), for keeping.
  public func droppingMap() -> FrameResult { FrameResult(decision: decision, region: region, light: light) }
}
