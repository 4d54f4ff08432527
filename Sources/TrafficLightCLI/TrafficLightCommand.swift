import TrafficLightKernels

/// The top level: picks the subcommand.
enum TrafficLightCommand {
  static let usage = "Usage: traffic-light <subcommand> [options] ...   (traffic-light --help)"

  static let help = """
    traffic-light: reads the colour of traffic lights in images.

    Usage: traffic-light <subcommand> [options] ...

    Subcommands:
      classify PATH...    the colour of each still image (files or folders)
      sequence DIR...     the frames of each folder as one sequence, smoothed by a vote
      summarize FILE...   per-recording counts of jsonl results (shards merged)
      evaluate DIR...     a profile measured on labelled images
      calibrate DIR...    a profile fitted to labelled images

    Run 'traffic-light <subcommand> --help' for a subcommand's options.

    Environment:
      TRAFFIC_LIGHT_KERNELS=LEVEL   run the blur and classifier at LEVEL (portable, generic,
                                    sse2, avx2, avx512) instead of the best this CPU runs

    """

  /// Runs the command line `arguments` (without the program name); returns the exit status.
  static func main(_ arguments: [String], console: inout Console) -> Int32 {
    guard let first = arguments.first else {
      console.err("Error: no subcommand given")
      console.err(usage)
      return 64
    }
    let rest = Array(arguments.dropFirst())
    // A forced kernel level the CPU cannot run is refused, not quietly replaced: whoever
    // forces one is measuring it.
    if let problem = KernelLevel.chosen(byEnvironment: KernelLevel.environmentValue).problem {
      console.err("Error: \(problem)")
      return 64
    }
    switch first {
    case "-h", "--help", "help":
      console.out(help, terminator: "")
      return 0
    case "classify", "sequence":
      let command = Subcommand(rawValue: first)!
      do {
        let options = try CommandOptions.parse(rest, for: command)
        if options.help {
          console.out(ImageCommand.help(command), terminator: "")
          return 0
        }
        return try ImageCommand.run(command, options, console: &console)
      } catch {
        console.err("Error: \(error.message)")
        if error.kind == .usage { console.err(ImageCommand.usage(command)) }
        return error.status
      }
    case "summarize":
      return SummarizeCommand.run(rest, console: &console)
    case "evaluate", "calibrate":
      let command = StudyCommand(rawValue: first)!
      do {
        let options = try command.parse(rest)
        if options.help {
          console.out(command.help, terminator: "")
          return 0
        }
        return try command.run(options, console: &console)
      } catch {
        console.err("Error: \(error.message)")
        if error.kind == .usage { console.err(command.usage) }
        return error.status
      }
    default:
      console.err("Error: unknown subcommand '\(first)'")
      console.err(usage)
      return 64
    }
  }
}
