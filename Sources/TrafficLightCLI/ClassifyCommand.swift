import TrafficLight

/// `traffic-light classify [options] PATH...`: one colour per still image.
struct ClassifyCommand {
  static let usage = "Usage: traffic-light classify [--format text|jsonl] [--profile NAME|FILE] PATH..."

  static let help = """
    Reads the colour of the traffic light in each image.

    \(usage)

    A PATH is an image file (JPEG or PNG, recognised by content) or a folder, whose image
    files (.jpg, .jpeg, .png) are read in natural order (frame_2 before frame_10), subfolders
    included. Other files in folders are skipped with a note on stderr.

    Options:
      --format text|jsonl     text: an aligned table (default); jsonl: one JSON object per
                              line with "path", "color" and "counts", or "path" and "error"
      --profile NAME|FILE     seed (the article's thresholds), default (the project's best),
                              or a JSON profile file (default: default)
      -h, --help              show this help

    Exit status: 0 every image read, 1 some image could not be read (the rest are still
    reported), 64 bad usage.

    """

  struct Options: Equatable {
    var format = OutputFormat.text
    var profile = "default"
    var paths: [String] = []
    var help = false
  }

  /// The options in `arguments` (the words after `classify`).
  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var scanner = ArgumentScanner(arguments)
    while let token = scanner.next() {
      switch token {
      case .operand(let path): options.paths.append(path)
      case .option("-h", _), .option("--help", _): options.help = true
      case .option("--format", let inline):
        options.format = try OutputFormat.parse(try scanner.value(of: "--format", inline: inline))
      case .option("--profile", let inline):
        options.profile = try scanner.value(of: "--profile", inline: inline)
      case .option(let name, _): throw UsageError("unknown option '\(name)'")
      }
    }
    if !options.help && options.paths.isEmpty { throw UsageError("no PATH given") }
    return options
  }

  /// Runs the command; returns the exit status.
  static func run(_ options: Options, console: inout Console) throws(UsageError) -> Int32 {
    let profile: Profile
    do {
      profile = try Profile.named(options.profile)
    } catch {
      throw UsageError(error.description)
    }
    let pipeline = FramePipeline(profile: profile)
    let items = InputCollector.collect(options.paths)
    let pathWidth = items.reduce(4) { width, item in
      if case .image(let path) = item { max(width, path.count) } else { width }
    }
    if options.format == .text {
      console.out(
        padded("PATH", to: pathWidth) + "  " + padded("COLOR", to: 7) + "  RED  YELLOW  GREEN")
    }
    var failed = false
    for item in items {
      switch item {
      case .skipped(let path, let reason):
        console.err("Note: skipped \(path): \(reason)")
      case .image(let path):
        do {
          let result = try pipeline.classify(fileAt: path)
          switch options.format {
          case .text:
            let counts = result.counts
            console.out(
              padded(path, to: pathWidth) + "  " + padded(result.color.rawValue, to: 7) + "  "
                + padded(String(counts.red), to: 3) + "  " + padded(String(counts.yellow), to: 6)
                + "  " + String(counts.green))
          case .jsonl:
            var counts = JSONLine()
            counts.add("red", result.counts.red)
            counts.add("yellow", result.counts.yellow)
            counts.add("green", result.counts.green)
            var line = JSONLine()
            line.add("path", path)
            line.add("color", result.color.rawValue)
            line.add("counts", object: counts)
            console.out(line.closed)
          }
        } catch {
          failed = true
          switch options.format {
          case .text:
            console.out(padded(path, to: pathWidth) + "  " + padded("error", to: 7) + "  " + error.reason)
          case .jsonl:
            var line = JSONLine()
            line.add("path", path)
            line.add("error", error.reason)
            console.out(line.closed)
          }
        }
      }
    }
    return failed ? 1 : 0
  }
}
