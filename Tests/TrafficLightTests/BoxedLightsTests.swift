import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight
@testable import TrafficLightStudy

/// Boxed frames as labelled lights: each housing box read as that region of its frame, for
/// `calibrate` and its report.
@Suite struct BoxedLightsTests {
  static let boxes =
    "file,state,xmin,ymin,xmax,ymax\na.png,red,30,40,60,130\na.png,green,250,50,280,140\n"
    + "b.png,yellow,100,40,130,130\nb.png,unknown,200,40,230,130\n"

  static func folder() throws -> String {
    try boxedFramesFolder(
      [
        ("a.png", syntheticFrame([(.red, 30, 40), (.green, 250, 50)])),
        ("b.png", syntheticFrame([(.yellow, 100, 40)])), ("c.png", syntheticFrame()),
      ],
      boxes: boxes)
  }

  @Test func housingBoxes_areLabelledLights_inFrameOrder() throws {
    let folder = try Self.folder()
    let lights = try BoxedFrames.labelledLights(folder)
    #expect(lights.map(\.truth) == [.red, .green, .yellow, .unknown])
    #expect(lights.map { ($0.path as NSString).lastPathComponent } == ["a.png", "a.png", "b.png", "b.png"])
    #expect(lights[1].region == PixelRegion(x: 250, y: 50, width: 30, height: 90))
    // One decode for each frame's boxes; a whole image alone.
    let whole = LabelledImage(path: folder + "/frames/c.png", truth: .unknown)
    #expect(([whole] + lights + [whole]).decodes == [0..<1, 1..<3, 3..<5, 5..<6])
  }

  @Test func boxedLights_readAsTheirRegions_inTheEvaluatorAndTheCalibrator() throws {
    let lights = try BoxedFrames.labelledLights(try Self.folder())
    let pipeline = FramePipeline(profile: .default)
    let report = Evaluator(reader: ImageReader(pipeline: pipeline)).evaluate(lights, jobs: 2)
    #expect(report.failures.isEmpty)
    #expect(report.outcomes.map(\.read) == [.red, .green, .yellow, .unknown], "\(report.outcomes)")
    // The calibrator measures the same regions: its confusion for the start is the report's.
    let calibrator = Calibrator(start: .default)
    let set = calibrator.prepare(lights, name: "boxes", jobs: 2)
    #expect(set.frames.count == 4 && set.unreadable.isEmpty)
    #expect(calibrator.confusion(.default, on: set) == report.confusion)
    // A box read alone as a crop reads as in its frame.
    let frame = try ImageDecoder().decode(fileAt: lights[0].path).pixels
    #expect(pipeline.classify(frame, region: lights[0].region).color == .red)
  }

  @Test func lampBoxes_andUnknownStates_areRefused() throws {
    let lamps = try boxedFramesFolder(
      [("a.png", syntheticFrame([(.red, 30, 40)]))],
      boxes: "file,lamp,xmin,ymin,xmax,ymax\na.png,red,35,45,55,65\n")
    #expect(throws: LabelledSetError.self) { try BoxedFrames.labelledLights(lamps) }
    do {
      _ = try BoxedFrames.labelledLights(lamps)
    } catch {
      #expect(error.description.contains("boxes of lit lamps"), "\(error)")
    }
    let misspelt = try boxedFramesFolder(
      [("a.png", syntheticFrame([(.red, 30, 40)]))],
      boxes: "file,state,xmin,ymin,xmax,ymax\na.png,red,30,40,60,130\na.png,gren,100,40,130,130\n")
    #expect(
      throws: LabelledSetError.badLabels(
        path: misspelt + "/boxes.csv", line: 3,
        reason: "a.png's box is labelled 'gren': a state is red, yellow, green or unknown")
    ) {
      try BoxedFrames.labelledLights(misspelt)
    }
  }
}
