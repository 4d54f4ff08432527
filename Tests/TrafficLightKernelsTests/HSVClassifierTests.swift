import Testing
import TrafficLight  // SeededGenerator
import TrafficLightKernels
import TrafficLightStudy
import TrafficLightTestSupport

@Suite struct HSVClassifierTests {
  /// Every one of the 2^24 colours, once through the single-pixel call and once through the
  /// whole-image call (the vectorised loop) at each level this CPU runs, against the
  /// Float64 reference. Run optimised (CI's release pass): unoptimised, 50 million reference
  /// classifications take two minutes of the README's test command.
  @Test(
    .enabled(if: TestBuild.optimised, "run by .ci/run's release pass: unoptimised it takes minutes"),
    arguments: [
      HSVThresholds.seed,
      HSVClassifierTests.wordFloors,
      HSVClassifierTests.beyondSixteenBits,
    ])
  func classify_equalsFloat64ReferenceOnAllColours(thresholds: HSVThresholds) {
    let classifiers = KernelLevel.supported.map { HSVClassifier(thresholds: thresholds, level: $0) }
    let everyColour = everyColourImage()
    let maps = classifiers.map { $0.classify(everyColour) }
    var mismatches = [Int](repeating: 0, count: classifiers.count)
    var firstMismatch: (Int, Int, Int)?
    var singleMismatches = 0
    for colour in 0..<(1 << 24) {
      let (r, g, b) = (UInt8(colour >> 16), UInt8((colour >> 8) & 255), UInt8(colour & 255))
      let expected = referenceClass(r: r, g: g, b: b, thresholds: thresholds)
      // The single-pixel call is the same at every level.
      if classifiers[0].classify(r: r, g: g, b: b) != expected { singleMismatches += 1 }
      for index in maps.indices where maps[index].classes[colour] != expected {
        mismatches[index] += 1
        if firstMismatch == nil { firstMismatch = (Int(r), Int(g), Int(b)) }
      }
    }
    #expect(singleMismatches == 0)
    #expect(
      mismatches == [Int](repeating: 0, count: classifiers.count),
      "by level \(KernelLevel.supported): first mismatch at \(String(describing: firstMismatch))")
  }

  /// Two classifiers at once give each one's own map, on every colour: pairs that share
  /// their hues (one pass, then each one's floors: the finder's bright and dim looks, and
  /// per-colour floors that cross) and a pair that does not (two passes). Run optimised, as
  /// above; the random image below takes the same paths at every level in any build.
  @Test(
    .enabled(if: TestBuild.optimised, "run by .ci/run's release pass: unoptimised it takes a minute"),
    arguments: [
      (LampFinder().thresholds, LampFinder().dimThresholds!),
      (
        HSVThresholds(
          saturationFloor: 0.35, valueFloor: 0.4, green: HueRange(95.5, 200, saturationFloor: 0.125),
          yellow: HueRange(20, 70), red: HueRange(330, 20, saturationFloor: 0.5)),
        HSVThresholds(
          saturationFloor: 0.2, valueFloor: 0.45, green: HueRange(95.5, 200), yellow: HueRange(20, 70),
          red: HueRange(330, 20, saturationFloor: 0.1))
      ),
      (HSVThresholds.seed, LampFinder().thresholds),
    ])
  func classifyAlongside_givesEachClassifiersMap_OnAllColours(pair: (HSVThresholds, HSVThresholds)) {
    let everyColour = everyColourImage()
    let (first, second) = (HSVClassifier(thresholds: pair.0), HSVClassifier(thresholds: pair.1))
    let (firstMap, secondMap) = first.classify(everyColour, alongside: second)
    #expect(differingPixels(firstMap, first.classify(everyColour)) == 0)
    #expect(differingPixels(secondMap, second.classify(everyColour)) == 0)
  }

  /// The same at every level, on a random image whose width leaves a ragged tail.
  @Test(arguments: KernelLevel.supported)
  func classifyAlongside_givesEachClassifiersMap_atEveryLevel(level: KernelLevel) {
    let image = randomImage(width: 1031, height: 67, seed: 11)
    let finder = LampFinder()
    let bright = HSVClassifier(thresholds: finder.thresholds, level: level)
    let dim = HSVClassifier(thresholds: finder.dimThresholds!, level: level)
    let (brightMap, dimMap) = bright.classify(image, alongside: dim)
    #expect(differingPixels(brightMap, bright.classify(image)) == 0)
    #expect(differingPixels(dimMap, dim.classify(image)) == 0)
    #expect(
      differingPixels(brightMap, dimMap) > 0, "the looks differ on a random image: the floors were applied")
  }

  /// Thresholds beyond the hue circle or the unit interval mean the same as the bounds they
  /// pass (the classifier clamps them to keep its products in 32 bits).
  @Test(arguments: KernelLevel.supported)
  func classify_outOfRangeThresholds_equalReference(level: KernelLevel) {
    let thresholds = HSVThresholds(
      saturationFloor: -3, valueFloor: 5, green: HueRange(400, 370), yellow: HueRange(-50, -10),
      red: HueRange(-20, 1000, saturationFloor: 7))
    let lenient = HSVThresholds(
      saturationFloor: -3, valueFloor: -2, green: HueRange(400, 370), yellow: HueRange(-50, -10),
      red: HueRange(-20, 1000, saturationFloor: 7))
    for thresholds in [thresholds, lenient] {
      let classifier = HSVClassifier(thresholds: thresholds, level: level)
      let image = randomImage(width: 500, height: 100, seed: 7)
      let map = classifier.classify(image)
      for y in 0..<100 {
        for x in 0..<500 {
          let (r, g, b) = image[x, y]
          let expected = referenceClass(r: r, g: g, b: b, thresholds: thresholds)
          guard classifier.classify(r: r, g: g, b: b) == expected, map[x, y] == expected else {
            Issue.record("\(level): (\(r), \(g), \(b)) should be \(expected)")
            return
          }
        }
      }
    }
  }

  /// A lone coloured pixel at each place of a grey row (in blocks of 16 or 32, or in the
  /// row's tail) is classified as the reference classifies it at every level, just above its
  /// saturation floor and just below it: the levels skip grey blocks wholesale, not it.
  @Test(arguments: KernelLevel.supported)
  func classify_lonePixelAtEveryPlace_equalsReference(level: KernelLevel) {
    // Value level 127 and a floor of 0.4: (128, 76, 76) has d 52 > 0.4 * 128; (128, 77, 77)
    // has d 51, not above it.
    let thresholds = HSVThresholds(
      saturationFloor: 0.4, valueFloor: 0.5, green: HueRange(95, 195), yellow: HueRange(18, 70),
      red: HueRange(330, 18))
    let classifier = HSVClassifier(thresholds: thresholds, level: level)
    for colour: (UInt8, UInt8, UInt8) in [(128, 76, 76), (128, 77, 77), (0, 255, 90), (255, 255, 0)] {
      let expected = referenceClass(r: colour.0, g: colour.1, b: colour.2, thresholds: thresholds)
      for width in [16, 17, 33, 53, 65] {
        for place in 0..<width {
          var image = RGBImage(width: width, height: 1, fill: (120, 120, 120))
          image[place, 0] = colour
          let map = classifier.classify(image)
          guard map[place, 0] == expected,
            map.classes.filter({ $0 != .none }).count == (expected == .none ? 0 : 1)
          else {
            Issue.record("\(level): \(colour) at \(place) of \(width) should be \(expected)")
            return
          }
        }
      }
    }
  }

  /// The AVX-512 level, where the CPU has it (the tests above take every level the CPU runs;
  /// this one says so when AVX-512 is not among them).
  @Test(.enabled(if: KernelLevel.avx512.isSupported, "this CPU has no AVX-512"))
  func classify_avx512_equalsPortable() {
    let image = randomImage(width: 1031, height: 67, seed: 3)
    let thresholds = HSVThresholds(
      saturationFloor: 0.3, valueFloor: 0.4, green: HueRange(120, 205), yellow: HueRange(5, 90),
      red: HueRange(330, 5))
    #expect(
      HSVClassifier(thresholds: thresholds, level: .avx512).classify(image)
        == HSVClassifier(thresholds: thresholds, level: .portable).classify(image))
  }

  /// Bounds whose ratio to 60 degrees does not reduce to 16-bit terms (359.999 / 60 is
  /// 359999 / 60000): the AVX2 and AVX-512 levels classify them in 32 bits.
  /// Rules of the 16-bit form whose floors' terms do not fit bytes (0.417 is 417/1000).
  static let wordFloors = HSVThresholds(
    saturationFloor: 0.35, valueFloor: 0.4, green: HueRange(95.5, 200, saturationFloor: 0.125),
    yellow: HueRange(20, 70), red: HueRange(330, 20, saturationFloor: 0.417))

  static let beyondSixteenBits = HSVThresholds(
    saturationFloor: 0.3, valueFloor: 0.25, green: HueRange(95.001, 199.999),
    yellow: HueRange(20.003, 70), red: HueRange(330, 19.997, saturationFloor: 0.417))

  /// Which rules take the 16-bit form: whole degrees and floors in thousandths do, and the
  /// rules the tests above run through every colour take each form.
  @Test func fitsSixteenBits_wholeDegreesDo_oddThousandthsDoNot() {
    #expect(HSVClassifier(thresholds: .seed).fitsSixteenBits)
    #expect(HSVClassifier(thresholds: LampFinder().thresholds).fitsSixteenBits)
    #expect(HSVClassifier(thresholds: Self.wordFloors).fitsSixteenBits)
    #expect(!HSVClassifier(thresholds: Self.beyondSixteenBits).fitsSixteenBits)
  }

  /// Which 16-bit rules test their floors on bytes: floors in tenths do (the seed's 0.8 is
  /// 4/5), 0.417 does not; so the all-colours test above runs each floor test.
  @Test func floorsFitBytes_tenthsDo_oddThousandthsDoNot() {
    #expect(HSVClassifier(thresholds: .seed).floorsFitBytes)
    #expect(HSVClassifier(thresholds: Profile.default.thresholds).floorsFitBytes)
    #expect(!HSVClassifier(thresholds: Self.wordFloors).floorsFitBytes)
    #expect(!HSVClassifier(thresholds: Self.beyondSixteenBits).floorsFitBytes)
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

/// How many pixels two maps of the same size classify differently (a count, where a failed
/// comparison of whole maps would print millions of classes).
private func differingPixels(_ a: ClassMap, _ b: ClassMap) -> Int {
  zip(a.classes, b.classes).count { $0 != $1 }
}
