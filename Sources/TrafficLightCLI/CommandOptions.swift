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
  var labelClass = 9
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
  /// A file listing more paths (`-` for standard input).
  var filesFrom: String?
  /// The part of the inputs this run reads.
  var shard = Shard.all
  // `sequence` only.
  var window = 10
  var fps: Double?
  var events = false
  var timeline: String?

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
      case ("--find-lights", _): options.findsLights = true
      case ("--whole-image", _): options.readsWhole = true
      case ("--light-confidence", _): options.lightConfidence = try number(name, try value(), in: 0...1)
      case ("--label-class", _): options.labelClass = try whole(name, try value(), in: 0...Int(Int32.max))
      case ("--jobs", _): options.jobs = try whole(name, try value(), in: 1...1024)
      case ("--output", _), ("-o", _): options.output = try value()
      case ("--mask", _): options.mask = try value()
      case ("--lenient", _): options.lenient = true
      case ("--verbose", _), ("-v", _): options.verbose = true
      case ("--ignore-exif-orientation", _): options.ignoresExifOrientation = true
      case ("--max-pixels", _): options.maxPixels = try size(name, try value())
      case ("--max-file-size", _): options.maxFileBytes = try size(name, try value())
      case ("--max-memory", _): options.maxMemory = try size(name, try value())
      case ("--max-errors", _): options.maxErrors = try whole(name, try value(), in: 1...Int(Int32.max))
      case ("--window", .sequence): options.window = try whole(name, try value(), in: 1...100_000)
      case ("--fps", .sequence):
        // At least a frame in 1000 s: every time stays finite and fits the timeline's integers.
        options.fps = try number(name, try value(), in: 0.001...1_000_000)
      case ("--shard", _):
        let text = try value()
        guard let shard = Shard(text) else {
          throw CommandError("--shard must be K/N with N from 1 and K from 0 to N-1, not '\(text)'")
        }
        options.shard = shard
      case ("--files-from", _): options.filesFrom = try value()
      case ("--events", .sequence): options.events = true
      case ("--timeline", .sequence): options.timeline = try value()
      default: throw CommandError("unknown option '\(name)'")
      }
    }
    if options.help { return options }
    if options.roi != nil && options.labels != nil {
      throw CommandError("--roi and --labels cannot be used together")
    }
    if options.findsLights && (options.roi != nil || options.labels != nil) {
      throw CommandError("--find-lights searches whole images: it cannot be used with --roi or --labels")
    }
    if options.findsLights && options.readsWhole {
      throw CommandError("--find-lights and --whole-image cannot be used together")
    }
    switch command {
    case .classify:
      if options.paths.isEmpty && options.filesFrom == nil { throw CommandError("no PATH given") }
    case .sequence:
      if options.paths.isEmpty && options.filesFrom == nil { throw CommandError("no DIR given") }
      if options.events && options.format != .jsonl {
        throw CommandError("--events needs --format jsonl (in text and csv the changes go to stderr)")
      }
    }
    return options
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

  private static func clean(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
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
