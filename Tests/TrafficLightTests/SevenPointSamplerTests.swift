import Testing
import TrafficLightKernels

@testable import TrafficLight

@Suite struct SevenPointSamplerTests {
  @Test(arguments: 8...64)
  func sampler_height8To64_givesSevenDistinctRowsSplittingTheHeight(height: Int) {
    let points = SevenPointSampler().coordinates(width: 10, height: height)
    #expect(points.count == 7)
    #expect(Set(points.map(\.y)).count == 7)
    #expect(points.map(\.y) == (1...7).map { $0 * height / 8 })
    #expect(points.allSatisfy { $0.x == 5 })
  }

  @Test func sampler_multipleOfEight_hasSevenPoints_notTheArticlesSix() {
    // The article's loop `stride(from: step, to: height - step, by: step)` gives 6 rows here.
    #expect(SevenPointSampler().coordinates(width: 4, height: 64).map(\.y) == [8, 16, 24, 32, 40, 48, 56])
  }

  @Test(arguments: 1...7)
  func sampler_tinyHeights_clampRowsAndDoNotCrash(height: Int) {
    let map = ClassMap(width: 1, height: height, classes: Array(repeating: .red, count: height))
    let decision = SevenPointSampler().sample(map)
    #expect(decision.samples.count == 7)
    #expect(decision.samples.allSatisfy { $0.y >= 0 && $0.y < height })
    #expect(decision.color == .red)
  }

  @Test func sampler_emptyCrop_isUnknown() {
    let decision = SevenPointSampler().sample(ClassMap(width: 0, height: 0, classes: []))
    #expect(decision.samples.isEmpty)
    #expect(decision.color == .unknown)
  }

  @Test func sampler_horizontal_samplesTheCentreRow() {
    let points = SevenPointSampler(orientation: .horizontal).coordinates(width: 80, height: 30)
    #expect(points.map(\.x) == [10, 20, 30, 40, 50, 60, 70])
    #expect(points.allSatisfy { $0.y == 15 })
  }

  @Test func sampler_pointCount_isAParameter() {
    #expect(SevenPointSampler(points: 3).coordinates(width: 9, height: 40).map(\.y) == [10, 20, 30])
  }

  @Test func sampler_readsTheLitLamp() {
    // A vertical light: top third red, the rest none.
    let height = 48
    let classes = (0..<height).flatMap { y in Array(repeating: y < 16 ? PixelClass.red : .none, count: 5) }
    let decision = SevenPointSampler().sample(ClassMap(width: 5, height: height, classes: classes))
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
