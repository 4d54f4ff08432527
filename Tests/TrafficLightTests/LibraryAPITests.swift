import Foundation
import Testing
import TrafficLightKernels
import TrafficLightTestSupport

@testable import TrafficLight

/// The library as a Swift program uses it: errors that describe themselves, file URLs, and
/// asynchronous streams of readings.
@Suite struct LibraryAPITests {
  static let sample = #filePath.replacingOccurrences(
    of: "/Tests/TrafficLightTests/LibraryAPITests.swift", with: "/SampleFrames/carpark-sequence")

  @Test func errors_describeThemselves_throughLocalizedDescription() {
    let errors: [any Error] = [
      DecodeError.unsupportedFormat(path: "a.gif"), ProfileError.notFound("nope"),
      InputError.decode(.unreadable(path: "x.jpg", reason: "No such file or directory")),
    ]
    for error in errors {
      #expect(error.localizedDescription == "\(error)", "\(error.localizedDescription)")
      #expect(!error.localizedDescription.contains("could not be completed"))
    }
  }

  @Test func fileURLs_readAsTheirPaths() throws {
    let url = URL(fileURLWithPath: Self.sample + "/real_400_2.jpg")
    #expect(try ImageDecoder().decode(fileAt: url).pixels == ImageDecoder().decode(fileAt: url.path).pixels)
    let reader = ImageReader(pipeline: FramePipeline(profile: .default))
    #expect(reader.read(url).frameColor == reader.read(url.path).frameColor)
    #expect(
      InputCollector.collect([URL(fileURLWithPath: Self.sample)]) == InputCollector.collect([Self.sample]))
    let profile = FileManager.default.temporaryDirectory.appendingPathComponent("default-\(UUID()).json")
    try JSONEncoder().encode(Profile.default).write(to: profile)
    defer { try? FileManager.default.removeItem(at: profile) }
    #expect(try Profile.load(from: profile) == Profile.default)
  }

  /// The stream gives the readings in order, as the synchronous reader does, and the steps of
  /// a sequence over it are the synchronous classifier's.
  @Test func asyncReadings_andSteps_equalTheSynchronousOnes() async throws {
    let paths = InputCollector.collect([Self.sample]).compactMap { item -> String? in
      if case .image(let path) = item { path } else { nil }
    }
    #expect(paths.count == 12)
    let reader = ImageReader(pipeline: FramePipeline(profile: .default))
    var synchronous = SequenceClassifier()
    let expected = paths.flatMap { synchronous.feed(reader.read($0)) }
    var steps: [SequenceStep] = []
    for try await step in reader.readings(of: paths, jobs: 2).sequenceSteps() { steps.append(step) }
    #expect(steps == expected)
    // Readings fed by the caller.
    let (stream, feed) = AsyncStream.makeStream(of: ImageReading.self)
    for path in paths { feed.yield(reader.read(path)) }
    feed.finish()
    var fed: [SignalColor] = []
    for try await step in stream.sequenceSteps() { fed.append(step.smoothed) }
    #expect(fed == expected.map(\.smoothed))
    // Offline smoothing: every step comes once the readings end, as `finish` gives them.
    var offline = SequenceClassifier(smoothing: Profile.default.smoothing)
    var offlineExpected = paths.flatMap { offline.feed(reader.read($0)) }
    #expect(offlineExpected.isEmpty)
    offlineExpected = offline.finish().steps
    var offlineSteps: [SequenceStep] = []
    for try await step in reader.readings(of: paths, jobs: 2).sequenceSteps(
      smoothing: Profile.default.smoothing)
    {
      offlineSteps.append(step)
    }
    #expect(offlineSteps == offlineExpected)
    #expect(offlineSteps.map(\.frame) == Array(0..<12))
  }

  /// A consumer that stops early ends the stream: no hang, and no further file is read.
  @Test func asyncReadings_stopWhenTheConsumerDoes() async {
    let paths = Array(repeating: Self.sample + "/real_400_2.jpg", count: 500)
    let reader = ImageReader(pipeline: FramePipeline(profile: .default))
    var taken = 0
    for await _ in reader.readings(of: paths, jobs: 2) {
      taken += 1
      if taken == 3 { break }
    }
    #expect(taken == 3)
  }
}
