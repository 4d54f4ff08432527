import Testing
import TrafficLightKernels

@testable import TrafficLight

@Suite struct SampleGridAndCascadeTests {
  @Test(arguments: 8...64)
  func sampler_height8To64_givesSevenDistinctRowsSplittingTheHeight(height: Int) {
    let points = GridAndCascade().coordinates(width: 10, height: height)
    #expect(points.count == 7)
    #expect(Set(points.map(\.y)).count == 7)
    #expect(points.map(\.y) == (1...7).map { $0 * height / 8 })
    #expect(points.allSatisfy { $0.x == 5 })
  }

  @Test func sampler_multipleOfEight_hasSevenPoints_notTheArticlesSix() {
    // The article's loop `stride(from: step, to: height - step, by: step)` gives 6 rows here.
    #expect(GridAndCascade().coordinates(width: 4, height: 64).map(\.y) == [8, 16, 24, 32, 40, 48, 56])
  }

  @Test(arguments: 1...7)
  func sampler_tinyHeights_clampRowsAndDoNotCrash(height: Int) {
    let map = ClassMap(width: 1, height: height, classes: Array(repeating: .red, count: height))
    let decision = GridAndCascade().sample(map)
    #expect(decision.samples.count == 7)
    #expect(decision.samples.allSatisfy { $0.y >= 0 && $0.y < height })
    #expect(decision.color == .red)
  }

  @Test func sampler_emptyCrop_isUnknown() {
    let decision = GridAndCascade().sample(ClassMap(width: 0, height: 0, classes: []))
    #expect(decision.samples.isEmpty)
    #expect(decision.color == .unknown)
  }

  @Test func sampler_horizontal_samplesTheCentreRow() {
    let points = GridAndCascade(orientation: .horizontal).coordinates(width: 80, height: 30)
    #expect(points.map(\.x) == [10, 20, 30, 40, 50, 60, 70])
    #expect(points.allSatisfy { $0.y == 15 })
  }

  @Test func sampler_pointCount_isAParameter() {
    #expect(GridAndCascade(points: 3).coordinates(width: 9, height: 40).map(\.y) == [10, 20, 30])
  }

  @Test func sampler_readsTheLitLamp() {
    // A vertical light: top third red, the rest none.
    let height = 48
    let classes = (0..<height).flatMap { y in Array(repeating: y < 16 ? PixelClass.red : .none, count: 5) }
    let decision = GridAndCascade().sample(ClassMap(width: 5, height: height, classes: classes))
    #expect(decision.counts == ColorCounts(red: 2))  // rows 6 and 12
    #expect(decision.color == .red)
  }

  @Test func decision_noPoints_isUnknown() {
    #expect(ColorCounts().majority == .unknown)
  }

  @Test func decision_mostPointsWins() {
    #expect(ColorCounts(red: 1, yellow: 0, green: 3).majority == .green)
    #expect(ColorCounts(red: 0, yellow: 2, green: 1).majority == .yellow)
  }

  @Test func decision_ties_goToTheMoreRestrictiveColour() {
    #expect(ColorCounts(red: 2, yellow: 2, green: 2).majority == .red)
    #expect(ColorCounts(red: 3, yellow: 0, green: 3).majority == .red)
    #expect(ColorCounts(red: 0, yellow: 1, green: 1).majority == .yellow)
    #expect(ColorCounts(red: 1, yellow: 2, green: 2).majority == .yellow)
  }
}

@Suite struct FrameVoteTests {
  @Test func vote_emptyWindow_isUnknown() {
    #expect(FrameVote().smoothed == .unknown)
  }

  @Test func vote_onlyUnknownFrames_isUnknown_notTheFirstColour() {
    var vote = FrameVote()
    for _ in 0..<5 { #expect(vote.add(.unknown) == .unknown) }
  }

  @Test func vote_unknownFrames_doNotVote() {
    var vote = FrameVote()
    vote.add(.green)
    for _ in 0..<8 { vote.add(.unknown) }
    #expect(vote.smoothed == .green)
  }

  @Test func vote_majorityWins() {
    var vote = FrameVote()
    for color in [SignalColor.red, .red, .green, .red, .yellow] { vote.add(color) }
    #expect(vote.smoothed == .red)
  }

  @Test func vote_tie_goesToTheTiedColourSeenMostRecently() {
    var vote = FrameVote()
    vote.add(.green)
    vote.add(.red)
    #expect(vote.smoothed == .red)
    vote.add(.green)  // green 2, red 1
    vote.add(.red)  // 2 each: red is the most recent
    #expect(vote.smoothed == .red)
    vote.add(.yellow)  // still 2 each; yellow has 1: red is the most recent tied colour
    #expect(vote.smoothed == .red)
  }

  @Test func vote_windowHoldsTheLastTenFrames() {
    var vote = FrameVote()
    #expect(vote.window == 10)
    for _ in 0..<6 { vote.add(.red) }
    for _ in 0..<5 { vote.add(.green) }  // window: 5 red, 5 green: green is more recent
    #expect(vote.recent.count == 10)
    #expect(vote.smoothed == .green)
    vote.add(.red)  // the oldest red leaves, a red enters: 5 and 5, red most recent
    #expect(vote.smoothed == .red)
  }

  @Test func vote_windowLength_isAParameter() {
    var vote = FrameVote(window: 3)
    for color in [SignalColor.red, .red, .red, .green, .green] { vote.add(color) }
    #expect(vote.recent == [.red, .green, .green])
    #expect(vote.smoothed == .green)
  }

  @Test func vote_streamOfFrames_fedOneAtATime() {
    // A light turning from red to green, with a flicker and two lost frames.
    let frames: [SignalColor] = [
      .red, .red, .unknown, .red, .green, .red, .red, .green, .green, .unknown, .green, .green, .green,
      .green,
      .green,
    ]
    var vote = FrameVote(window: 5)
    let smoothed = frames.map { vote.add($0) }
    #expect(
      smoothed == [
        .red, .red, .red, .red, .red, .red, .red, .red, .green, .green, .green, .green, .green, .green,
        .green,
      ])
  }
}

@Suite struct SamplerRulesTests {
  /// A probe over a column of classes and brightnesses (greys), the same across the crop.
  func probe(_ column: [(PixelClass, UInt8)]) -> (Int, Int) -> (PixelClass, PixelColor) {
    { _, y in (column[y].0, PixelColor(gray: column[y].1)) }
  }

  /// A probe over a column of classes and colours, the same across the crop.
  func probe(_ column: [(PixelClass, PixelColor)]) -> (Int, Int) -> (PixelClass, PixelColor) {
    { _, y in column[y] }
  }

  @Test func columns_sampleLinesSideBySide_includingTheCentre() {
    let sampler = GridAndCascade(points: 3, columns: 3)
    let positions = sampler.positions(width: 40, height: 40)
    #expect(positions.map(\.x) == [10, 20, 30, 10, 20, 30, 10, 20, 30])
    #expect(positions.map(\.y) == [10, 10, 10, 20, 20, 20, 30, 30, 30])
    #expect(positions.filter(\.onCentreLine).map(\.x) == [20, 20, 20])
    #expect(positions.map(\.third) == [0, 0, 0, 1, 1, 1, 2, 2, 2])
    #expect(positions.map(\.row) == [0, 0, 0, 1, 1, 1, 2, 2, 2])
    // Across a horizontal light the rows are columns of points, counted from the left.
    let across = GridAndCascade(points: 3, columns: 2, orientation: .horizontal).positions(
      width: 40, height: 30)
    #expect(across.map(\.x) == [10, 10, 20, 20, 30, 30])
    #expect(across.map(\.row) == [0, 0, 1, 1, 2, 2])
  }

  @Test func positionWeight_favoursTheLampInItsPlace() {
    // Height 8: rows 1...7 sampled; rows 1-2 are the top third, 3-5 the middle, 6-7 the bottom.
    var column = [(PixelClass, UInt8)](repeating: (.none, 100), count: 8)
    column[4] = (.red, 200)  // a stray red point in the middle
    column[6] = (.green, 200)  // green at the bottom, where the green lamp is
    let plain = GridAndCascade().sample(width: 1, height: 8, probe: probe(column))
    #expect(plain.counts == ColorCounts(red: 1, green: 1))
    #expect(plain.color == .red)  // a tie: the more restrictive colour
    let weighted = GridAndCascade(positionWeight: 3).sample(width: 1, height: 8, probe: probe(column))
    #expect(weighted.counts == ColorCounts(red: 1, green: 1))
    #expect(weighted.color == .green)  // 3 votes against 1
    // With green on top (lamps reversed), the bottom is red's place: no bonus for green.
    let reversed = GridAndCascade(positionWeight: 3, lampOrder: [.green, .yellow, .red])
    #expect(reversed.sample(width: 1, height: 8, probe: probe(column)).color == .red)
  }

  @Test func relativeBrightness_dropsDimPoints() {
    var column = [(PixelClass, UInt8)](repeating: (.none, 30), count: 8)
    column[1] = (.red, 40)  // an unlit red lamp: dim
    column[2] = (.red, 40)
    column[6] = (.green, 240)
    let sampler = GridAndCascade(relativeBrightness: 0.5)
    let decision = sampler.sample(width: 1, height: 8, probe: probe(column))
    #expect(decision.counts == ColorCounts(green: 1))
    #expect(decision.color == .green)
    #expect(GridAndCascade().sample(width: 1, height: 8, probe: probe(column)).color == .red)
  }

  @Test func brightnessFallback_readsTheBrightestThird_onlyWhenNoPointHasAColour() {
    // Blown-out lamps: no colour anywhere. Top lamp white (255), the others grey discs.
    let column: [(PixelClass, UInt8)] = [
      (.none, 250), (.none, 255), (.none, 252), (.none, 150), (.none, 240), (.none, 160), (.none, 150),
      (.none, 240),
    ]
    let fallback = BrightnessFallback(margin: 0.1, floor: 0.5)
    let decision = GridAndCascade(brightnessFallback: fallback).sample(
      width: 1, height: 8, probe: probe(column))
    #expect(decision.color == .red)
    #expect(decision.decidedBy == "brightnessFallback")
    #expect(GridAndCascade().sample(width: 1, height: 8, probe: probe(column)).color == .unknown)
    // Too little difference between thirds: unknown.
    let flat = column.map { ($0.0, UInt8(200)) }
    #expect(
      GridAndCascade(brightnessFallback: fallback).sample(width: 1, height: 8, probe: probe(flat)).color
        == .unknown)
    // A coloured point wins over brightness.
    var coloured = column
    coloured[6] = (.green, 150)
    #expect(
      GridAndCascade(brightnessFallback: fallback).sample(width: 1, height: 8, probe: probe(coloured))
        .color == .green)
  }

  @Test func brightnessFallback_readsEachThirdByItsMedian_notItsDarkestPoint() {
    // Nine points on height 10: rows 1-3 top, 4-6 middle, 7-9 bottom. The lit yellow lamp has
    // a dark point (a visor's shadow at row 5); sky past the housing's end brightens row 9.
    var column = [(PixelClass, UInt8)](repeating: (.none, 0), count: 10)
    for (row, value) in [
      (1, 150), (2, 160), (3, 155), (4, 250), (5, 40), (6, 245), (7, 140), (8, 150), (9, 255),
    ] {
      column[row] = (.none, UInt8(value))
    }
    let sampler = GridAndCascade(
      points: 9, brightnessFallback: BrightnessFallback(margin: 0.1, floor: 0.5))
    // Medians: top 155, middle 245, bottom 150. (The darkest points, 150, 40, 140, said red.)
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).color == .yellow)
    // The margin is counted between the medians: 245 against 155 is 0.35 of full scale.
    let strict = { (margin: Double) in
      GridAndCascade(points: 9, brightnessFallback: BrightnessFallback(margin: margin, floor: 0.5))
    }
    #expect(strict(0.36).sample(width: 1, height: 10, probe: probe(column)).color == .unknown)
    #expect(strict(0.35).sample(width: 1, height: 10, probe: probe(column)).color == .yellow)
  }

  /// With `lead` and `disc`, brightness names a lamp only when the lamp stands out: a sky
  /// brightening gently down the crop is read without them, not with them; a pale
  /// housing whose lit middle lamp leads the others' centre lines by 2% of full scale, but
  /// is a bright disc against its third's corners, is read yellow either way, and so are the
  /// same points turned on their side for a horizontal grid.
  @Test(arguments: [Orientation.vertical, .horizontal])
  func brightnessFallback_withLeadAndDisc_namesALampThatStandsOut(orientation: Orientation) {
    // A 9 by 9 grid on a 10 by 10 region: rows and lines at 1 to 9, the centre line at 5;
    // rows 1-3 are the top third, 4-6 the middle, 7-9 the bottom.
    let loose = BrightnessFallback(margin: 0, floor: 0.5)
    let strict = BrightnessFallback(margin: 0, floor: 0.5, lead: 0.05, disc: 0.05)
    let read = { (fallback: BrightnessFallback, value: @escaping (_ along: Int, _ across: Int) -> UInt8) in
      GridAndCascade(points: 9, columns: 9, orientation: orientation, brightnessFallback: fallback)
        .sample(width: 10, height: 10) { x, y in
          let (along, across) = orientation == .vertical ? (y, x) : (x, y)
          return (.none, PixelColor(gray: value(along, across)))
        }
    }
    // Thirds' medians 154, 160 and 166: the bottom leads by 2.4% of full scale.
    let gradient = { (along: Int, _: Int) in UInt8(150 + 2 * along) }
    #expect(read(loose, gradient).color == .green)
    #expect(read(strict, gradient).color == .unknown)
    // Centre-line medians 225, 230, 220; the middle lamp's centre 240, every corner 180.
    let centreLine: [UInt8] = [0, 240, 225, 200, 230, 240, 230, 225, 220, 200]
    let housing = { (along: Int, across: Int) in across == 5 ? centreLine[along] : 180 }
    #expect(read(loose, housing).color == .yellow)
    #expect(read(strict, housing).color == .yellow)
    #expect(read(strict, housing).decidedBy == BrightnessFallback.kind)
    // The same centre line with the rest of each row as bright as it: no disc, no lamp.
    let flat = { (along: Int, _: Int) in centreLine[along] }
    #expect(read(loose, flat).color == .yellow)
    #expect(read(strict, flat).color == .unknown)
  }

  /// With `tint`, brightness names a lamp only when the lit third's light could be a lamp's:
  /// white, or tinted with the hue of the lamp its place names. A blue sky above a dark road
  /// is bright in red's place, but no lamp lights it.
  @Test func brightnessFallback_withTint_namesOnlyALightThatIsWhiteOrOfItsLampsHue() {
    // Nine points on height 10: rows 1-3 are the top third (red's place), 7-9 green's.
    let tint = LampTint(
      white: 0.2, red: HueRange(300, 15), yellow: HueRange(15, 65), green: HueRange(90, 195))
    let plain = BrightnessFallback(margin: 0.1, floor: 0.5)
    var tinted = plain
    tinted.tint = tint
    let dark = PixelColor(gray: 60)
    func read(_ fallback: BrightnessFallback, lit: ClosedRange<Int>, _ light: PixelColor) -> SignalColor {
      var column = [(PixelClass, PixelColor)](repeating: (.none, dark), count: 10)
      for row in lit { column[row] = (.none, light) }
      return GridAndCascade(points: 9, brightnessFallback: fallback)
        .sample(width: 1, height: 10, probe: probe(column)).color
    }
    let sky = PixelColor(r: 150, g: 190, b: 240)  // hue 213, saturation 0.375
    #expect(read(plain, lit: 1...3, sky) == .red)
    #expect(read(tinted, lit: 1...3, sky) == .unknown)
    #expect(read(tinted, lit: 7...9, sky) == .unknown)
    // A white core, a pink one, a cyan one: each its lamp's light.
    #expect(read(tinted, lit: 1...3, PixelColor(gray: 250)) == .red)
    #expect(read(tinted, lit: 7...9, PixelColor(gray: 250)) == .green)
    let pink = PixelColor(r: 250, g: 170, b: 200)  // hue 338, saturation 0.32
    #expect(read(tinted, lit: 1...3, pink) == .red)
    let cyan = PixelColor(r: 180, g: 250, b: 230)  // hue 163, saturation 0.28
    #expect(read(tinted, lit: 7...9, cyan) == .green)
    // Each tinted the other lamp's hue: no lamp of that place lit.
    #expect(read(tinted, lit: 7...9, pink) == .unknown)
    #expect(read(tinted, lit: 1...3, cyan) == .unknown)
    // Faintly blue (saturation 0.16) is white enough.
    #expect(read(tinted, lit: 1...3, PixelColor(r: 210, g: 225, b: 250)) == .red)
    // The tint's own values are checked with the rule's.
    tinted.tint?.white = 1
    #expect(tinted.problem != nil)
    tinted.tint = LampTint(white: 0.2, red: HueRange(300, 400), yellow: tint.yellow, green: tint.green)
    #expect(tinted.problem != nil)
  }

  @Test func brightnessFallback_leadAndDisc_goTogether() {
    #expect(BrightnessFallback(margin: 0, floor: 0.5, lead: 0.05, disc: 0.05).problem == nil)
    #expect(BrightnessFallback(margin: 0, floor: 0.5, lead: 0.05).problem != nil)
    #expect(BrightnessFallback(margin: 0, floor: 0.5, lead: 0.05, disc: 2).problem != nil)
  }

  @Test func faintLamp_readsAWashedOutLampInItsPlace_onlyWhenNoPointVotes() {
    // Nine points on height 10: rows 7-9 are the bottom third, green's place.
    let white = PixelColor(gray: 235)
    let faintCyan = PixelColor(r: 205, g: 230, b: 225)  // hue 168, saturation 0.11
    var column = [(PixelClass, PixelColor)](repeating: (.none, white), count: 10)
    for row in 7...9 { column[row] = (.none, faintCyan) }
    let faint = FaintLamp(
      color: .green, lower: 90, upper: 200, saturationFloor: 0.06, valueFloor: 0.35, points: 3)
    let sampler = GridAndCascade(points: 9, faintLamp: faint)
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).color == .green)
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).decidedBy == "faintLamp")
    #expect(GridAndCascade(points: 9).sample(width: 1, height: 10, probe: probe(column)).color == .unknown)
    // Two faint points are not enough for three.
    column[9] = (.none, white)
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).color == .unknown)
    // Out of place (green's tint on top, where red is) it does not count.
    column[1] = (.none, faintCyan)
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).color == .unknown)
    // Below the saturation floor, outside the hue window, or too dark, neither.
    column[9] = (.none, PixelColor(r: 225, g: 235, b: 232))  // saturation 0.04
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).color == .unknown)
    column[9] = (.none, PixelColor(r: 200, g: 215, b: 235))  // hue 214
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).color == .unknown)
    column[9] = (.none, PixelColor(r: 70, g: 85, b: 80))  // value 0.33
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).color == .unknown)
    column[9] = (.none, faintCyan)
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).color == .green)
    // A point with a colour decides by the vote instead.
    column[2] = (.red, PixelColor(r: 220, g: 40, b: 60))
    #expect(sampler.sample(width: 1, height: 10, probe: probe(column)).color == .red)
  }

  /// With `lead`, a faint tint names a lamp only where it stands out: foliage or sky tinted
  /// alike down the whole crop is no lamp; a tint its own third holds more of than any
  /// other third is.
  @Test func faintLamp_withLead_namesALampOnlyWhereItsTintStandsOut() {
    // Nine points on height 10: rows 1-3 are the top third, 4-6 the middle, 7-9 green's.
    let white = PixelColor(gray: 235)
    let faintCyan = PixelColor(r: 205, g: 230, b: 225)  // hue 168, saturation 0.11
    var faint = FaintLamp(
      color: .green, lower: 90, upper: 200, saturationFloor: 0.06, valueFloor: 0.35, points: 3)
    var column = [(PixelClass, PixelColor)](repeating: (.none, faintCyan), count: 10)
    func read(_ faint: FaintLamp) -> SignalColor {
      GridAndCascade(points: 9, faintLamp: faint).sample(width: 1, height: 10, probe: probe(column)).color
    }
    // Tinted all over, as foliage or sky behind a crop: three faint points in each third.
    #expect(read(faint) == .green)
    faint.lead = 1
    #expect(read(faint) == .unknown)
    // A third's tint gone, the other two's as many as green's: still no lamp.
    for row in 1...3 { column[row] = (.none, white) }
    #expect(read(faint) == .unknown)
    // Green's third the only one tinted: a lamp.
    for row in 4...6 { column[row] = (.none, white) }
    #expect(read(faint) == .green)
    // One faint point in the middle: green's third leads it by two, enough for a lead of 2,
    // not 3.
    column[5] = (.none, faintCyan)
    faint.lead = 2
    #expect(read(faint) == .green)
    faint.lead = 3
    #expect(read(faint) == .unknown)
    faint.lead = -1
    #expect(faint.problem != nil)
  }

  /// With `shade`, faint points darker than the light's centre line elsewhere are no lamp:
  /// foliage under a bright sky has green's faint tint where a lamp would be, but a lit lamp
  /// is not darker than what surrounds it.
  @Test func faintLamp_withShade_namesNoLampDarkerThanTheLightAroundIt() {
    // Nine points on height 10: rows 1-6 are the top and middle thirds, 7-9 green's.
    let sky = PixelColor(gray: 240)
    let foliage = PixelColor(r: 100, g: 140, b: 110)  // hue 135, saturation 0.29, value 0.55
    var column = [(PixelClass, PixelColor)](repeating: (.none, sky), count: 10)
    for row in 7...9 { column[row] = (.none, foliage) }
    var faint = FaintLamp(
      color: .green, lower: 90, upper: 200, saturationFloor: 0.06, valueFloor: 0.35, points: 3)
    func read(_ faint: FaintLamp) -> SignalColor {
      GridAndCascade(points: 9, faintLamp: faint).sample(width: 1, height: 10, probe: probe(column)).color
    }
    #expect(read(faint) == .green)
    // 0.55 against a median of 0.94: darker by more than 0.25, not by more than 0.4.
    faint.shade = 0.25
    #expect(read(faint) == .unknown)
    faint.shade = 0.4
    #expect(read(faint) == .green)
    // A washed-out lamp under a grey housing is brighter than it: a lamp, at any shade.
    faint.shade = 0
    let faintCyan = PixelColor(r: 205, g: 230, b: 225)  // hue 168, saturation 0.11, value 0.9
    for row in 1...6 { column[row] = (.none, PixelColor(gray: 120)) }
    for row in 7...9 { column[row] = (.none, faintCyan) }
    #expect(read(faint) == .green)
    faint.shade = 2
    #expect(faint.problem != nil)
  }

  /// `default`'s faint lamp asks its points to be within a tenth of full scale of the light's
  /// centre line elsewhere: a grey-cyan background below a lit lamp is darker than the lamp
  /// by more, a washed-out green lamp is not.
  @Test func faintLamp_ofDefault_namesNoLampATenthDarkerThanTheLightAroundIt() throws {
    let faint = try #require((Profile.default.decider as? CascadeDecider)?.rule(FaintLamp.self))
    #expect(faint.shade == 0.1)
    // Nine points on height 10: rows 1-6 are the top and middle thirds, 7-9 green's.
    let glow = PixelColor(gray: 240)  // value 0.94
    let greyCyan = PixelColor(r: 180, g: 205, b: 200)  // hue 168, saturation 0.12, value 0.80
    var column = [(PixelClass, PixelColor)](repeating: (.none, glow), count: 10)
    for row in 7...9 { column[row] = (.none, greyCyan) }
    func read(_ faint: FaintLamp) -> SignalColor {
      GridAndCascade(points: 9, faintLamp: faint).sample(width: 1, height: 10, probe: probe(column)).color
    }
    // 0.80 against 0.94: darker by 0.14, more than a tenth, less than a quarter.
    #expect(read(faint) == .unknown)
    var looser = faint
    looser.shade = 0.25
    #expect(read(looser) == .green)
    // The same tint as bright as the light around it is a lamp.
    for row in 1...6 { column[row] = (.none, PixelColor(gray: 200)) }
    #expect(read(faint) == .green)
  }

  @Test func besideLitLamp_turnsOnlyGreenBesideARedLampUnknown() {
    let decision = { (color: SignalColor) in
      LightDecision(samples: [], counts: ColorCounts(), color: color, decidedBy: "faintLamp", confidence: 0.5)
    }
    let vetoed = decision(.green).besideLitLamp(.red)
    #expect(
      vetoed.color == .unknown && vetoed.decidedBy == LightDecision.litRedLamp && vetoed.confidence == 0)
    for lamp in [nil, SignalColor.green, .yellow] {
      #expect(decision(.green).besideLitLamp(lamp) == decision(.green))
    }
    for color in [SignalColor.red, .yellow, .unknown] {
      #expect(decision(color).besideLitLamp(.red) == decision(color))
    }
  }

  @Test func faintLamp_redVeto_keepsItOff_whenRedsPlaceHasARedTint() {
    // Nine points on height 10: rows 1-3 are the top third (red's place), 7-9 green's.
    let white = PixelColor(gray: 235)
    let faintCyan = PixelColor(r: 205, g: 230, b: 225)  // hue 168, saturation 0.11
    let faintPink = PixelColor(r: 235, g: 215, b: 220)  // hue 345, saturation 0.085
    var column = [(PixelClass, PixelColor)](repeating: (.none, white), count: 10)
    for row in 7...9 { column[row] = (.none, faintCyan) }
    var faint = FaintLamp(
      color: .green, lower: 90, upper: 200, saturationFloor: 0.06, valueFloor: 0.35, points: 3,
      redVeto: HueRange(335, 5))
    func read(_ faint: FaintLamp) -> SignalColor {
      GridAndCascade(points: 9, faintLamp: faint).sample(width: 1, height: 10, probe: probe(column)).color
    }
    #expect(read(faint) == .green)
    // One faint red point on top keeps the faint lamp off.
    column[2] = (.none, faintPink)
    #expect(read(faint) == .unknown)
    // Not without the veto, nor below its floor (the faint lamp's, or its own), nor in the
    // middle, nor outside its window.
    var noVeto = faint
    noVeto.redVeto = nil
    #expect(read(noVeto) == .green)
    faint.redVeto = HueRange(335, 5, saturationFloor: 0.1)
    #expect(read(faint) == .green)
    faint.redVeto = HueRange(335, 5)
    faint.saturationFloor = 0.09
    #expect(read(faint) == .green)
    faint.saturationFloor = 0.06
    column[2] = (.none, white)
    column[5] = (.none, faintPink)
    #expect(read(faint) == .green)
    column[5] = (.none, white)
    column[2] = (.none, faintPink)
    faint.redVeto = HueRange(350, 5)
    #expect(read(faint) == .green)
    faint.redVeto = HueRange(335, 5)
    #expect(read(faint) == .unknown)
  }

  /// The US crops' two confusions, on a column of height 8 (rows 1-2 top, 3-5 middle, 6-7
  /// bottom): an amber lamp in the middle, blown out, with a red-orange rim; and a red lamp on
  /// top with an orange halo reaching the middle.
  static let amberRim = PixelColor(r: 200, g: 90, b: 80)  // hue 5, saturation 0.6: votes red
  static let amberCore = PixelColor(r: 250, g: 200, b: 120)  // hue 37, saturation 0.52
  static let redLamp = PixelColor(r: 220, g: 40, b: 60)  // hue 353, saturation 0.82
  static let orangeHalo = PixelColor(r: 230, g: 140, b: 100)  // hue 18, saturation 0.57: votes yellow

  static let split = WarmSplit(hue: 10, lower: 335, upper: 65, saturationFloor: 0.15, valueFloor: 0.35)

  @Test func pixelColor_hueAndSaturation_followTheHexcone() {
    let amberHue: Double = 60 * 80 / 130
    let redHue: Double = 60 * -20 / 180 + 360
    let blueHue: Double = 60 * -10 / 190 + 240
    #expect(Self.amberCore.hue == amberHue)
    #expect(Self.amberCore.saturation == 130.0 / 250)
    #expect(Self.redLamp.hue == redHue)
    #expect(PixelColor(r: 0, g: 200, b: 100).hue == 150)
    #expect(PixelColor(r: 10, g: 20, b: 200).hue == blueHue)
    #expect(PixelColor(gray: 90).hue == 0 && PixelColor(gray: 90).saturation == 0)
    #expect(PixelColor(gray: 0).saturation == 0)
    #expect(PixelColor(r: 1, g: 2, b: 3).value == 3)
  }

  @Test func warmSplit_readsAnAmberLampWithARedRim_asYellow() {
    var column = [(PixelClass, PixelColor)](repeating: (.none, PixelColor(gray: 60)), count: 8)
    column[3] = (.red, Self.amberRim)
    column[4] = (.none, Self.amberCore)  // the core: no class (say yellow's floor is 0.6)
    column[5] = (.red, Self.amberRim)
    // Without the split, two red points win.
    #expect(GridAndCascade().sample(width: 1, height: 8, probe: probe(column)).color == .red)
    // The rim (0.6) is more saturated than the core (0.52): its hue, 5, says red.
    let sampler = GridAndCascade(warmSplit: Self.split)
    #expect(sampler.sample(width: 1, height: 8, probe: probe(column)).color == .red)
    // A more saturated amber point in the lamp decides for yellow; the counts are unchanged.
    column[4] = (.none, PixelColor(r: 250, g: 170, b: 40))  // hue 37, saturation 0.84
    let decision = sampler.sample(width: 1, height: 8, probe: probe(column))
    #expect(decision.color == .yellow)
    #expect(decision.counts == ColorCounts(red: 2))
    #expect(decision.decidedBy == "warmSplit")
  }

  @Test func warmSplit_keepsARedLampWithAnOrangeHalo_red() {
    var column = [(PixelClass, PixelColor)](repeating: (.none, PixelColor(gray: 60)), count: 8)
    column[1] = (.red, Self.redLamp)
    column[3] = (.yellow, Self.orangeHalo)
    column[4] = (.yellow, Self.orangeHalo)
    column[5] = (.yellow, Self.orangeHalo)
    // Three halo points in yellow's place outvote one red point in red's.
    let weighted = GridAndCascade(positionWeight: 2)
    #expect(weighted.sample(width: 1, height: 8, probe: probe(column)).color == .yellow)
    let split = GridAndCascade(positionWeight: 2, warmSplit: Self.split)
    #expect(split.sample(width: 1, height: 8, probe: probe(column)).color == .red)
    #expect(split.sample(width: 1, height: 8, probe: probe(column)).decidedBy == "warmSplit")
    // The boundary is data: at -10 degrees the red lamp (hue -7) reads yellow.
    var lower = Self.split
    lower.hue = -10
    let lowered = GridAndCascade(positionWeight: 2, warmSplit: lower)
    #expect(lowered.sample(width: 1, height: 8, probe: probe(column)).color == .yellow)
  }

  @Test func warmSplit_yieldsWhenPositionSettlesTheVote() {
    // A painted yellow housing: orange points vote red on top, in red's place, and a more
    // saturated yellow point of the paint sits lower. No yellow point is in yellow's place.
    var column = [(PixelClass, PixelColor)](repeating: (.none, PixelColor(gray: 60)), count: 8)
    column[1] = (.red, PixelColor(r: 240, g: 120, b: 90))  // hue 12, saturation 0.63
    column[2] = (.red, PixelColor(r: 240, g: 120, b: 90))
    column[6] = (.none, PixelColor(r: 240, g: 200, b: 40))  // hue 48, saturation 0.83
    let sampler = GridAndCascade(warmSplit: Self.split)
    let decision = sampler.sample(width: 1, height: 8, probe: probe(column))
    #expect(decision.color == .red)
    #expect(decision.decidedBy == "vote")
    // Without the red points in red's place, position says nothing and the split decides.
    column[1] = (.none, PixelColor(gray: 60))
    column[2] = (.none, PixelColor(gray: 60))
    column[3] = (.red, PixelColor(r: 240, g: 120, b: 90))
    #expect(sampler.sample(width: 1, height: 8, probe: probe(column)).color == .yellow)
  }

  @Test func warmSplit_leavesGreenAndUnknownAlone_andNeedsAWarmPoint() {
    var column = [(PixelClass, PixelColor)](repeating: (.none, PixelColor(gray: 60)), count: 8)
    column[6] = (.green, PixelColor(r: 40, g: 220, b: 120))
    column[2] = (.none, Self.redLamp)  // warm, but the vote is green
    let sampler = GridAndCascade(warmSplit: Self.split)
    #expect(sampler.sample(width: 1, height: 8, probe: probe(column)).color == .green)
    column[6] = (.none, PixelColor(gray: 60))
    #expect(sampler.sample(width: 1, height: 8, probe: probe(column)).color == .unknown)
    // A red vote (off red's place, so position does not settle it) with no point warm enough
    // (too pale, too dark, or outside the window) stands.
    column[4] = (.red, PixelColor(r: 200, g: 180, b: 180))  // saturation 0.1
    column[2] = (.none, PixelColor(r: 80, g: 70, b: 20))  // hue 50, value 0.31
    column[3] = (.none, PixelColor(r: 200, g: 100, b: 220))  // hue 290
    #expect(sampler.sample(width: 1, height: 8, probe: probe(column)).color == .red)
    #expect(sampler.sample(width: 1, height: 8, probe: probe(column)).decidedBy == "vote")
    column[2] = (.none, PixelColor(r: 120, g: 105, b: 30))  // hue 50, value 0.47: warm, yellow
    #expect(sampler.sample(width: 1, height: 8, probe: probe(column)).color == .yellow)
    // A split that agrees with the vote leaves the vote as the rule.
    column[4] = (.none, PixelColor(gray: 60))
    column[6] = (.yellow, PixelColor(r: 120, g: 105, b: 30))  // off yellow's place
    #expect(sampler.sample(width: 1, height: 8, probe: probe(column)).color == .yellow)
    #expect(sampler.sample(width: 1, height: 8, probe: probe(column)).decidedBy == "vote")
  }
}

extension SamplerRulesTests {
  /// A red lamp rendered orange (hue 20: the warm split and the thresholds call it yellow).
  static let orangeRed = PixelColor(r: 240, g: 120, b: 40)

  @Test func warmPlace_namesTheLampWhoseThirdHoldsEveryWarmPoint() {
    // Height 8, seven points: rows 0-1 (y 1-2) the top third, 2-4 the middle, 5-6 the bottom.
    var column = [(PixelClass, PixelColor)](repeating: (.none, PixelColor(gray: 60)), count: 8)
    column[1] = (.yellow, Self.orangeRed)
    column[2] = (.yellow, Self.orangeRed)
    let split = GridAndCascade(warmSplit: Self.split)
    #expect(split.sample(width: 1, height: 8, probe: probe(column)).color == .yellow)
    let placed = GridAndCascade(warmSplit: Self.split, warmPlace: WarmPlace())
    let decision = placed.sample(width: 1, height: 8, probe: probe(column))
    #expect(decision.color == .red && decision.decidedBy == "warmPlace")
    #expect(decision.confidence > 0)
    // An amber lamp blown out to a red rim, in the middle: yellow, whatever its hue says.
    column = [(PixelClass, PixelColor)](repeating: (.none, PixelColor(gray: 60)), count: 8)
    column[3] = (.red, Self.amberRim)
    column[4] = (.red, Self.amberRim)
    column[5] = (.red, Self.amberRim)
    #expect(split.sample(width: 1, height: 8, probe: probe(column)).color == .red)
    #expect(placed.sample(width: 1, height: 8, probe: probe(column)).color == .yellow)
    // The lamp order is data: with yellow on top, the top third's warm lamp is yellow.
    column = [(PixelClass, PixelColor)](repeating: (.none, PixelColor(gray: 60)), count: 8)
    column[2] = (.red, Self.redLamp)
    let flipped = GridAndCascade(lampOrder: [.yellow, .red, .green], warmPlace: WarmPlace())
    #expect(flipped.sample(width: 1, height: 8, probe: probe(column)).color == .yellow)
    // One point is the middle third's middle row; the thirds without points are not asked.
    let single = GridAndCascade(points: 1, warmPlace: WarmPlace())
    #expect(single.sample(width: 1, height: 8, probe: { _, _ in (.red, Self.redLamp) }).color == .yellow)
  }

  @Test func warmPlace_leavesTheAnswer_whenTheLampIsNotOneThirdsAlone() {
    let placed = GridAndCascade(warmPlace: WarmPlace())
    func read(_ column: [(PixelClass, PixelColor)]) -> LightDecision {
      placed.sample(width: 1, height: 8, probe: probe(column))
    }
    let dark = [(PixelClass, PixelColor)](repeating: (.none, PixelColor(gray: 60)), count: 8)
    var column = dark
    column[1] = (.yellow, Self.orangeRed)
    column[2] = (.yellow, Self.orangeRed)
    #expect(read(column).color == .red)
    // Warm points in two thirds (the lower ones dimmer, or as bright): the answer stands.
    column[4] = (.yellow, PixelColor(r: 180, g: 90, b: 30))
    #expect(read(column).color == .yellow && read(column).decidedBy == "vote")
    column[4] = (.yellow, Self.orangeRed)
    #expect(read(column).color == .yellow && read(column).decidedBy == "vote")
    // A point brighter than every warm one in another third (a red lamp's blown-out core on
    // top, its rim spread by the blur into the middle third): the answer stands.
    column = dark
    column[2] = (.none, PixelColor(gray: 250))
    column[3] = (.red, Self.redLamp)
    column[4] = (.red, Self.redLamp)
    #expect(read(column).color == .red && read(column).decidedBy == "vote")
    // ... but a brighter point in the lamp's own third (sky above it) does not stand in the way.
    column = dark
    column[1] = (.none, PixelColor(gray: 250))
    column[2] = (.yellow, Self.orangeRed)
    #expect(read(column).color == .red)
    // Warm points off their third's middle row (a halo reaching over from the lamp above).
    column = dark
    column[3] = (.red, Self.redLamp)
    #expect(read(column).color == .red && read(column).decidedBy == "vote")
    // A warm lamp in green's place is no warm lamp's: the answer stands.
    column = dark
    column[7] = (.yellow, Self.orangeRed)
    #expect(read(column).color == .yellow)
    // A horizontal head read as a vertical one: its red lamp, in the middle band of the
    // region, is not yellow's.
    let wide = GridAndCascade(points: 9, columns: 9, warmPlace: WarmPlace())
    let redAtRight: (Int, Int) -> (PixelClass, PixelColor) = { x, y in
      (x - 75) * (x - 75) + (y - 20) * (y - 20) <= 36 ? (.red, Self.redLamp) : (.none, PixelColor(gray: 30))
    }
    #expect(wide.sample(width: 90, height: 40, probe: redAtRight).color == .red)
    // ... while the same lamp in a tall region's middle third is yellow's.
    let amberInTheMiddle: (Int, Int) -> (PixelClass, PixelColor) = { x, y in
      (x - 20) * (x - 20) + (y - 45) * (y - 45) <= 36 ? (.red, Self.redLamp) : (.none, PixelColor(gray: 30))
    }
    #expect(wide.sample(width: 40, height: 90, probe: amberInTheMiddle).color == .yellow)
    // Green and unknown are left alone.
    column = dark
    column[6] = (.green, PixelColor(r: 40, g: 220, b: 120))
    column[1] = (.none, Self.redLamp)
    #expect(read(column).color == .green)
    #expect(read(dark).color == .unknown)
  }
}

/// A grid and a cascade built from one argument list, as a profile holds them: the
/// decision tests' subject.
struct GridAndCascade {
  let grid: SampleGrid
  let cascade: CascadeDecider

  init(
    points: Int = 7, columns: Int = 1, orientation: Orientation = .vertical, positionWeight: Double = 1,
    lampOrder: [SignalColor] = [.red, .yellow, .green], relativeBrightness: Double = 0,
    brightnessFallback: BrightnessFallback? = nil, warmSplit: WarmSplit? = nil, warmPlace: WarmPlace? = nil,
    faintLamp: FaintLamp? = nil
  ) {
    grid = SampleGrid(points: points, columns: columns, orientation: orientation)
    let rules: [(any CascadeRule)?] = [warmSplit, warmPlace, faintLamp, brightnessFallback]
    cascade = CascadeDecider(
      lampOrder: lampOrder, positionWeight: positionWeight, relativeBrightness: relativeBrightness,
      rules: rules.compactMap { $0 })
  }

  func coordinates(width: Int, height: Int) -> [(x: Int, y: Int)] {
    grid.coordinates(width: width, height: height)
  }
  func positions(width: Int, height: Int) -> [SampleGrid.Position] {
    grid.positions(width: width, height: height)
  }

  func sample(_ map: ClassMap) -> LightDecision { cascade.decide(grid.sample(map), on: grid) }

  func sample(width: Int, height: Int, probe: (_ x: Int, _ y: Int) -> (PixelClass, PixelColor))
    -> LightDecision
  {
    cascade.decide(grid.sample(width: width, height: height, probe: probe), on: grid)
  }
}
