import Foundation
import Testing
import TrafficLight
import TrafficLightKernels
import TrafficLightStudy
import TrafficLightTestSupport

@Suite struct LampFinderTests {
  @Test(arguments: [SignalColor.red, .yellow, .green])
  func findsAVerticalLight_inASkyFrame(color: SignalColor) throws {
    var frame = syntheticFrame()
    paste(syntheticLight(lit: color), into: &frame, x: 140, y: 40)
    let lights = LampFinder().find(in: frame)
    try #require(lights.count == 1, "\(lights)")
    let light = lights[0]
    #expect(light.color == color)
    #expect(light.orientation == .vertical)
    #expect(light.confidence > 0.5)
    // The housing placed from the lamp holds the pasted light's centre, and the lamp lies in it.
    let (cx, cy) = (light.box.x + light.box.width / 2, light.box.y + light.box.height / 2)
    #expect((140..<170).contains(cx) && (40..<130).contains(cy), "\(light.box)")
    #expect(light.lamp.x >= 140 && light.lamp.x + light.lamp.width <= 170)
  }

  @Test(arguments: [SignalColor.red, .green])
  func findsAHorizontalLight_byItsLampOrder(color: SignalColor) throws {
    var frame = syntheticFrame()
    paste(turnedToHorizontal(syntheticLight(lit: color)), into: &frame, x: 100, y: 60)
    let lights = LampFinder().find(in: frame)
    try #require(lights.count == 1, "\(lights)")
    #expect(lights[0].color == color)
    #expect(lights[0].orientation == .horizontal)
    let (cx, cy) = (lights[0].box.x + lights[0].box.width / 2, lights[0].box.y + lights[0].box.height / 2)
    #expect((100..<190).contains(cx) && (60..<90).contains(cy), "\(lights[0].box)")
  }

  /// A horizontal head of left-hand traffic (green, yellow, red from the left) is found
  /// when the finder looks for red on the right or at either end, with its box over the
  /// head; looking for red on the left only, its lamp has no unlit neighbours and is no light.
  @Test(arguments: [SignalColor.red, .green])
  func findsAHorizontalLightWithRedOnTheRight_whenToldTo(color: SignalColor) throws {
    let turned = turnedToHorizontal(syntheticLight(lit: color))
    var mirrored = RGBImage(width: turned.width, height: turned.height)
    for y in 0..<turned.height {
      for x in 0..<turned.width { mirrored[turned.width - 1 - x, y] = turned[x, y] }
    }
    var frame = syntheticFrame()
    paste(mirrored, into: &frame, x: 100, y: 60)
    var finder = LampFinder()
    #expect(finder.horizontalRed == .left)
    #expect(finder.find(in: frame).isEmpty)
    for end in [LampFinder.HorizontalRed.right, .either] {
      finder.horizontalRed = end
      let lights = finder.find(in: frame)
      try #require(lights.count == 1, "\(end): \(lights)")
      #expect(lights[0].color == color && lights[0].orientation == .horizontal)
      let box = lights[0].box
      let (cx, cy) = (box.x + box.width / 2, box.y + box.height / 2)
      #expect((100..<190).contains(cx) && (60..<90).contains(cy), "\(end): \(box)")
    }
    // Told red is on the right, the usual head (red on the left) is not found.
    finder.horizontalRed = .right
    var usual = syntheticFrame()
    paste(turned, into: &usual, x: 100, y: 60)
    #expect(finder.find(in: usual).isEmpty)
    // The setting round-trips through JSON; a value it does not know is refused.
    let json = try JSONEncoder().encode(finder)
    #expect(try JSONDecoder().decode(LampFinder.self, from: json).horizontalRed == .right)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(LampFinder.self, from: Data(#"{"horizontalRed":"middle"}"#.utf8))
    }
  }

  /// Red and green evidence together never answer green: a green lamp with a red one lit in
  /// line beside it (two heads side by side, the green one raised so that its lamp sits in
  /// the red lamp's row) gives no green light, though the green head alone is one.
  @Test func aGreenLampBesideALitRedOne_isNeverReadGreen() throws {
    var alone = syntheticFrame()
    paste(syntheticLight(lit: .green), into: &alone, x: 150, y: 20)
    let finder = LampFinder()
    let green = try #require(finder.find(in: alone).first { $0.color == .green }, "the green head alone")
    #expect(green.confidence >= finder.minimumConfidence)
    var frame = alone
    paste(syntheticLight(lit: .red), into: &frame, x: 120, y: 80)
    let lights = finder.find(in: frame)
    #expect(lights.contains { $0.color == .red }, "\(lights)")
    #expect(!lights.contains { $0.color == .green }, "\(lights)")
    // The red light is the one head's, and holds the green lamp too.
    #expect(lights.contains { $0.color == .red && $0.box.holdsCentre(of: green.lamp) }, "\(lights)")
    // Further off than two lamp pitches, the two are two lights again.
    var apart = alone
    paste(syntheticLight(lit: .red), into: &apart, x: 60, y: 80)
    #expect(Set(finder.find(in: apart).map(\.color)) == [.red, .green])
  }

  /// A red lamp lit with a green arrow beside it is one red light holding both lamps: the red
  /// light kept there (here taken for a vertical head's) grows to hold the arrow; where the
  /// red lamp was too unsure to be kept, its candidate whose head runs towards the arrow is
  /// that light, as sure as the arrow; a red candidate whose head runs away from the arrow
  /// makes none (the arrow is still not green), and a red patch twenty times the arrow's size
  /// is no lamp of its head: it makes no red light, but still keeps the arrow from green.
  @Test func aRedLampLitBesideAGreenArrow_isOneRedLight_holdingBoth() throws {
    let finder = LampFinder()
    func candidate(
      _ color: SignalColor, lamp: PixelRegion, box: PixelRegion, _ confidence: Double,
      _ orientation: Orientation,
      value: Double = 0.9
    ) -> [LampCandidate] {
      var values = [Double](repeating: 0, count: LampMeasurements.names.count)
      values[LampMeasurements.names.firstIndex(of: "value")!] = value
      let light = FoundLight(
        box: box, lamp: lamp, color: color, confidence: confidence, orientation: orientation)
      return [LampCandidate(light: light, measurements: LampMeasurements(values: values))]
    }
    let redLamp = PixelRegion(x: 100, y: 50, width: 10, height: 10)
    let across = PixelRegion(x: 98, y: 48, width: 40, height: 14)
    let down = PixelRegion(x: 98, y: 48, width: 14, height: 40)
    let arrowLamp = PixelRegion(x: 125, y: 51, width: 8, height: 8)
    let arrow = candidate(
      .green, lamp: arrowLamp, box: PixelRegion(x: 123, y: 25, width: 12, height: 36), 0.8, .vertical)

    let kept = finder.choose(from: [candidate(.red, lamp: redLamp, box: down, 0.7, .vertical), arrow])
    try #require(kept.count == 1, "\(kept)")
    #expect(kept[0].color == .red && kept[0].confidence == 0.7)
    #expect(kept[0].box.holdsCentre(of: arrowLamp) && kept[0].box.holdsCentre(of: redLamp), "\(kept[0].box)")

    let unsure = finder.choose(from: [candidate(.red, lamp: redLamp, box: across, 0.45, .horizontal), arrow])
    try #require(unsure.count == 1, "\(unsure)")
    #expect(unsure[0].color == .red && unsure[0].confidence == 0.8 && unsure[0].orientation == .horizontal)
    #expect(unsure[0].lamp == redLamp && unsure[0].box.holdsCentre(of: arrowLamp))

    #expect(finder.choose(from: [candidate(.red, lamp: redLamp, box: down, 0.45, .vertical), arrow]).isEmpty)

    let van = PixelRegion(x: 0, y: 0, width: 200, height: 200)
    let beside = finder.choose(from: [candidate(.red, lamp: van, box: van, 0.45, .horizontal), arrow])
    #expect(beside.isEmpty, "\(beside)")

    let lens = finder.choose(from: [
      candidate(.red, lamp: redLamp, box: across, 0.45, .horizontal, value: 0.5), arrow,
    ])
    #expect(lens.map(\.color) == [.green], "\(lens)")
  }

  /// A sunlit green light's unlit red lens shows as a dim red patch in line with its lamp
  /// (here a small glint, whose own unlit neighbours fall on the housing): a red candidate
  /// under `unlitRatio` of the green lamp's brightness is that lens and keeps no green light
  /// off; the same patch bright keeps it off.
  @Test func aGreenLampBelowADimRedLens_isGreen_andBelowALitRedLamp_isNot() throws {
    let finder = LampFinder()
    func head(red: (UInt8, UInt8, UInt8)) -> RGBImage {
      var head = syntheticLight(lit: .green)
      for y in 0..<30 {
        for x in 0..<30 where (x - 15) * (x - 15) + (y - 20) * (y - 20) <= 25 { head[x, y] = red }
      }
      var frame = syntheticFrame()
      paste(head, into: &frame, x: 150, y: 20)
      return frame
    }
    let unlit = head(red: (110, 20, 22))
    // The dim lens is a red candidate sure enough to veto a green lamp in line with it.
    let lens = try #require(finder.candidates(in: unlit).first { $0.light.color == .red }, "no red candidate")
    #expect(lens.light.confidence >= finder.minimumConfidence / 2, "\(lens.light)")
    #expect(finder.find(in: unlit).contains { $0.color == .green }, "\(finder.find(in: unlit))")
    let litFrame = head(red: (255, 10, 10))
    #expect(!finder.find(in: litFrame).contains { $0.color == .green })
  }

  /// An orange lamp reads yellow at its centre and red at its rim: red and yellow pixels that
  /// touch are one lamp, of the colour of its most saturated pixel. A red lamp whose centre
  /// is a large orange-yellow disc (its red rim a thin ring, too sparse to be a lamp alone) is
  /// one red light with the whole disc for its lamp; with the saturations the other way
  /// round, the same lamp in yellow's place is one yellow light.
  @Test(arguments: [SignalColor.red, .yellow])
  func aLampOfRedAndYellowPixels_isOneLamp_ofItsMostSaturatedPixelsColour(color: SignalColor) throws {
    var light = syntheticLight(lit: color)
    let (cx, cy, inner, outer) = (15, color == .red ? 15 : 45, 10, 12)
    // Saturations: red 0.96 and orange 0.84, or red-orange 0.76 and yellow 1.
    let (rim, centre): ((UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8)) =
      color == .red ? ((255, 10, 10), (255, 170, 40)) : ((250, 90, 60), (255, 190, 0))
    for y in 0..<light.height {
      for x in 0..<light.width {
        let d = (x - cx) * (x - cx) + (y - cy) * (y - cy)
        if d <= outer * outer { light[x, y] = d <= inner * inner ? centre : rim }
      }
    }
    var frame = syntheticFrame()
    paste(light, into: &frame, x: 140, y: 40)
    let lights = LampFinder().find(in: frame)
    try #require(lights.count == 1, "\(lights)")
    #expect(lights[0].color == color)
    #expect(lights[0].orientation == .vertical)
    // The lamp is the whole disc (25 pixels across), not its centre.
    #expect(lights[0].lamp.width >= 23, "\(lights[0].lamp)")
  }

  /// Red and yellow that touch are one lamp only when together they are shaped like one: a
  /// red lamp in a housing painted yellow (as some are), its unlit lamps dark, is a red light,
  /// not a patch of lamp and housing too large and long to be a lamp.
  @Test func aRedLampInAYellowHousing_isARedLight() throws {
    var light = RGBImage(width: 30, height: 90, fill: (235, 190, 40))
    for (cy, colour) in [(15, (255, 10, 10)), (45, (40, 35, 30)), (75, (40, 35, 30))]
      as [(Int, (UInt8, UInt8, UInt8))]
    {
      for y in 0..<90 {
        for x in 0..<30 where (x - 15) * (x - 15) + (y - cy) * (y - cy) <= 144 { light[x, y] = colour }
      }
    }
    var frame = syntheticFrame()
    paste(light, into: &frame, x: 140, y: 40)
    let lights = LampFinder().find(in: frame)
    try #require(lights.count == 1, "\(lights)")
    #expect(lights[0].color == .red && lights[0].orientation == .vertical)
    #expect(lights[0].lamp.width <= 27, "the lamp alone: \(lights[0].lamp)")
  }

  /// The summed table a crop's squares are read from gives, for every rectangle, the sums
  /// of value and chroma that adding up its pixels gives.
  @Test func summedTable_givesEveryRectanglesSums_asAddingUpItsPixels() throws {
    var generator = SeededGenerator(seed: 7)
    var image = RGBImage(width: 23, height: 17)
    for y in 0..<17 {
      for x in 0..<23 {
        image[x, y] = (
          UInt8(generator.next() % 256), UInt8(generator.next() % 256), UInt8(generator.next() % 256)
        )
      }
    }
    let table = try #require(SummedTable(image))
    for _ in 0..<200 {
      let (xa, xb) = (Int(generator.next() % 24), Int(generator.next() % 24))
      let (ya, yb) = (Int(generator.next() % 18), Int(generator.next() % 18))
      let (x0, x1, y0, y1) = (min(xa, xb), max(xa, xb), min(ya, yb), max(ya, yb))
      var (value, chroma) = (0, 0)
      for y in y0..<y1 {
        for x in x0..<x1 {
          let (r, g, b) = image[x, y]
          value += Int(max(r, g, b))
          chroma += Int(max(r, g, b) - min(r, g, b))
        }
      }
      let sums = table.sums(x0: x0, x1: x1, y0: y0, y1: y1)
      #expect(sums.value == value && sums.chroma == chroma, "rows \(y0)..<\(y1), columns \(x0)..<\(x1)")
    }
  }

  /// The patches the plane takes a row's run at a time are those a plain flood fill, pixel
  /// by pixel, finds: the same pixels (count, box, summed value and chroma) in the same
  /// order, and a red patch is marked as touching yellow (and yellow red) when one of its
  /// pixels is beside a pixel of a patch taken after it.
  @Test func planePatches_areThoseAPlainFloodFillFinds() {
    var generator = SeededGenerator(seed: 11)
    for trial in 0..<40 {
      let (width, height) = (1 + Int(generator.next() % 40), 1 + Int(generator.next() % 30))
      var image = RGBImage(width: width, height: height)
      var classes = [PixelClass](repeating: .none, count: width * height)
      // Blobs of each colour, some touching, on noise of every class.
      for i in classes.indices where generator.next() % 6 == 0 {
        classes[i] = PixelClass(rawValue: UInt8(generator.next() % 4))!
      }
      for _ in 0..<(1 + Int(generator.next() % 6)) {
        let code = PixelClass(rawValue: UInt8(1 + generator.next() % 3))!
        let (cx, cy, r) = (
          Int(generator.next() % UInt64(width)), Int(generator.next() % UInt64(height)),
          1 + Int(generator.next() % 8)
        )
        for y in 0..<height {
          for x in 0..<width where (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r {
            classes[y * width + x] = code
          }
        }
      }
      for y in 0..<height {
        for x in 0..<width {
          image[x, y] = (
            UInt8(generator.next() % 256), UInt8(generator.next() % 256), UInt8(generator.next() % 256)
          )
        }
      }
      // The reference: each pixel's patch by a plain flood fill, patches numbered in the
      // order of their first pixels.
      var label = [Int](repeating: -1, count: width * height)
      var reference: [(start: Int, area: Int, box: [Int], value: Int, chroma: Int)] = []
      for start in classes.indices where classes[start] != .none && label[start] < 0 {
        var (area, box, value, chroma) = (0, [width, -1, height, -1], 0, 0)
        var stack = [start]
        label[start] = reference.count
        while let i = stack.popLast() {
          let (x, y) = (i % width, i / width)
          let (r, g, b) = image[x, y]
          area += 1
          value += Int(max(r, g, b))
          chroma += Int(max(r, g, b) - min(r, g, b))
          box = [min(box[0], x), max(box[1], x), min(box[2], y), max(box[3], y)]
          let neighbours = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
          for (nx, ny) in neighbours where nx >= 0 && nx < width && ny >= 0 && ny < height {
            let n = ny * width + nx
            if classes[n] == classes[start] && label[n] < 0 {
              label[n] = reference.count
              stack.append(n)
            }
          }
        }
        reference.append((start, area, box, value, chroma))
      }
      func touchesLaterWarm(_ k: Int) -> Bool {
        classes.indices.contains { i in
          guard label[i] == k, classes[i] == .red || classes[i] == .yellow else { return false }
          let (x, y) = (i % width, i / width)
          let neighbours = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
          return neighbours.contains { nx, ny in
            guard nx >= 0 && nx < width && ny >= 0 && ny < height else { return false }
            let n = ny * width + nx
            return label[n] > k && classes[n] != classes[i] && (classes[n] == .red || classes[n] == .yellow)
          }
        }
      }
      var map = classes
      let patches = SeedStack.using { LampPlane.patches(of: image, classes: &map, seeds: &$0) }
      #expect(map.allSatisfy { $0 == .none }, "trial \(trial): every pixel taken")
      #expect(patches.count == reference.count, "trial \(trial)")
      for (k, (taken, expected)) in zip(patches, reference).enumerated() {
        let p = taken.patch
        #expect(taken.start == expected.start && p.area == expected.area, "trial \(trial), patch \(k)")
        #expect([p.minX, p.maxX, p.minY, p.maxY] == expected.box, "trial \(trial), patch \(k)")
        #expect(p.valueSum == expected.value && p.chromaSum == expected.chroma, "trial \(trial), patch \(k)")
        #expect(taken.touchesOtherWarm == touchesLaterWarm(k), "trial \(trial), patch \(k)")
      }
    }
  }

  /// The table sums in 32 bits: it is made for images whose every rectangle's sums fit, and
  /// refuses larger ones (their squares are then summed pixel by pixel).
  @Test func summedTable_refusesAnImageWhoseSumsPass32Bits() {
    let white = RGBImage(width: 4100, height: 4200, fill: (255, 255, 255))
    #expect(4100 * 4200 * 255 > Int(UInt32.max))
    #expect(SummedTable(white) == nil)
    let largest = RGBImage(width: 4100, height: 4100, fill: (255, 255, 255))
    let table = SummedTable(largest)
    #expect(table?.sums(x0: 0, x1: 4100, y0: 0, y1: 4100).value == 4100 * 4100 * 255)
  }

  /// Two housings cannot share pixels: lights of one colour whose boxes overlap are one
  /// light, the more confident kept; lights of two colours both stay unless one's centre lies
  /// in the other's box, and lights of one colour apart both stay.
  @Test func keepingOnePerLight_mergesOverlappingLightsOfOneColourOnly() {
    func light(_ color: SignalColor, x: Int, _ confidence: Double) -> FoundLight {
      FoundLight(
        box: PixelRegion(x: x, y: 10, width: 20, height: 52),
        lamp: PixelRegion(x: x, y: 10, width: 20, height: 20),
        color: color, confidence: confidence, orientation: .vertical)
    }
    // Boxes sharing five columns, neither centre in the other box.
    let merged = LampFinder.keepingOnePerLight([light(.red, x: 0, 0.7), light(.red, x: 15, 0.9)])
    #expect(merged.map(\.confidence) == [0.9])
    #expect(LampFinder.keepingOnePerLight([light(.red, x: 0, 0.7), light(.green, x: 15, 0.9)]).count == 2)
    #expect(LampFinder.keepingOnePerLight([light(.red, x: 0, 0.7), light(.red, x: 20, 0.9)]).count == 2)
    // A centre inside a more confident light's box drops it, whatever its colour.
    #expect(LampFinder.keepingOnePerLight([light(.red, x: 0, 0.7), light(.green, x: 5, 0.9)]).count == 1)
  }

  @Test func pitch_isTheLampsWidth_whenAHaloLengthensItsPatch() throws {
    // A thin horizontal head against the sky (lamps 10 pixels apart, housing 10 tall) with its
    // green lamp lit at the right end, its patch smeared 8 wide by 14 tall. Measured from the
    // patch's height, the lamp two back would sit off the housing's end, on the sky.
    var frame = RGBImage(width: 200, height: 160, fill: (200, 210, 230))
    paint((25, 25, 25), x: 100..<140, y: 100..<110, in: &frame)
    paint((0, 255, 180), x: 131..<139, y: 98..<112, in: &frame)
    var finder = LampFinder()
    finder.heads = .horizontal
    finder.halvings = 0
    let lights = finder.find(in: frame)
    try #require(lights.count == 1, "\(lights)")
    #expect(lights[0].color == .green)
    let box = lights[0].box
    #expect(box.x <= 120 && box.x + box.width > 120 && box.y <= 105 && box.y + box.height > 105, "\(box)")
  }

  @Test func heads_restrictTheSearch_toLightsRunningThatWay() throws {
    var frame = syntheticFrame()
    paste(syntheticLight(lit: .red), into: &frame, x: 20, y: 20)
    paste(turnedToHorizontal(syntheticLight(lit: .green)), into: &frame, x: 160, y: 140)
    var finder = LampFinder()
    #expect(finder.heads == .auto)
    #expect(Set(finder.find(in: frame).map(\.orientation)) == [.vertical, .horizontal])
    for heads in [Orientation.vertical, .horizontal] {
      finder.heads = heads
      let lights = finder.find(in: frame)
      try #require(lights.count == 1, "\(heads): \(lights)")
      #expect(lights[0].orientation == heads)
      #expect(lights[0].color == (heads == .vertical ? .red : .green))
    }
  }

  @Test func findsEveryLight_ofAFrameWithSeveral() {
    var frame = syntheticFrame()
    paste(syntheticLight(lit: .red), into: &frame, x: 30, y: 40)
    paste(syntheticLight(lit: .green), into: &frame, x: 250, y: 50)
    let colors = Set(LampFinder().find(in: frame).map(\.color))
    #expect(colors == [.red, .green])
  }

  @Test func findsALargeLight_throughTheHalvings() throws {
    // A light four times the size: its lamp is 100 pixels across, past a quarter of nothing,
    // and found whole at every scale; it is kept once.
    var frame = RGBImage(width: 640, height: 480, fill: (150, 180, 220))
    paste(syntheticLight(lit: .red, width: 120, height: 360), into: &frame, x: 260, y: 60)
    let lights = LampFinder().find(in: frame)
    try #require(lights.count == 1, "\(lights)")
    #expect(lights[0].color == .red)
  }

  /// A large frame's search timed stage by stage finds what it finds untimed, and its clock
  /// holds every stage: the header, the reduced decode, the search, the full-size decode
  /// around the light and the second look.
  @Test func searchTimedByStage_findsTheSame_andTimesEveryStage() throws {
    var frame = RGBImage(width: 1920, height: 1080, fill: (150, 180, 220))
    paste(syntheticLight(lit: .green, width: 60, height: 180), into: &frame, x: 700, y: 300)
    let jpeg = try ImageEncoder.jpeg(frame, quality: 95)
    let finder = LampFinder()
    let denominator = finder.searchDenominator(width: 1920, height: 1080)
    try #require(denominator > 1)
    let clock = StageClock()
    let timed = try finder.searched(inImageData: jpeg, name: "f.jpg", decoder: ImageDecoder(), clock: clock)
    let untimed = try finder.searched(inImageData: jpeg, name: "f.jpg", decoder: ImageDecoder())
    #expect(timed.lights == untimed.lights && timed.lights.map(\.color) == [.green])
    let names = clock.stages.map(\.name)
    for stage in [
      "header", "decode at 1/\(denominator) scale", "search: blur", "search: classify", "search: lamp plane",
      "search: evidence", "search: choose", "full-size decode around the lights", "re-read: blur",
      "re-read: choose",
    ] {
      #expect(names.contains(stage), "\(names)")
    }
    #expect(clock.stages.allSatisfy { $0.nanoseconds > 0 })
    #expect(clock.phase == "")
  }

  @Test func findsNothing_withoutALitLampInAHousing() {
    var frame = syntheticFrame()
    // A dark light, a red disc on the sky (no housing: its neighbours are as bright), a grey
    // gradient and a green field.
    paste(syntheticLight(lit: .unknown), into: &frame, x: 20, y: 20)
    for y in 30..<50 {
      for x in 200..<220 where (x - 210) * (x - 210) + (y - 40) * (y - 40) <= 100 {
        frame[x, y] = (240, 20, 20)
      }
    }
    for y in 100..<180 {
      for x in 60..<160 { frame[x, y] = (UInt8(x), UInt8(x), UInt8(x)) }
      for x in 200..<300 { frame[x, y] = (40, 160, 60) }
    }
    #expect(LampFinder().find(in: frame).isEmpty)
  }

  @Test func findsNothing_inPlainImages() {
    for fill: (UInt8, UInt8, UInt8) in [(0, 0, 0), (255, 255, 255), (150, 180, 220), (220, 30, 30)] {
      #expect(LampFinder().find(in: RGBImage(width: 200, height: 150, fill: fill)).isEmpty)
    }
    #expect(LampFinder().find(in: RGBImage(width: 0, height: 0)).isEmpty)
    #expect(LampFinder().find(in: RGBImage(width: 1, height: 1, fill: (255, 0, 0))).isEmpty)
  }

  @Test func lightThatMatters_weighsConfidenceAndSize_andRestrictivenessBreaksTies() {
    func light(_ color: SignalColor, _ confidence: Double, side: Int = 10) -> FoundLight {
      FoundLight(
        box: PixelRegion(x: 0, y: 0, width: side, height: 3 * side),
        lamp: PixelRegion(x: 0, y: 0, width: side, height: side), color: color, confidence: confidence,
        orientation: .vertical)
    }
    let lights = [light(.green, 0.9), light(.red, 0.6), light(.red, 0.7), light(.yellow, 0.95)]
    #expect(LampFinder.lightThatMatters(in: lights) == light(.yellow, 0.95))
    #expect(LampFinder.lightThatMatters(in: lights, minimumConfidence: 0.99) == nil)
    #expect(LampFinder.lightThatMatters(in: []) == nil)
    // A weak false red does not beat a sure green (#51: two UK frames read so).
    #expect(LampFinder.lightThatMatters(in: [light(.red, 0.66), light(.green, 0.79)]) == light(.green, 0.79))
    // Equally sure (within the tie): the most restrictive colour.
    #expect(LampFinder.lightThatMatters(in: [light(.green, 0.8), light(.red, 0.795)]) == light(.red, 0.795))
    // Size: a light of a quarter the area scores 0.05 * ln 4 = 0.07 less.
    #expect(
      LampFinder.lightThatMatters(in: [light(.red, 0.8), light(.green, 0.8, side: 20)])
        == light(.green, 0.8, side: 20))
    #expect(
      LampFinder.lightThatMatters(in: [light(.red, 0.9), light(.green, 0.8, side: 20)]) == light(.red, 0.9))
    // Of one colour, equally sure: the larger.
    #expect(
      LampFinder.lightThatMatters(in: [light(.green, 0.8), light(.green, 0.8, side: 20)])
        == light(.green, 0.8, side: 20))
    // The crop locator's choice: the most restrictive colour whatever the scores.
    #expect(LampFinder.lightThatMatters(in: lights, choice: .mostRestrictive) == light(.red, 0.7))
    // The weights come from the finder's JSON, and are checked.
    var finder = LampFinder()
    finder.choice = LightChoice(sizeWeight: 0, tie: 0.5)
    let decoded = try? JSONDecoder().decode(LampFinder.self, from: JSONEncoder().encode(finder))
    #expect(decoded?.choice == finder.choice)
    finder.choice.tie = 2
    #expect(finder.problem == "choice.tie must be between 0 and 1")
  }

  private func light(_ color: SignalColor, x: Int, confidence: Double) -> FoundLight {
    FoundLight(
      box: PixelRegion(x: x, y: 100, width: 20, height: 60),
      lamp: PixelRegion(x: x + 2, y: 102, width: 16, height: 16),
      color: color, confidence: confidence, orientation: .vertical)
  }

  @Test func lightThatMatters_prefersTheTrackedLight_amongLightsOfTheWinningColour() {
    let left = light(.green, x: 100, confidence: 0.6)
    let right = light(.green, x: 500, confidence: 0.9)
    #expect(LampFinder.lightThatMatters(in: [left, right]) == right)
    #expect(
      LampFinder.lightThatMatters(in: [left, right], near: light(.green, x: 104, confidence: 0.7)) == left)
    // Too far from the tracked one: the most confident.
    #expect(
      LampFinder.lightThatMatters(in: [left, right], near: light(.green, x: 300, confidence: 0.7)) == right)
    // A more confident light of another colour wins over the tracked light.
    let red = light(.red, x: 500, confidence: 0.7)
    #expect(LampFinder.lightThatMatters(in: [left, red], near: left) == red)
  }

  @Test func sequence_followsOneLight_whenAnotherIsSometimesMoreConfident() {
    var sequence = SequenceClassifier(window: 3)
    var chosen: [Int] = []
    for frame in 0..<6 {
      // The left light drifts right a little; the right one is more confident every other frame.
      let left = light(.green, x: 100 + 3 * frame, confidence: 0.8)
      let right = light(.green, x: 500, confidence: frame % 2 == 0 ? 0.7 : 0.9)
      let reading = ImageReading(
        path: "f\(frame).jpg", outcome: .success([RegionReading(found: left), RegionReading(found: right)]))
      for step in sequence.feed(reading) {
        chosen.append(step.light?.box.x ?? -1)
        #expect(step.color == .green)
      }
    }
    #expect(chosen == [100, 103, 106, 109, 112, 115])
  }
}

@Suite struct FoundLightsPictureTests {
  @Test func drawsEachBoxInItsColour_withItsConfidenceAbove() {
    let frame = syntheticFrame([(.green, 140, 60)])
    let light = FoundLight(
      box: PixelRegion(x: 140, y: 60, width: 30, height: 90),
      lamp: PixelRegion(x: 143, y: 123, width: 24, height: 24),
      color: .green, confidence: 0.87, orientation: .vertical)
    let picture = FoundLightsPicture.render(frame, lights: [light])
    #expect(picture.width == frame.width && picture.height == frame.height)
    let line = FoundLightsPicture.thickness(forWidth: 320, height: 240)
    // The box's line, just outside the box, is green on all four sides; a black line outside it.
    for (x, y) in [(139, 100), (170, 100), (150, 59), (150, 150)] {
      #expect(picture[x, y] == (0, 255, 0), "\(x),\(y)")
    }
    #expect(picture[140 - line - 1, 100] == (0, 0, 0))
    // The label sits above the box: green digits on black, within 7 font pixels of it.
    let text = FoundLightsPicture.textScale(forWidth: 320, height: 240)
    let labelRows = (60 - 2 * line - 7 * text)..<(60 - 2 * line)
    var green = 0
    for y in labelRows {
      for x in 130..<200 where picture[x, y] == (0, 255, 0) { green += 1 }
    }
    #expect(green >= 10 * text * text)  // "0.87": many lit font pixels
    // Far from the box, the frame is untouched; an empty list draws nothing.
    #expect(picture[10, 10] == frame[10, 10])
    #expect(FoundLightsPicture.render(frame, lights: []) == frame)
  }
}

@Suite struct LitLampRegionTests {
  @Test func locatesTheLightInsideAPaddedCrop() throws {
    // A 30x90 light with 60 pixels of sky on every side.
    let frame = syntheticFrame([(.green, 140, 60)]).cropped(
      to: PixelRegion(x: 80, y: 0, width: 150, height: 210))
    let region = PixelRegion(x: 0, y: 0, width: frame.width, height: frame.height)
    let located = try #require(LitLampRegion().locate(in: frame, within: region).first)
    #expect(located.orientation == .vertical)
    let (cx, cy) = (located.box.x + located.box.width / 2, located.box.y + located.box.height / 2)
    #expect((60..<90).contains(cx) && (60..<150).contains(cy), "\(located.box)")
    #expect(located.box.width < 60 && located.box.height < 150)
  }

  @Test func keepsTheRegionWhole_whenTheOnlyLampIsFarSmallerThanIt() throws {
    var frame = RGBImage(width: 120, height: 240, fill: (150, 180, 220))
    // A dark 4x12 housing with a 4-pixel green "lamp": a glint, a thirtieth of the region.
    paint((20, 20, 20), x: 50..<54, y: 100..<112, in: &frame)
    paint((0, 255, 150), x: 51..<53, y: 108..<110, in: &frame)
    let region = PixelRegion(x: 0, y: 0, width: 120, height: 240)
    #expect(LitLampRegion().locate(in: frame, within: region) == [LocatedLight(box: region)])
  }

  @Test func aRedLampDecidesWhereToLook_overAGreenOne() throws {
    var frame = syntheticFrame([(.green, 40, 40), (.red, 200, 60)])
    frame = frame.cropped(to: PixelRegion(x: 0, y: 0, width: 320, height: 180))
    let region = PixelRegion(x: 0, y: 0, width: 320, height: 180)
    let located = try #require(LitLampRegion().locate(in: frame, within: region).first)
    #expect(located.box.x >= 190 && located.box.x < 230, "\(located.box)")
  }

  @Test func readsARegionLargerThanACrop_whole() throws {
    let frame = syntheticFrame([(.red, 140, 60)])
    let region = PixelRegion(x: 100, y: 20, width: 120, height: 180)
    #expect(
      LitLampRegion(largestSearched: 120 * 180 - 1).locate(in: frame, within: region) == [
        LocatedLight(box: region)
      ])
    #expect(
      LitLampRegion(largestSearched: 120 * 180).locate(in: frame, within: region) != [
        LocatedLight(box: region)
      ])
  }

  @Test func offsetsTheBox_intoTheImagesPixels() throws {
    let frame = syntheticFrame([(.red, 140, 60)])
    let region = PixelRegion(x: 100, y: 20, width: 110, height: 170)
    let located = try #require(LitLampRegion().locate(in: frame, within: region).first)
    #expect(located.box.x >= 135 && located.box.x + located.box.width <= 175, "\(located.box)")
    #expect(located.box.y >= 50 && located.box.y < 70, "\(located.box)")
  }

  /// A reading says where it read: the light and the lit lamp it was placed from, in the
  /// image's pixels (from a region of interest, or from a decoder's region, moved back into
  /// the image); a profile that reads the region whole names no lamp.
  @Test func reading_carriesTheLampItWasPlacedFrom_inTheImagesPixels() throws {
    let frame = syntheticFrame([(.red, 140, 60)])
    let region = PixelRegion(x: 100, y: 20, width: 110, height: 170)
    let result = FramePipeline(profile: .default).classify(frame, region: region)
    #expect(result.color == .red)
    let light = try #require(result.light)
    let lamp = try #require(light.lamp)
    // The red lamp: the top third of the 30 by 90 light at (140, 60), inside its housing.
    #expect(lamp.x >= 140 && lamp.x + lamp.width <= 170, "\(lamp)")
    #expect(lamp.y >= 60 && lamp.y + lamp.height <= 90, "\(lamp)")
    #expect(light.lampColor == .red)
    #expect(light.box.x <= lamp.x && light.box.y <= lamp.y, "\(light.box)")
    #expect(light.box.x + light.box.width >= lamp.x + lamp.width, "\(light.box)")
    let decoded = DecodedImage(pixels: frame.cropped(to: region), region: region)
    #expect(FramePipeline(profile: .default).classify(decoded).light == light)
    #expect(FramePipeline(profile: .seed).classify(frame, region: region).light == LocatedLight(box: region))
    #expect(FramePipeline(profile: .default).classify(frame, region: region).droppingMap().light == light)
  }

  /// The points may miss a lit red lamp the locator saw (pink, blown out, between the
  /// points): a light placed from one is never read green, whatever the decider says (SPEC
  /// section 6), in the pipeline and in the calibrator's search alike.
  @Test func aLightPlacedFromALitRedLamp_isNeverReadGreen() throws {
    let profile = Profile(name: "green", thresholds: .seed, locator: LitLampRegion(), decider: GreenAlways())
    let region = PixelRegion(x: 100, y: 20, width: 110, height: 170)
    let redLight = syntheticFrame([(.red, 140, 60)])
    for keepingMap in [false, true] {
      let red = FramePipeline(profile: profile).classify(redLight, region: region, keepingMap: keepingMap)
      #expect(red.light?.lampColor == .red)
      #expect(red.color == .unknown && red.decision.decidedBy == LightDecision.litRedLamp)
      let green = FramePipeline(profile: profile).classify(
        syntheticFrame([(.green, 140, 60)]), region: region, keepingMap: keepingMap)
      #expect(green.light?.lampColor == .green && green.color == .green)
    }
    var whole = profile
    whole.locator = WholeRegion()
    #expect(FramePipeline(profile: whole).classify(redLight, region: region).color == .green)

    let folder = try temporaryFolder()
    try FileManager.default.createDirectory(atPath: folder + "/red", withIntermediateDirectories: true)
    try writePNG(redLight.cropped(to: region), to: folder + "/red/light.png")
    let calibrator = Calibrator(start: profile)
    let confusion = calibrator.confusion(
      profile, on: calibrator.prepare(try LabelledSet.load(folder), name: "r"))
    #expect(confusion.count(truth: .red, read: .unknown) == 1 && confusion.redCalledGreen == 0)
  }

  @Test func profileJSON_namesIt_withOrWithoutAFinder() throws {
    var json =
      try JSONSerialization.jsonObject(with: try JSONEncoder().encode(Profile.default)) as! [String: Any]
    json["locator"] = ["kind": "litLamp"]
    let bare = try JSONDecoder().decode(Profile.self, from: try JSONSerialization.data(withJSONObject: json))
    #expect(bare.locator as? LitLampRegion == LitLampRegion())
    var finder = LampFinder()
    finder.unlitRatio = 0.4
    json["locator"] = [
      "kind": "litLamp", "finder": try JSONSerialization.jsonObject(with: try JSONEncoder().encode(finder)),
    ]
    let tuned = try JSONDecoder().decode(Profile.self, from: try JSONSerialization.data(withJSONObject: json))
    #expect(tuned.locator as? LitLampRegion == LitLampRegion(finder: finder))
  }

  @Test func orientedProfile_looksOnlyForHeadsRunningThatWay() throws {
    // A horizontal red head with sky around it: found when horizontal heads are looked for.
    let light = turnedToHorizontal(syntheticLight(lit: .red))
    var frame = RGBImage(width: light.width + 80, height: light.height + 100, fill: (150, 180, 220))
    paste(light, into: &frame, x: 40, y: 50)
    let region = PixelRegion(x: 0, y: 0, width: frame.width, height: frame.height)
    for (orientation, found) in [(Orientation.auto, true), (.horizontal, true), (.vertical, false)] {
      let profile = Profile.default.oriented(orientation)
      #expect(profile.grid.orientation == orientation)
      let locator = try #require(profile.locator as? LitLampRegion)
      #expect(locator.finder.heads == orientation)
      let located = try #require(locator.locate(in: frame, within: region).first)
      #expect((located != LocatedLight(box: region)) == found, "\(orientation): \(located)")
    }
    // A profile reading the region whole has no finder: only its grid turns.
    let seed = Profile.seed.oriented(.horizontal)
    #expect(seed.grid.orientation == .horizontal && seed.locator is WholeRegion)
  }

  @Test func defaultProfile_readsThePaddedLightItLocates() throws {
    let frame = syntheticFrame([(.red, 140, 60)]).cropped(
      to: PixelRegion(x: 60, y: 0, width: 190, height: 230))
    let result = FramePipeline(profile: .default).classify(frame)
    #expect(result.color == .red)
    #expect(Profile.default.locator is LitLampRegion)
  }
}

@Suite struct LampFinderValuesTests {
  @Test func aFinderInJSON_takesTheDefaults_forTheKeysItLeavesOut() throws {
    let finder = try JSONDecoder().decode(LampFinder.self, from: Data(#"{"unlitRatio": 0.4}"#.utf8))
    var expected = LampFinder()
    expected.unlitRatio = 0.4
    #expect(finder == expected)
  }

  @Test func heads_inJSON_areAnOrientation_orRefused() throws {
    let finder = try JSONDecoder().decode(LampFinder.self, from: Data(#"{"heads": "vertical"}"#.utf8))
    #expect(finder.heads == .vertical)
    #expect(try JSONDecoder().decode(LampFinder.self, from: Data("{}".utf8)).heads == .auto)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(LampFinder.self, from: Data(#"{"heads": "diagonal"}"#.utf8))
    }
  }

  @Test func minimumConfidence_dropsTheLightsLessSure() throws {
    let frame = syntheticFrame([(.red, 140, 60)])
    var finder = LampFinder()
    let confidence = try #require(finder.find(in: frame).first?.confidence)
    finder.minimumConfidence = confidence + 0.001
    #expect(finder.find(in: frame).isEmpty)
    finder.minimumConfidence = confidence - 0.001
    #expect(finder.find(in: frame).count == 1)
  }

  @Test func defaults_haveNoProblem() {
    #expect(LampFinder().problem == nil)
    #expect(LitLampRegion().problem == nil)
    #expect(Profile.default.problem == nil)
  }

  @Test(arguments: [
    ("lampPitch", 1e308, "finder lampPitch must be between 0.5 and 10"),
    ("halvings", 100, "finder halvings must be between 0 and 8"),
    ("minimumArea", 0, "finder minimumArea must be between 1 and 1000000"),
    ("sigma", -1, "finder sigma must be between 0 and 50"),
    ("unlitRatio", 2, "finder unlitRatio must be between 0 and 1"),
  ])
  func aProfileWithAFinderOutOfRange_isRefused_namingTheValue(key: String, value: Double, reason: String)
    throws
  {
    var json = try JSONSerialization.jsonObject(with: Profile.default.json()) as! [String: Any]
    var finder =
      try JSONSerialization.jsonObject(with: try JSONEncoder().encode(LampFinder())) as! [String: Any]
    finder[key] = value
    json["locator"] = ["kind": "litLamp", "finder": finder]
    let folder = try temporaryFolder()
    try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: folder + "/p.json"))
    #expect {
      _ = try Profile.named(folder + "/p.json")
    } throws: { error in
      "\(error)".contains("locator litLamp: " + reason)
    }
  }
}

/// A decider that reads every light green: what a decider's mistake looks like.
struct GreenAlways: LightDecider {
  static let kind = "greenAlways"
  func decide(_ samples: [SamplePoint], on grid: SampleGrid) -> LightDecision {
    LightDecision(samples: samples, counts: ColorCounts(), color: .green, confidence: 1)
  }
  var problem: String? { nil }
}
