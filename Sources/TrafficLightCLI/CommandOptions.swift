import TrafficLight
import TrafficLightKernels

/// The subcommands that read images.
enum Subcommand: String {
  case classify
  case sequence
}

/// Everything a `classify` or `sequence` command line says, parsed. Parsing is a pure
/// function of the argument list.
struct CommandOptions: Equatable {
  var format = OutputFormat.text
  var profile = "default"
  var sigma: Double?
  var points: Int?
  var orientation: Orientation?
  var roi: PixelRegion?
  var labels: String?
  /// `--boxes`: a detector's output file (CSV or COCO results JSON).
  var boxes: String?
  /// `--label-class`; nil for the format's traffic light (9 in YOLO files, 10 in COCO JSON).
  var labelClass: Int?
  /// `--min-box-score`: boxes scoring less are left out.
  var minBoxScore: Double?
  /// Search each image for its lights (`LampFinder`) instead of reading it as one light.
  var findsLights = false
  /// Read each image as one light, even a large one (by default those are searched).
  var readsWhole = false
  /// The least confidence of a light found in a frame; `nil` keeps the profile finder's.
  var lightConfidence: Double?
  /// Worker threads; `nil` means one per core.
  var jobs: Int?
  var output: String?
  var mask: String?
  /// `--mask-format`: the masks' file type, `png` (lossless) or `jpeg` (smaller, faster).
  var maskFormat = MaskFormat.png
  /// `--mask-changes`: in a sequence, masks only for the frames the smoothed colour changed on.
  var maskChanges = false
  var lenient = false
  /// Name every file skipped in a folder, not only count them.
  var verbose = false
  var ignoresExifOrientation = false
  var maxPixels = 100_000_000
  var maxFileBytes = 256 << 20
  /// The memory the images read at once share; `nil` for `MemoryBudget.defaultBytes`.
  var maxMemory: Int?
  /// Stop after this many inputs failed; `nil` for never.
  var maxErrors: Int?
  var help = false
  var paths: [String] = []
  /// Files listing more paths (`-` for standard input), each read in turn.
  var filesFrom: [String] = []
  /// The part of the inputs this run reads.
  var shard = Shard.all
  // `sequence` only.
  /// `--smoothing`: the kind of smoothing, over the profile's.
  var smoothing: Smoothing.Kind?
  /// `--window`: the vote's window, in frames or seconds.
  var window: FrameSpan?
  /// `--delay`: the online smoother's delay, in frames or seconds.
  var delay: FrameSpan?
  var fps: Double?
  var events = false
  var timeline: String?
  /// `--review`: the folder of the review page.
  var review: String?

  /// The options that take no value.
  static let flags: Set<String> = [
    "-h", "--help", "--find-lights", "--whole-image", "--lenient", "--verbose", "-v",
    "--ignore-exif-orientation",
    "--events", "--mask-changes",
  ]

  /// The options in `arguments`, the words after the subcommand.
  static func parse(_ arguments: [String], for command: Subcommand) throws(CommandError) -> CommandOptions {
    var options = CommandOptions()
    var scanner = ArgumentScanner(arguments)
    while let token = scanner.next() {
      guard case .option(let name, let inline) = token else {
        if case .operand(let path) = token { options.paths.append(path) }
        continue
      }
      func value() throws(CommandError) -> String { try scanner.value(of: name, inline: inline) }
      if Self.flags.contains(name) { try ArgumentScanner.refuseValue(of: name, inline: inline) }
      switch (name, command) {
      case ("-h", _), ("--help", _): options.help = true
      case ("--format", _): options.format = try OutputFormat.parse(try value())
      case ("--profile", _): options.profile = try value()
      case ("--sigma", _):
        options.sigma = try number(name, try value(), in: 0...50)
      case ("--points", _):
        options.points = try whole(name, try value(), in: 1...1000)
      case ("--orientation", _): options.orientation = try Orientation.parsed(try value())
      case ("--roi", _): options.roi = try region(try value())
      case ("--labels", _): options.labels = try value()
      case ("--boxes", _): options.boxes = try value()
      case ("--min-box-score", _): options.minBoxScore = try number(name, try value(), in: 0...1)
      case ("--find-lights", _): options.findsLights = true
      case ("--whole-image", _): options.readsWhole = true
      case ("--light-confidence", _): options.lightConfidence = try number(name, try value(), in: 0...1)
      case ("--label-class", _): options.labelClass = try whole(name, try value(), in: 0...Int(Int32.max))
      case ("--jobs", _): options.jobs = try whole(name, try value(), in: 1...1024)
      case ("--output", _), ("-o", _):
        // `-` is standard output, as it is standard input for --files-from.
        let path = try value()
        options.output = path == "-" ? nil : path
      case ("--mask", _): options.mask = try value()
      case ("--mask-format", _):
        let text = try value()
        guard let format = MaskFormat(rawValue: text) else {
          throw CommandError("--mask-format must be png or jpeg, not '\(text)'")
        }
        options.maskFormat = format
      case ("--mask-changes", .sequence): options.maskChanges = true
      case ("--review", _): options.review = try value()
      case ("--lenient", _): options.lenient = true
      case ("--verbose", _), ("-v", _): options.verbose = true
      case ("--ignore-exif-orientation", _): options.ignoresExifOrientation = true
      case ("--max-pixels", _): options.maxPixels = try size(name, try value())
      case ("--max-file-size", _): options.maxFileBytes = try size(name, try value())
      case ("--max-memory", _): options.maxMemory = try size(name, try value())
      case ("--max-errors", _): options.maxErrors = try whole(name, try value(), in: 1...Int(Int32.max))
      case ("--window", .sequence): options.window = try span(name, try value(), least: 1)
      case ("--delay", .sequence): options.delay = try span(name, try value(), least: 0)
      case ("--smoothing", .sequence):
        let text = try value()
        guard let kind = Smoothing.Kind(rawValue: text) else {
          throw CommandError("--smoothing must be vote, offline or online, not '\(text)'")
        }
        options.smoothing = kind
      case ("--fps", .sequence):
        // At least a frame in 1000 s: every time stays finite and fits the timeline's integers.
        options.fps = try number(name, try value(), in: 0.001...1_000_000)
      case ("--shard", _):
        let text = try value()
        guard let shard = Shard(text) else {
          throw CommandError("--shard must be K/N with N from 1 and K from 0 to N-1, not '\(text)'")
        }
        options.shard = shard
      case ("--files-from", _): options.filesFrom.append(try value())
      case ("--events", .sequence): options.events = true
      case ("--timeline", .sequence): options.timeline = try value()
      default: throw CommandError("unknown option '\(name)'")
      }
    }
    if options.help { return options }
    let given = [
      ("--roi", options.roi != nil), ("--labels", options.labels != nil), ("--boxes", options.boxes != nil),
    ]
    .filter(\.1).map(\.0)
    if given.count > 1 {
      throw CommandError(
        "\(given.joined(separator: " and ")) cannot be used together: each says where the lights are")
    }
    if options.findsLights && !given.isEmpty {
      throw CommandError("--find-lights searches whole images: it cannot be used with \(given[0])")
    }
    if options.labels == nil && options.boxes == nil
      && (options.minBoxScore != nil || options.labelClass != nil)
    {
      throw CommandError(
        "--min-box-score and --label-class choose among boxes: they need --labels or --boxes")
    }
    if (options.maskChanges || options.maskFormat != .png) && options.mask == nil {
      throw CommandError("--mask-changes and --mask-format need --mask DIR")
    }
    if options.findsLights && options.readsWhole {
      throw CommandError("--find-lights and --whole-image cannot be used together")
    }
    switch command {
    case .classify:
      if options.paths.isEmpty && options.filesFrom.isEmpty { throw CommandError("no PATH given") }
    case .sequence:
      if options.paths.isEmpty && options.filesFrom.isEmpty { throw CommandError("no DIR given") }
      if options.events && options.format != .jsonl {
        throw CommandError("--events needs --format jsonl (in text and csv the changes go to stderr)")
      }
      for (option, span) in [("--window", options.window), ("--delay", options.delay)] {
        if case .seconds = span, options.fps == nil {
          throw CommandError("\(option) in seconds needs --fps (the frames a second)")
        }
      }
      switch (options.smoothing, options.window, options.delay) {
      case (.offline?, .some, _), (.online?, .some, _):
        throw CommandError("--window is the vote's: it needs --smoothing vote (or no --smoothing)")
      case (.vote?, _, .some), (.offline?, _, .some):
        throw CommandError(
          "--delay is the online smoother's: it needs --smoothing online (or no --smoothing)")
      case (nil, .some, .some):
        throw CommandError("--window (the vote) and --delay (online smoothing) cannot be used together")
      default: break
      }
    }
    return options
  }

  /// The smoothing of a sequence: the profile's, with `--smoothing`, `--window` (which means
  /// the vote) and `--delay` (which means online smoothing) over it; spans in seconds turned
  /// into frames at `--fps`.
  func resolvedSmoothing(over base: Smoothing) -> Smoothing {
    var resolved = base
    if let kind = smoothing ?? (window != nil ? .vote : delay != nil ? .online : nil) { resolved.kind = kind }
    if let window { resolved.window = max(1, window.frames(at: fps)) }
    if let delay { resolved.delay = delay.frames(at: fps) }
    return resolved
  }

  /// The profile named by `--profile`, with `--sigma`, `--points` and `--orientation`
  /// applied over it.
  func resolvedProfile() throws(CommandError) -> Profile {
    var profile: Profile
    do {
      profile = try Profile.named(self.profile)
    } catch {
      throw CommandError(error)
    }
    if let sigma { profile.sigma = sigma }
    if let points { profile.grid.points = points }
    if let orientation { profile = profile.oriented(orientation) }
    return profile
  }

  private static func number(_ option: String, _ text: String, in range: ClosedRange<Double>)
    throws(CommandError) -> Double
  {
    guard let value = Double(text), value.isFinite, range.contains(value) else {
      throw CommandError(
        "\(option) must be a number from \(clean(range.lowerBound)) to \(clean(range.upperBound)), not '\(text)'"
      )
    }
    return value
  }

  private static func whole(_ option: String, _ text: String, in range: ClosedRange<Int>) throws(CommandError)
    -> Int
  {
    guard let value = Int(text), range.contains(value) else {
      throw CommandError(
        "\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return value
  }

  /// A positive count with an optional K, M or G suffix (powers of 1000 for pixels, 1024 for
  /// bytes: `--max-file-size 64M` is 64 MiB, `--max-pixels 20M` is 20 million pixels).
  private static func size(_ option: String, _ text: String) throws(CommandError) -> Int {
    let base = option == "--max-pixels" ? 1000 : 1024
    var digits = Substring(text)
    var scale = 1
    if let last = digits.last, let power = ["K": 1, "M": 2, "G": 3][String(last).uppercased()] {
      scale = (0..<power).reduce(1) { product, _ in product * base }
      digits = digits.dropLast()
    }
    guard let value = Int(digits), value > 0, value <= Int(Int64.max) / scale / 8 else {
      throw CommandError(
        "\(option) must be a positive whole number, optionally with K, M or G, not '\(text)'")
    }
    return value * scale
  }

  private static func region(_ text: String) throws(CommandError) -> PixelRegion {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
    guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3], w > 0,
      h > 0
    else {
      throw CommandError("--roi must be x,y,width,height in pixels with a positive size, not '\(text)'")
    }
    return PixelRegion(x: x, y: y, width: w, height: h)
  }

  /// A span of frames: `N`, or `Ns` seconds (with `--fps`); at least `least` frames, at most
  /// 100000, or as many seconds as 100000 frames at 1000 a second.
  private static func span(_ option: String, _ text: String, least: Int) throws(CommandError) -> FrameSpan {
    if text.hasSuffix("s") {
      guard let seconds = Double(text.dropLast()), seconds.isFinite, seconds >= 0, seconds <= 100_000,
        least == 0 || seconds > 0
      else {
        throw CommandError(
          "\(option) must be a whole number of frames from \(least) to 100000, or seconds such as 0.5s, not '\(text)'"
        )
      }
      return .seconds(seconds)
    }
    guard let frames = Int(text), (least...100_000).contains(frames) else {
      throw CommandError(
        "\(option) must be a whole number of frames from \(least) to 100000, or seconds such as 0.5s, not '\(text)'"
      )
    }
    return .frames(frames)
  }

  private static func clean(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}

/// A span of a sequence, in frames or in seconds.
enum FrameSpan: Equatable {
  case frames(Int)
  case seconds(Double)

  /// The span in frames at `fps` frames a second (seconds need a rate; `parse` makes sure).
  func frames(at fps: Double?) -> Int {
    switch self {
    case .frames(let count): count
    case .seconds(let seconds): min(100_000, Int((seconds * (fps ?? 1)).rounded()))
    }
  }
}

extension Orientation {
  /// The orientation `--orientation` names, or the error saying what it takes.
  static func parsed(_ text: String) throws(CommandError) -> Orientation {
    guard let orientation = Orientation(rawValue: text) else {
      throw CommandError("--orientation must be auto, vertical or horizontal, not '\(text)'")
    }
    return orientation
  }
}

/// The file type masks are written in.
enum MaskFormat: String {
  case png, jpeg

  /// The file name's extension, without the dot.
  var fileExtension: String { self == .png ? "png" : "jpg" }
}
