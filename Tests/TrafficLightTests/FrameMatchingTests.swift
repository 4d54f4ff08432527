import Testing
import TrafficLightKernels

@testable import TrafficLight
@testable import TrafficLightStudy

/// The matching of found lights to labelled boxes, against the plain definition: each box
/// takes the first light (most confident first) that finds it, a housing box only one no
/// earlier housing box took.
@Suite struct FrameMatchingTests {
  private func referenceMatch(_ lights: [FoundLight], _ boxes: [LabelledBox]) -> [Int?] {
    var taken = Set<Int>()
    return boxes.map { label in
      let found = lights.indices.first { index in
        (label.kind == .lamp || !taken.contains(index)) && label.isFound(by: lights[index])
      }
      if let found, label.kind == .light { taken.insert(found) }
      return found
    }
  }

  private func randomRegion(_ generator: inout SeededGenerator, extent: Int, largest: Int) -> PixelRegion {
    PixelRegion(
      x: Int.random(in: -20...extent, using: &generator), y: Int.random(in: -20...extent, using: &generator),
      width: Int.random(in: 1...largest, using: &generator),
      height: Int.random(in: 1...largest, using: &generator))
  }

  @Test func match_andFalseAndSecondLights_equalThePlainDefinition() {
    var generator = SeededGenerator(seed: 50)
    for trial in 0..<200 {
      let extent = [60, 400, 3000][trial % 3]
      let lights = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
        let box = randomRegion(&generator, extent: extent, largest: trial % 5 == 0 ? 5000 : 120)
        return FoundLight(box: box, lamp: box, color: .green, confidence: 0.9, orientation: .vertical)
      }
      let boxes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
        LabelledBox(
          kind: Bool.random(using: &generator) ? .light : .lamp, label: "red",
          box: randomRegion(&generator, extent: extent, largest: trial % 7 == 0 ? 1 << 20 : 150))
      }
      let matches = FrameEvaluator.match(lights, to: boxes)
      #expect(matches == referenceMatch(lights, boxes), "trial \(trial)")
      let outcome = FrameEvaluator.Outcome(
        frame: BoxedFrame(path: "f.jpg", boxes: boxes), lights: lights, matches: matches)
      // Every box here has a colour: a light is false when it found none.
      #expect(outcome.falseLights == lights.indices.filter { !matches.contains($0) }.count, "trial \(trial)")
      let second = lights.indices.filter { index in
        !matches.contains(index)
          && zip(boxes, matches).contains { box, match in match != nil && box.isFound(by: lights[index]) }
      }.count
      #expect(outcome.secondLights == second, "trial \(trial)")
    }
  }

  /// A dark light (a box labelled `unknown`) is not a light to find: unfound, it is not
  /// missed; found and read `unknown`, it is not a false light; found and read as a colour,
  /// it is one.
  @Test func darkBoxes_areNeitherMissedNorFalse_whenReadUnknown() {
    let dark = LabelledBox(
      kind: .light, label: "unknown", box: PixelRegion(x: 0, y: 0, width: 30, height: 90))
    let lit = LabelledBox(kind: .light, label: "red", box: PixelRegion(x: 100, y: 0, width: 30, height: 90))
    let frame = BoxedFrame(path: "f.jpg", boxes: [dark, lit])
    func light(at x: Int, _ color: SignalColor) -> FoundLight {
      let box = PixelRegion(x: x, y: 0, width: 30, height: 90)
      return FoundLight(box: box, lamp: box, color: color, confidence: 0.9, orientation: .vertical)
    }
    func report(_ lights: [FoundLight]) -> FrameEvaluator.Report {
      var report = FrameEvaluator.Report()
      report.outcomes = [
        FrameEvaluator.Outcome(
          frame: frame, lights: lights, matches: FrameEvaluator.match(lights, to: frame.boxes))
      ]
      return report
    }
    let unfound = report([light(at: 100, .red)])
    #expect(unfound.labelled == 1 && unfound.found == 1 && unfound.falseLights == 0)
    let readUnknown = report([light(at: 100, .red), light(at: 0, .unknown)])
    #expect(readUnknown.found == 1 && readUnknown.falseLights == 0)
    #expect(readUnknown.coverage(at: [0.5]).first?.falseLights == 0)
    let readRed = report([light(at: 100, .red), light(at: 0, .red)])
    #expect(readRed.found == 1 && readRed.falseLights == 1)
    #expect(readRed.coverage(at: [0.5]).first?.falseLights == 1)
  }

  /// Lit lamps found by one light are read against their head's most restrictive colour: a
  /// red lamp with the arrow lit beside it is right read red and wrong read green (twice a
  /// red read green), red with yellow wrong read yellow; a lamp found alone keeps its label,
  /// and a housing box its own whatever lamps lie near.
  @Test func lampsOfOneHead_areReadAsTheHeadsMostRestrictiveColour() {
    func lamp(_ label: String, at x: Int) -> LabelledBox {
      LabelledBox(kind: .lamp, label: label, box: PixelRegion(x: x, y: 10, width: 10, height: 10))
    }
    let head = PixelRegion(x: 0, y: 0, width: 60, height: 30)
    func report(_ boxes: [LabelledBox], read color: SignalColor, box: PixelRegion = head)
      -> FrameEvaluator.Report
    {
      let lights = [FoundLight(box: box, lamp: box, color: color, confidence: 0.9, orientation: .horizontal)]
      var report = FrameEvaluator.Report()
      let frame = BoxedFrame(path: "f.jpg", boxes: boxes)
      report.outcomes = [
        FrameEvaluator.Outcome(frame: frame, lights: lights, matches: FrameEvaluator.match(lights, to: boxes))
      ]
      return report
    }
    let arrow = [lamp("red", at: 0), lamp("left", at: 40)]
    #expect(report(arrow, read: .red).found == 2)
    #expect(report(arrow, read: .red).foundColors == (2, 0))
    #expect(report(arrow, read: .green).foundColors == (0, 2))
    #expect(report(arrow, read: .green).coverage(at: [0.5]).first?.redReadGreen == 2)
    #expect(report([lamp("red", at: 0), lamp("yellow", at: 20)], read: .yellow).foundColors == (0, 0))
    #expect(report([lamp("left", at: 40)], read: .green).foundColors == (1, 0))
    // The arrow alone in the light's box, the red lamp outside it.
    let narrow = PixelRegion(x: 30, y: 0, width: 30, height: 30)
    #expect(report(arrow, read: .green, box: narrow).foundColors == (1, 0))
    let housing = LabelledBox(kind: .light, label: "green", box: head)
    #expect(report([housing, lamp("red", at: 0)], read: .green).foundColors == (1, 1))
  }

  /// 100,000 boxes and 4,389 lights on one frame are matched (the plain loop took 52 s).
  @Test func match_manyBoxesAndLights_completes() {
    var generator = SeededGenerator(seed: 51)
    let lights = (0..<4389).map { _ in
      let box = randomRegion(&generator, extent: 4000, largest: 60)
      return FoundLight(box: box, lamp: box, color: .red, confidence: 0.9, orientation: .vertical)
    }
    let boxes = (0..<100_000).map { _ in
      LabelledBox(kind: .light, label: "red", box: randomRegion(&generator, extent: 4000, largest: 40))
    }
    let matches = FrameEvaluator.match(lights, to: boxes)
    #expect(matches.count == 100_000)
    #expect(matches.compactMap { $0 }.count <= lights.count)
  }
}
