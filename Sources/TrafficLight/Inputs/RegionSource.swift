import TrafficLightKernels

/// Where in each image the light is.
public enum RegionSource: Sendable, Equatable {
  /// The image is the crop of one light.
  case wholeImage
  /// The same rectangle in every image (clipped to it).
  case fixed(PixelRegion)
  /// Boxes of class `classID` from the YOLO label file named like the image in `folder`,
  /// those with a score below `minimumScore` left out (boxes with none are kept).
  case labels(folder: String, classID: Int, minimumScore: Double? = nil)
  /// The boxes a detector's output file gives the image (`DetectorBoxes`).
  case boxes(DetectorBoxes)
  /// The lights `finder` finds in the whole image, each read by its lit lamp.
  case foundLights(LampFinder)
  /// An image of at most `largestCrop` pixels is the crop of one light (`wholeImage`); a
  /// larger one is a frame whose lights `finder` finds (`foundLights`). The command line's
  /// default.
  case framesOrCrops(LampFinder, largestCrop: Int)

  /// The largest image `framesOrCrops` reads as a crop by default: 320 x 320 pixels (102,400).
  /// The largest of 1,655 labelled crops from four sources (US, car park, simulator,
  /// Indonesian with a margin) has 73,644 pixels; a photo of 416 x 416 was read whole as
  /// one light when the bound was 512 x 512, its orange wall read red.
  public static let largestCrop = 320 * 320
}
