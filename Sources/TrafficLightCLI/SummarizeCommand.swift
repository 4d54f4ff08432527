import Foundation
import TrafficLight

/// `summarize`: per-recording counts of the jsonl that `classify` and `sequence` write, so
/// the outputs of shards, concatenated in any order, need no script to read.
enum SummarizeCommand {
  static let usage = "Usage: traffic-light summarize [--format text|jsonl] FILE.jsonl..."

  static let help = """
    Counts the results in jsonl files written by classify and sequence (- for standard
    input), by recording: shards' outputs can be given in any order, or concatenated.

    \(usage)

    For each recording (the "recording" of sequence records; results of classify are
    counted together as "(stills)"): the frames, how many frames' smoothed colour was
    red, yellow, green or unknown (for stills, the colour), the changes of the smoothed
    colour in frame order (not counting the opening one, from unknown to the first colour
    shown), and the inputs that could not be read. Change event records
    are skipped; the changes are counted from the frames.

    Options:
      --format text|jsonl   an aligned table (default), or one JSON object per recording
      -h, --help            show this help

    A file named twice (by any path) is counted once, with a note. Exit status: 0 every
    line read, 1 a file could not be read or a line was not a result record (the rest are
    still counted), 64 bad usage.

    """

  /// One recording's counts.
  struct Tally: Equatable {
    var frames = 0
    var colors: [SignalColor: Int] = [:]
    var errors = 0
    /// Each frame's number and smoothed colour, for the changes.
    var smoothed: [(frame: Int, color: SignalColor)] = []

    /// The changes of the smoothed colour; the recording's opening, from `unknown` to its
    /// first colour, is where it starts, not a change.
    var changes: Int {
      let found = StateChange.changes(in: smoothed.sorted { $0.frame < $1.frame }.map(\.color))
      return found.count - (found.first?.from == .unknown ? 1 : 0)
    }

    static func == (a: Tally, b: Tally) -> Bool {
      a.frames == b.frames && a.colors == b.colors && a.errors == b.errors && a.changes == b.changes
    }
  }

  /// The key the results of `classify` are counted under.
  static let stills = "(stills)"

  static func run(_ arguments: [String], console: inout Console) -> Int32 {
    var format = OutputFormat.text
    var files: [String] = []
    var scanner = ArgumentScanner(arguments)
    do throws(CommandError) {
      while let token = scanner.next() {
        switch token {
        case .operand(let file): files.append(file)
        case .option("-h", _), .option("--help", _):
          console.out(help, terminator: "")
          return 0
        case .option("--format", let inline):
          format = try OutputFormat.parse(try scanner.value(of: "--format", inline: inline))
          if format == .csv { throw CommandError("summarize writes text or jsonl") }
        case .option(let name, _): throw CommandError("unknown option '\(name)'")
        }
      }
      if files.isEmpty { throw CommandError("no FILE given") }
    } catch {
      console.err("Error: \(error.message)")
      console.err(usage)
      return 64
    }
    var tallies: [String: Tally] = [:]
    var failed = false
    // A file named twice (by any path) is counted once.
    var seen = Set<[UInt64]>()
    for file in files {
      var status = stat()
      if file != "-", stat(file, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
        !seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted
      {
        console.err("Note: \(terminalSafe(file)): named twice: counted once")
        continue
      }
      let data =
        file == "-"
        ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
      guard let data else {
        console.err("Error: \(file): cannot read it")
        failed = true
        continue
      }
      for (number, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
      where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
        guard let record = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
          record["path"] is String || record["event"] is String
        else {
          console.err("Error: \(file):\(number + 1): not a result record of classify or sequence")
          failed = true
          continue
        }
        add(record, to: &tallies)
      }
    }
    let names = tallies.keys.sorted { a, b in
      a == stills ? false : (b == stills ? true : NaturalOrder.precedes(a, b))
    }
    let width = max(9, names.map { terminalSafe($0).count }.max() ?? 0)
    if format == .text {
      console.out(
        padded("RECORDING", to: width)
          + "  FRAMES  RED     YELLOW  GREEN   UNKNOWN  CHANGES  ERRORS")
    }
    for name in names {
      let tally = tallies[name]!
      let counts = ([.red, .yellow, .green, .unknown] as [SignalColor]).map { tally.colors[$0, default: 0] }
      let changes = name == stills ? nil : tally.changes
      switch format {
      case .jsonl, .csv:
        var line = JSONLine()
        if name != stills { line.add("recording", name) }
        line.add("frames", tally.frames)
        for (color, count) in zip(["red", "yellow", "green", "unknown"], counts) { line.add(color, count) }
        if let changes { line.add("changes", changes) }
        line.add("errors", tally.errors)
        console.out(line.closed)
      case .text:
        let cells = [tally.frames] + counts
        console.out(
          padded(terminalSafe(name), to: width) + "  "
            + zip(cells, [6, 6, 6, 6, 7]).map { padded(String($0), to: $1) }.joined(separator: "  ") + "  "
            + padded(changes.map(String.init) ?? "-", to: 7) + "  " + String(tally.errors))
      }
    }
    return failed ? 1 : 0
  }

  /// Counts one record: a frame of a recording, or a still. The tally is changed where it
  /// lies, never copied out and back (a copy per record made a recording's count quadratic).
  static func add(_ record: [String: Any], to tallies: inout [String: Tally]) {
    guard record["event"] == nil else { return }
    let name = record["recording"] as? String ?? stills
    tallies[name, default: Tally()].frames += 1
    if record["error"] is String { tallies[name]!.errors += 1 }
    let shown = (record["smoothed"] ?? record["color"]) as? String
    if let color = shown.flatMap(SignalColor.init(rawValue:)) {
      tallies[name]!.colors[color, default: 0] += 1
      if let frame = record["frame"] as? Int, record["smoothed"] != nil {
        tallies[name]!.smoothed.append((frame, color))
      }
    }
  }
}
