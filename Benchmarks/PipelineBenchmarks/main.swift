// Per-stage timings of the pipeline, for people measuring the kernel.
//
//   swift run -c release PipelineBenchmarks [--json] [--filter TEXT] [--seconds S] [--profile NAME]
//                                           [--kernel-level LEVEL]
//   swift run -c release PipelineBenchmarks --write-frames DIR
//   swift run -c release PipelineBenchmarks --levels
//   swift run -c release PipelineBenchmarks --smoothing FRAMES   (each smoother over one recording)
//
// Stages: decode (libjpeg-turbo), blur (whole frame), classify (every pixel), blur+classify,
// sample (the points of a classified frame), a frame's decision with the whole frame
// blurred, the same through the pipeline's own path (only the sampled pixels or rows
// blurred, whichever is cheaper), and decode plus that decision (what `classify` does per file); a whole
// frame searched for its lights, alone and after its decode; and that decode and search timed
// in turn, sample by sample, with the median of each pair's ratio (`paired_ratio_p50`): on a
// shared machine the moments slowed by others fall on both.
//
// Frames: a synthetic 1920x1080 street scene (sky gradient, noise, a lit traffic light), the
// same scene at 640x480, a 40x90 crop of a light, and the 1920x1080 scene with three lights
// (searched only), each encoded as a JPEG (quality 90) in memory. Each benchmark warms up,
// then runs until it has at least 15 samples and `--seconds` (default 1) have passed, and
// reports percentiles. Results pass through `blackHole`, so the optimiser cannot remove the
// work.
import Foundation
import TrafficLight
import TrafficLightKernels
import TrafficLightStudy

struct Options {
  var json = false
  var filter: String?
  var seconds = 1.0
  var profile = "default"
  var writeFrames: String?
  var smoothingFrames: Int?
  /// `--stages`: each frame's search timed stage by stage.
  var stages = false

  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--json": options.json = true
      case "--filter": options.filter = rest.popFirst()
      case "--seconds": options.seconds = rest.popFirst().flatMap(Double.init) ?? options.seconds
      case "--profile": options.profile = rest.popFirst() ?? options.profile
      case "--kernel-level":
        // Every row runs the level, the pipeline's too: it is what TRAFFIC_LIGHT_KERNELS
        // says, set before any kernel is made.
        let value = rest.popFirst() ?? ""
        if let problem = KernelLevel.chosen(byEnvironment: value).problem {
          FileHandle.standardError.write(Data("Error: --kernel-level: \(problem)\n".utf8))
          exit(64)
        }
        setenv(KernelLevel.environmentVariable, value, 1)
      case "--write-frames": options.writeFrames = rest.popFirst()
      case "--smoothing": options.smoothingFrames = rest.popFirst().flatMap { Int($0) }
      case "--stages": options.stages = true
      case "--list":
        // The rows and the frames, each with what it measures.
        print("rows (each runs on every frame; 1080p-3-lights runs the finder's rows only):")
        for row in rows {
          print("  " + row.name.padding(toLength: 28, withPad: " ", startingAt: 0) + row.what)
        }
        print(
          """
          frames (synthetic, JPEG quality 90; --write-frames DIR saves them):
            1920x1080        a street scene (sky gradient, noise) with one lit red light
            640x480          the same scene, smaller
            40x90            a crop of one lit red light
            1080p-3-lights   the 1920x1080 scene with three lights
          ns/pixel and MP/s are per pixel of the frame, and shown only for rows whose work grows
          with it ('-' for the others).
          """)
        exit(0)
      case "--levels":
        // The kernel levels this CPU runs, one a line, lowest first.
        for level in KernelLevel.supported { print(level.rawValue) }
        exit(0)
      case "-h", "--help":
        print(
          """
          Usage: PipelineBenchmarks [--json] [--filter TEXT] [--seconds S] [--profile NAME]
                                    [--kernel-level LEVEL]   (default: the best this CPU runs)
                 PipelineBenchmarks --list               (what each row and frame is)
                 PipelineBenchmarks --write-frames DIR   (the benchmark's frames as JPEG files)
                 PipelineBenchmarks --levels             (the kernel levels this CPU runs)
                 PipelineBenchmarks --smoothing FRAMES   (each smoother over a recording of FRAMES
                                                          readings: time, and the peak memory it adds)
                 PipelineBenchmarks --stages [--seconds S] [--filter FRAME]
                                                         (each frame's search, stage by stage)
          """)
        exit(0)
      default:
        FileHandle.standardError.write(Data("Error: unknown argument '\(argument)'\n".utf8))
        exit(64)
      }
    }
    return options
  }
}

/// Keeps a value alive in a way the optimiser cannot see through.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

struct Result {
  let name: String
  let frame: String
  let pixels: Int
  /// Nanoseconds, sorted.
  let samples: [UInt64]
  /// For the second of a pair timed in turn: the name of the first, and the median over the
  /// pairs of this sample's time over the first's.
  var ratio: (to: String, median: Double)? = nil

  func percentile(_ p: Double) -> UInt64 {
    samples[min(samples.count - 1, Int((Double(samples.count - 1) * p / 100).rounded()))]
  }
}

func measure(_ name: String, frame: String, pixels: Int, seconds: Double, _ body: () -> Void) -> Result {
  for _ in 0..<3 { body() }  // warm-up: caches, page faults, lazy set-up
  var samples: [UInt64] = []
  let start = now()
  while samples.count < 15 || (Double(now() - start) < seconds * 1e9 && samples.count < 100_000) {
    let t0 = now()
    body()
    samples.append(now() - t0)
  }
  return Result(name: name, frame: frame, pixels: pixels, samples: samples.sorted())
}

/// Two bodies timed in turn, sample by sample, so that the moments a shared machine is slowed
/// by others fall on both; the second result carries the median of the pairs' ratios.
func measurePair(
  _ names: (String, String), frame: String, pixels: Int, seconds: Double,
  _ first: () -> Void, _ second: () -> Void
) -> [Result] {
  for _ in 0..<3 {
    first()
    second()
  }
  var a: [UInt64] = []
  var b: [UInt64] = []
  let start = now()
  while a.count < 15 || (Double(now() - start) < seconds * 1e9 && a.count < 100_000) {
    let t0 = now()
    first()
    let t1 = now()
    second()
    a.append(t1 - t0)
    b.append(now() - t1)
  }
  let ratios = zip(b, a).map { Double($0) / Double($1) }.sorted()
  var result = Result(name: names.1, frame: frame, pixels: pixels, samples: b.sorted())
  result.ratio = (names.0, ratios[ratios.count / 2])
  return [Result(name: names.0, frame: frame, pixels: pixels, samples: a.sorted()), result]
}

/// A deterministic street scene: sky gradient, noise, a dark housing with a lit red lamp.
func scene(width: Int, height: Int, lights: Int = 1) -> RGBImage {
  var generator = SeededGenerator(seed: 2026)
  var image = RGBImage(width: width, height: height)
  image.update { bytes in
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 3
        let noise = Int(generator.next() % 24)
        let sky = y < height / 2
        bytes[i] = UInt8(clamping: (sky ? 110 : 80) + noise + x * 20 / width)
        bytes[i + 1] = UInt8(clamping: (sky ? 150 : 85) + noise)
        bytes[i + 2] = UInt8(clamping: (sky ? 210 : 90) + noise - y * 30 / height)
      }
    }
  }
  let light = lightCrop(width: max(12, width / 32), height: max(30, width * 5 / 64))
  // The first light at the middle, a sixth down; more to its left and right, a little lower.
  let places = [(width / 2, height / 6), (width / 5, height / 4), (width * 4 / 5, height / 5)]
  for (left, top) in places.prefix(lights) {
    for y in 0..<light.height where top + y < height {
      for x in 0..<light.width where left + x < width { image[left + x, top + y] = light[x, y] }
    }
  }
  return image
}

/// A crop of a vertical light, red lit, with a little noise.
func lightCrop(width: Int, height: Int) -> RGBImage {
  var generator = SeededGenerator(seed: 7)
  var image = RGBImage(width: width, height: height)
  let radius = min(width, height / 3) * 2 / 5
  for y in 0..<height {
    for x in 0..<width {
      let noise = UInt8(generator.next() % 12)
      let dx = x - width / 2
      let dy = y - height / 6
      image[x, y] =
        dx * dx + dy * dy <= radius * radius ? (250, 40 + noise, 30 + noise) : (25 + noise, 25 + noise, 28)
    }
  }
  return image
}

/// What a row works on: the tools, made for the profile, and one frame in each form the
/// rows start from.
struct Bench {
  let profile: Profile
  let pipeline: FramePipeline
  /// The pipeline blurring the whole frame, not only what it samples.
  let fullPipeline: FramePipeline
  let blur: GaussianBlur
  let classifier: HSVClassifier
  let decoder: ImageDecoder
  let finder: LampFinder
  let image: RGBImage
  let jpeg: [UInt8]
  /// The JPEG, as a file.
  let file: String
  /// A 60x150 region of interest around the light.
  let roi: PixelRegion
  let blurred: RGBImage
  let map: ClassMap
  /// Two buffers of 3 bytes a pixel of the frame, written before timing (so their pages are
  /// mapped): the roofline rows copy one to the other.
  let copySource: UnsafeMutableRawPointer
  let copyTarget: UnsafeMutableRawPointer
  var pixels: Int { image.width * image.height }
}

/// A row of the table: its name, whether its work grows with the frame's pixels (so ns/pixel
/// and MP/s mean something), what it times, and the work, done once. The two paired rows are
/// timed in turn with each other, sample by sample.
struct Row {
  let name: String
  let perPixel: Bool
  let what: String
  var paired = false
  let body: @Sendable (Bench) -> Void
}

let decodeJPEG: @Sendable (Bench) -> Void = { blackHole(try! $0.decoder.decode($0.jpeg).pixels) }
let decodeAndFind: @Sendable (Bench) -> Void = {
  blackHole(try! $0.finder.find(inImageData: $0.jpeg, decoder: $0.decoder))
}

/// A roofline row's work: `bytesPerPixel` bytes a pixel of the frame copied from one of
/// `bench`'s buffers to the other.
func copy(_ bench: Bench, bytesPerPixel: Int) {
  memcpy(bench.copyTarget, bench.copySource, bytesPerPixel * bench.pixels)
  blackHole(bench.copyTarget.load(as: UInt8.self))
}

/// A buffer of `bytes`, every page written (the roofline rows' source and target; never
/// freed: one pair a frame).
func copyBuffer(bytes: Int) -> UnsafeMutableRawPointer {
  let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes), alignment: 64)
  memset(buffer, 0x5A, bytes)
  return buffer
}

let rows: [Row] = [
  Row(
    name: "decode", perPixel: true, what: "libjpeg-turbo decodes the frame's JPEG (in memory) to RGB",
    body: decodeJPEG),
  Row(
    name: "blur", perPixel: true, what: "the profile's Gaussian blur over the whole frame",
    body: { blackHole($0.blur.apply(to: $0.image)) }),
  Row(
    name: "classify", perPixel: true,
    what: "every pixel of the blurred frame classified by hue, saturation and value",
    body: { blackHole($0.classifier.classify($0.blurred)) }),
  Row(
    name: "blur+classify", perPixel: true, what: "the two above, one after the other",
    body: { blackHole($0.classifier.classify($0.blur.apply(to: $0.image))) }),
  // The memory limit: a kernel that reads N bytes and writes M cannot beat a copy that
  // moves as many, (N + M) / 2 bytes read and as many written.
  Row(
    name: "copy, blur's bytes", perPixel: true,
    what: "memcpy of 3 bytes a pixel: what the blur must read (RGB) and write (RGB), its roofline",
    body: { copy($0, bytesPerPixel: 3) }),
  Row(
    name: "copy, classify's bytes", perPixel: true,
    what: "memcpy of 2 bytes a pixel: the classifier reads 3 (RGB) and writes 1 (a class), its roofline",
    body: { copy($0, bytesPerPixel: 2) }),
  Row(
    name: "decide", perPixel: false,
    what: "the decision from the class map's sample points (or, for fitted, the network on the pixels)",
    body: { bench in
      let whole = PixelRegion(x: 0, y: 0, width: bench.image.width, height: bench.image.height)
      let profile = bench.profile
      blackHole(
        profile.decider.readsPixels
          ? profile.decide(pixelsOf: whole, in: bench.image)
          : profile.decide(profile.grid.sample(bench.map), on: profile.grid))
    }),
  Row(
    name: "busyness", perPixel: true,
    what: "the region's busyness (what maximumBusyness asks of a light with no lit lamp)",
    body: { bench in
      blackHole(
        bench.image.busyness(
          in: PixelRegion(x: 0, y: 0, width: bench.image.width, height: bench.image.height)))
    }),
  Row(
    name: "frame, full blur", perPixel: true, what: "the frame read as ONE light's crop, blurring all of it",
    body: { blackHole($0.fullPipeline.classify($0.image)) }),
  Row(
    name: "frame (pipeline path)", perPixel: false,
    what: "the frame read as one light's crop, blurring only the sampled pixels or rows",
    body: { blackHole($0.pipeline.classify($0.image)) }),
  Row(
    name: "decode+frame", perPixel: true,
    what: "decode, then the frame read as one light's crop (what classify does to a crop)",
    body: { blackHole($0.pipeline.classify(try! $0.decoder.decode($0.jpeg))) }),
  Row(
    name: "find lights", perPixel: true,
    what: "the frame searched for its lit lights (classify's frames, --find-lights)",
    body: { blackHole($0.finder.find(in: $0.image)) }),
  Row(
    name: "decode+find lights", perPixel: true,
    what: "decode (reduced for large JPEGs), search, and the full-size re-read of each light",
    body: decodeAndFind),
  Row(
    name: "turn 90 (EXIF 6)", perPixel: true,
    what: "turning the decoded frame as an EXIF orientation of 6 asks",
    body: { blackHole(ExifOrientation.rotated90.display($0.image)) }),
  Row(
    name: "roi 60x150: decode, crop", perPixel: true,
    what: "a 60x150 --roi by decoding the whole file and cropping",
    body: { bench in
      let image = bench.image
      blackHole(
        try! bench.decoder.decode(fileAt: bench.file).pixels.cropped(
          to: bench.roi.clipped(toWidth: image.width, height: image.height)!))
    }),
  Row(
    name: "roi 60x150: region decode", perPixel: false,
    what: "the same --roi decoded alone (libjpeg's cropped decode)",
    body: { blackHole(try! $0.decoder.decode(fileAt: $0.file, region: $0.roi)) }),
  Row(
    name: "decode, paired", perPixel: true, what: "decode, timed in turn with the row below", paired: true,
    body: decodeJPEG),
  Row(
    name: "decode+find lights, paired", perPixel: true,
    what: "decode+find lights, timed in turn with decode: the ratio is the search's cost", paired: true,
    body: decodeAndFind),
]

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))

if let count = options.smoothingFrames {
  benchmarkSmoothing(frames: count, runs: 5)
  exit(0)
}
// A frame `searchedOnly` gets the finder's rows alone. No frame's name holds another's, so
// `--filter` with a frame's name picks that frame.
let frames: [(name: String, image: RGBImage, searchedOnly: Bool)] = [
  ("1920x1080", scene(width: 1920, height: 1080), false),
  ("640x480", scene(width: 640, height: 480), false),
  ("40x90", lightCrop(width: 40, height: 90), false),
  ("1080p-3-lights", scene(width: 1920, height: 1080, lights: 3), true),
]
let jpegs = frames.map { try! ImageEncoder.jpeg($0.image, quality: 90) }

if let folder = options.writeFrames {
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  for (frame, jpeg) in zip(frames, jpegs) {
    try Data(jpeg).write(to: URL(fileURLWithPath: folder + "/frame_\(frame.name).jpg"))
  }
  print("wrote \(frames.count) frames to \(folder)")
  exit(0)
}

let profile = try! Profile.named(options.profile)
let pipeline = FramePipeline(profile: profile)
let blur = GaussianBlur(sigma: profile.sigma)
let classifier = HSVClassifier(thresholds: profile.thresholds)
var fullPipeline = pipeline
fullPipeline.usesFullFrame = true
let decoder = ImageDecoder()
let finder = LampFinder()
if options.stages {
  benchmarkStages(frames: frames, jpegs: jpegs, seconds: options.seconds)
  exit(0)
}
var results: [Result] = []
let scratch = NSTemporaryDirectory() + "/pipeline-benchmarks-\(getpid())"
try! FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }
for (frame, jpeg) in zip(frames, jpegs) {
  let file = scratch + "/\(frame.name).jpg"
  try! Data(jpeg).write(to: URL(fileURLWithPath: file))
  // A 60x150 region of interest around the light (the whole crop for the crop frame).
  let roi = PixelRegion(x: frame.image.width / 2 - 10, y: frame.image.height / 6 - 10, width: 60, height: 150)
  let image = try! decoder.decode(jpeg).pixels
  let blurred = pipeline.blur.apply(to: image)
  let bench = Bench(
    profile: profile, pipeline: pipeline, fullPipeline: fullPipeline, blur: blur, classifier: classifier,
    decoder: decoder, finder: finder, image: image, jpeg: jpeg, file: file, roi: roi, blurred: blurred,
    map: pipeline.classifier.classify(blurred), copySource: copyBuffer(bytes: 3 * image.pixelCount),
    copyTarget: copyBuffer(bytes: 3 * image.pixelCount))
  let pixels = image.pixelCount
  for row in rows where !row.paired && (!frame.searchedOnly || row.name.contains("find lights")) {
    let full = "\(row.name) \(frame.name)"
    if let filter = options.filter, !full.contains(filter) { continue }
    results.append(
      measure(row.name, frame: frame.name, pixels: pixels, seconds: options.seconds) { row.body(bench) })
  }
  // The search against the decode it follows, timed in turn (the finder's speed target).
  let pair = rows.filter(\.paired)
  if options.filter.map({ "\(pair[1].name) \(frame.name)".contains($0) }) ?? true {
    results += measurePair(
      (pair[0].name, pair[1].name), frame: frame.name, pixels: pixels, seconds: options.seconds,
      { pair[0].body(bench) }, { pair[1].body(bench) })
  }
}

/// Whether the row's work grows with the frame's pixels.
func perPixel(_ name: String) -> Bool { rows.first { $0.name == name }?.perPixel ?? true }

if options.json {
  for r in results {
    let p50 = Double(r.percentile(50))
    var line: [String: Any] = [
      "benchmark": r.name, "frame": r.frame, "kernelLevel": KernelLevel.best.rawValue, "pixels": r.pixels,
      "samples": r.samples.count,
      "p0_ns": r.percentile(0), "p25_ns": r.percentile(25), "p50_ns": r.percentile(50),
      "p75_ns": r.percentile(75), "p90_ns": r.percentile(90), "p99_ns": r.percentile(99),
      "p100_ns": r.percentile(100),
    ]
    if perPixel(r.name) {
      line["ns_per_pixel"] = p50 / Double(r.pixels)
      line["megapixels_per_second"] = Double(r.pixels) / p50 * 1000
    }
    if let ratio = r.ratio {
      line["paired_with"] = ratio.to
      line["paired_ratio_p50"] = ratio.median
    }
    let data = try! JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
  }
} else {
  func us(_ ns: UInt64) -> String { String(format: "%.1f", Double(ns) / 1000) }
  print(
    "kernel level \(KernelLevel.best.rawValue) (this CPU runs: \(KernelLevel.supported.map(\.rawValue).joined(separator: ", ")))"
  )
  // The frame column fits the longest frame name.
  let frameWidth = max(5, results.map(\.frame.count).max() ?? 0) + 1
  func right(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(1, width - text.count)) + text
  }
  print(
    "benchmark (profile \(profile.name))".padding(toLength: 28, withPad: " ", startingAt: 0)
      + "frame".padding(toLength: frameWidth, withPad: " ", startingAt: 0)
      + ["p0 (us)", "p50 (us)", "p90 (us)", "p99 (us)", "p100 (us)"].map { right($0, 11) }.joined()
      + right("ns/pixel", 10) + right("MP/s", 8) + right("samples", 9))
  for r in results {
    let p50 = Double(r.percentile(50))
    var line = r.name.padding(toLength: 28, withPad: " ", startingAt: 0)
    line += r.frame.padding(toLength: frameWidth, withPad: " ", startingAt: 0)
    for p in [0.0, 50, 90, 99, 100] {
      let text = us(r.percentile(p))
      line += String(repeating: " ", count: max(1, 11 - text.count)) + text
    }
    let scales = perPixel(r.name)
    let nsPerPixel = scales ? String(format: "%.2f", p50 / Double(r.pixels)) : "-"
    let rate = scales ? String(format: "%.1f", Double(r.pixels) / p50 * 1000) : "-"
    line += String(repeating: " ", count: max(1, 10 - nsPerPixel.count)) + nsPerPixel
    line += String(repeating: " ", count: max(1, 8 - rate.count)) + rate
    line += String(repeating: " ", count: max(1, 9 - String(r.samples.count).count)) + String(r.samples.count)
    if let ratio = r.ratio {
      line += "   " + String(format: "%.2f", ratio.median) + "x \(ratio.to) (median of pairs)"
    }
    print(line)
  }
  print("(PipelineBenchmarks --list says what each row and frame is)")
}

/// The peak resident memory of this process so far, in bytes.
func peakMemory() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage.ru_maxrss * 1024
}

/// Each smoother over one recording of `frames` random readings (runs of states, flicker,
/// weak and failed frames): the median time of `runs` and the peak memory the first run adds.
/// The kinds run in the order online, vote, offline, so each peak is measured over the last.
func benchmarkSmoothing(frames: Int, runs: Int) {
  var generator = SeededGenerator(seed: 47)
  let colors: [SignalColor] = [.red, .yellow, .green, .unknown]
  var readings: [FrameObservation] = []
  readings.reserveCapacity(frames)
  while readings.count < frames {
    let color = colors.randomElement(using: &generator)!
    for _ in 0..<Int.random(in: 1...30, using: &generator) where readings.count < frames {
      let roll = Double.random(in: 0..<1, using: &generator)
      let read =
        roll < 0.05 ? SignalColor.unknown : roll < 0.1 ? colors.randomElement(using: &generator)! : color
      readings.append(
        FrameObservation(
          color: read, confidence: Double.random(in: 0...1, using: &generator), wasRead: roll >= 0.02))
    }
  }
  print("smoothing \(frames) frames (median of \(runs) runs)")
  print("kind      total (ms)   per frame (ns)   peak memory added (MB)")
  for kind in [Smoothing.Kind.online, .vote, .offline] {
    var times: [UInt64] = []
    var added = 0
    for run in 0..<runs {
      let before = peakMemory()
      let start = DispatchTime.now().uptimeNanoseconds
      var smoother = Smoothing(kind: kind).makeSmoother(fps: 10)
      var decided = 0
      for reading in readings { decided += smoother.add(reading).count }
      decided += smoother.finish().count
      times.append(DispatchTime.now().uptimeNanoseconds - start)
      precondition(decided == frames, "every frame decided once")
      if run == 0 { added = peakMemory() - before }
    }
    let median = times.sorted()[times.count / 2]
    print(
      kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
        + String(
          format: "%10.1f   %14.0f   %22.1f", Double(median) / 1e6, Double(median) / Double(frames),
          Double(added) / 1e6))
  }
}

/// Each frame's search (`decode+find lights`) stage by stage: the median over runs of each
/// stage's time in a run, its share of the median run, and the median of the same search
/// untimed, run in turn with it (what the timing itself costs).
func benchmarkStages(
  frames: [(name: String, image: RGBImage, searchedOnly: Bool)], jpegs: [[UInt8]], seconds: Double
) {
  let decoder = ImageDecoder()
  let finder = LampFinder()
  print("kernel level \(KernelLevel.best.rawValue); each frame's search (decode+find lights), stage by stage")
  for (frame, jpeg) in zip(frames, jpegs) {
    if let filter = options.filter, !frame.name.contains(filter) { continue }
    var perStage: [String: [Double]] = [:]
    var order: [String] = []
    var timedRuns: [Double] = []
    var untimedRuns: [Double] = []
    let start = Date()
    while timedRuns.count < 15 || Date().timeIntervalSince(start) < seconds {
      let clock = StageClock()
      let t0 = Date()
      blackHole(try! finder.searched(inImageData: jpeg, name: frame.name, decoder: decoder, clock: clock))
      timedRuns.append(Date().timeIntervalSince(t0) * 1e6)
      for (name, nanoseconds) in clock.stages {
        if perStage[name] == nil { order.append(name) }
        perStage[name, default: []].append(Double(nanoseconds) / 1000)
      }
      let t1 = Date()
      blackHole(try! finder.searched(inImageData: jpeg, name: frame.name, decoder: decoder))
      untimedRuns.append(Date().timeIntervalSince(t1) * 1e6)
    }
    func median(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    let total = median(timedRuns)
    print("\n\(frame.name) (\(timedRuns.count) runs)")
    print("  stage".padding(toLength: 46, withPad: " ", startingAt: 0) + "p50 (us)   share")
    for name in order {
      // A stage absent from a run took no time in it.
      let values = perStage[name]! + Array(repeating: 0, count: timedRuns.count - perStage[name]!.count)
      let p50 = median(values)
      print(
        "  " + name.padding(toLength: 44, withPad: " ", startingAt: 0)
          + String(format: "%8.1f  %5.1f%%", p50, 100 * p50 / total))
    }
    let summed = order.reduce(0) { $0 + median(perStage[$1]!) }
    let rest = max(0, total - summed)
    print(
      "  " + "the rest (between the stages)".padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "%8.1f  %5.1f%%", rest, 100 * rest / total))
    print(
      "  " + "the run, timed".padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "%8.1f", total))
    print(
      "  " + "the run, untimed (in turn)".padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "%8.1f", median(untimedRuns)))
  }
}
