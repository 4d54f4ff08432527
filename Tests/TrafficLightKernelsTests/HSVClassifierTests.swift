import Testing
import TrafficLight  // SeededGenerator
import TrafficLightKernels

@Suite struct HSVClassifierTests {
  @Test func classify_seedProfile_equalsFloat64ReferenceOnAllColours() {
    let classifier = HSVClassifier(thresholds: .seed)
    var mismatches = 0
    var firstMismatch: (Int, Int, Int)?
    for r in 0...255 {
      for g in 0...255 {
        for b in 0...255 {
          let (r8, g8, b8) = (UInt8(r), UInt8(g), UInt8(b))
          if classifier.classify(r: r8, g: g8, b: b8)
            != referenceClass(r: r8, g: g8, b: b8, thresholds: .seed)
          {
            mismatches += 1
            if firstMismatch == nil { firstMismatch = (r, g, b) }
          }
        }
      }
    }
    #expect(mismatches == 0, "first mismatch at \(String(describing: firstMismatch))")
  }

  @Test func classify_withValueFloorAndOtherRanges_equalsReference() {
    let thresholds = HSVThresholds(
      saturationFloor: 0.35, valueFloor: 0.4, green: HueRange(95.5, 200, saturationFloor: 0.125),
      yellow: HueRange(20, 70), red: HueRange(330, 20, saturationFloor: 0.5))
    let classifier = HSVClassifier(thresholds: thresholds)
    var generator = SeededGenerator(seed: 42)
    for _ in 0..<500_000 {
      let (r, g, b) = (
        UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
        UInt8.random(in: 0...255, using: &generator)
      )
      let expected = referenceClass(r: r, g: g, b: b, thresholds: thresholds)
      guard classifier.classify(r: r, g: g, b: b) == expected else {
        Issue.record("(\(r), \(g), \(b)) should be \(expected)")
        return
      }
    }
  }

  @Test func classify_knownColours() {
    let seed = HSVClassifier(thresholds: .seed)
    #expect(seed.classify(r: 255, g: 0, b: 0) == .red)
    #expect(seed.classify(r: 255, g: 200, b: 0) == .yellow)  // hue 47
    #expect(seed.classify(r: 0, g: 255, b: 200) == .green)  // hue 167
    #expect(seed.classify(r: 0, g: 255, b: 0) == .none)  // hue 120: outside 140...220
    #expect(seed.classify(r: 255, g: 255, b: 255) == .none)  // white: saturation 0
    #expect(seed.classify(r: 0, g: 0, b: 0) == .none)  // black
    #expect(seed.classify(r: 255, g: 51, b: 51) == .none)  // saturation exactly 0.8: not above
    #expect(seed.classify(r: 255, g: 50, b: 50) == .red)
  }

  @Test func classify_image_appliesPerPixelRule() {
    var image = RGBImage(width: 3, height: 1)
    image[0, 0] = (255, 0, 0)
    image[1, 0] = (250, 250, 250)
    image[2, 0] = (0, 200, 255)
    let map = HSVClassifier(thresholds: .seed).classify(image)
    #expect(map.classes == [.red, .none, .green])
  }
}
