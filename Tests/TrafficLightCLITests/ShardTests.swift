import Foundation
import Testing
import TrafficLight
import TrafficLightTestSupport

/// Several machines, one job: shards, several recordings, lists of paths, and the summary
/// of their merged outputs.
@Suite struct ShardTests {
  static let recordings = [
    "SampleFrames/carpark-sequence", "SampleFrames/stills/red", "SampleFrames/stills/green",
    "SampleFrames/stills/yellow",
  ]

  /// The lines of `text`, sorted.
  static func sortedLines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).sorted()
  }

  /// The records of every shard of `count`, each run checked to exit 0.
  static func shards(_ arguments: [String], count: Int) throws -> [String] {
    var lines: [String] = []
    for index in 0..<count {
      let run = try traffic(arguments + ["--shard", "\(index)/\(count)"])
      #expect(run.status == 0, "shard \(index)/\(count): \(run.stderr)")
      lines += sortedLines(run.stdout)
    }
    return lines
  }

  @Test(arguments: [1, 3, 7])
  func classifyShards_togetherReadEveryImageOnce(count: Int) throws {
    let arguments = ["classify", "--format", "jsonl", "--profile", "default", "SampleFrames"]
    let whole = try traffic(arguments)
    #expect(whole.status == 0)
    let merged = try Self.shards(arguments, count: count)
    #expect(merged.sorted() == Self.sortedLines(whole.stdout))
    #expect(Set(merged).count == merged.count)
    #expect(merged.count == 24)
  }

  @Test(arguments: [1, 3, 7])
  func sequenceShards_splitByRecording_andTogetherGiveOneRunsRecords(count: Int) throws {
    let arguments = ["sequence", "--format", "jsonl", "--events", "--profile", "default"] + Self.recordings
    let whole = try traffic(arguments)
    #expect(whole.status == 0)
    let merged = try Self.shards(arguments, count: count)
    #expect(merged.sorted() == Self.sortedLines(whole.stdout))
    #expect(Set(merged).count == merged.count)
    // Each recording's frames are in one shard, numbered from 0 and voted on their own.
    for recording in Self.recordings {
      let frames = merged.filter {
        $0.contains("\"recording\":\"\(recording)\"") && $0.hasPrefix("{\"path\"")
      }
      #expect(frames.count == (recording.hasSuffix("sequence") ? 12 : 4), "\(recording)")
      #expect(frames.contains { $0.contains("\"frame\":0,") })
    }
  }

  @Test func aShardWithNothingInIt_printsNothing_andExitsZero() throws {
    var empty = 0
    for index in 0..<7 {
      let run = try traffic(
        ["sequence", "--format", "jsonl", "--shard", "\(index)/7", "SampleFrames/stills/red"])
      #expect(run.status == 0)
      if run.stdout.isEmpty { empty += 1 }
    }
    #expect(empty == 6)
  }

  @Test func shardAndSeveralRecordings_badUsage() throws {
    for (arguments, said) in [
      (["classify", "--shard", "3/3", "SampleFrames"], "--shard must be K/N"),
      (["classify", "--shard", "1", "SampleFrames"], "--shard must be K/N"),
      (["sequence", "--timeline", "t.svg"] + Self.recordings, "--timeline draws one recording"),
      (
        ["sequence", "SampleFrames/stills/red", "SampleFrames/missing"],
        "SampleFrames/missing: no such file or folder"
      ),
    ] {
      let run = try traffic(arguments)
      #expect(run.status == 64 && run.stderr.hasPrefix("Error: " + said), "\(arguments): \(run.stderr)")
    }
    let missing = try traffic(["classify", "--files-from", "/nonexistent/list.txt"])
    #expect(missing.status == 1)
    #expect(
      missing.stderr == "Error: --files-from: cannot read /nonexistent/list.txt: No such file or directory\n")
  }

  @Test func filesFrom_newlineNulAndStandardInput_readAsOperandsWould() throws {
    let arguments = ["sequence", "--format", "jsonl", "--profile", "default"]
    let whole = try traffic(arguments + Self.recordings)
    let folder = try temporaryFolder()
    let lines = folder + "/recordings.txt"
    try (Self.recordings.joined(separator: "\r\n") + "\r\n\n").write(
      toFile: lines, atomically: true, encoding: .utf8)
    let nul = folder + "/recordings.nul"
    try Data(Self.recordings.joined(separator: "\0").utf8 + [0]).write(to: URL(fileURLWithPath: nul))
    for list in [lines, nul] {
      #expect(try traffic(arguments + ["--files-from", list]) == whole, "\(list)")
    }
    let piped = try traffic(
      arguments + [Self.recordings[0], "--files-from", "-"],
      stdin: Array(Self.recordings.dropFirst().joined(separator: "\n").utf8))
    #expect(piped == whole)
    #expect(PathList.parse(Array("a\nb c\r\n\n".utf8)) == ["a", "b c"])
    #expect(PathList.parse(Array("a\nb\0c\0".utf8)) == ["a\nb", "c"])
  }

  @Test func summarize_countsEachRecording_fromShardsInAnyOrder() throws {
    let arguments = ["sequence", "--format", "jsonl", "--events", "--profile", "default"] + Self.recordings
    let folder = try temporaryFolder()
    let whole = folder + "/whole.jsonl"
    try traffic(arguments).stdout.write(toFile: whole, atomically: true, encoding: .utf8)
    var parts: [String] = []
    for index in (0..<3).reversed() {
      let part = folder + "/part-\(index).jsonl"
      try traffic(arguments + ["--shard", "\(index)/3"]).stdout.write(
        toFile: part, atomically: true, encoding: .utf8)
      parts.append(part)
    }
    let one = try traffic(["summarize", whole])
    #expect(one.status == 0)
    #expect(try traffic(["summarize"] + parts) == one)
    let summary = try traffic(["summarize", "--format", "jsonl", whole]).stdout
    // The car park's labels: the default profile reads it as the sequence test expects.
    let carpark = try #require(summary.split(separator: "\n").first { $0.contains("carpark-sequence") })
    let object = try #require(try JSONSerialization.jsonObject(with: Data(carpark.utf8)) as? [String: Any])
    #expect(object["frames"] as? Int == 12)
    let colours = ["red", "yellow", "green", "unknown"].compactMap { object[$0] as? Int }
    #expect(colours.reduce(0, +) == 12)
    let events = try traffic(arguments).stdout.split(separator: "\n").filter {
      $0.contains("\"event\":\"change\"") && $0.contains("carpark-sequence")
    }
    // The recording's opening (from unknown to its first colour) is an event, not a change.
    let opening = events.first?.contains("\"from\":\"unknown\"") == true ? 1 : 0
    #expect(opening == 1)
    #expect(object["changes"] as? Int == events.count - opening)
    #expect(object["errors"] as? Int == 0)
    // A line that is not a record is named, and the rest still counted.
    let bad = folder + "/bad.jsonl"
    try "not json\n".write(toFile: bad, atomically: true, encoding: .utf8)
    let mixed = try traffic(["summarize", whole, bad])
    #expect(mixed.status == 1)
    #expect(mixed.stderr == "Error: \(bad):1: not a result record of classify or sequence\n")
    #expect(mixed.stdout == one.stdout)
  }

  static let parallel = ["/usr/bin/parallel", "/usr/local/bin/parallel"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// The README's GNU parallel recipe, with `:` (this machine) for the hosts.
  @Test(.enabled(if: parallel != nil, "needs GNU parallel (Debian: parallel)"))
  func gnuParallelRecipe_givesOneRunsRecords() throws {
    let folder = try temporaryFolder()
    let list = folder + "/recordings.txt"
    try Self.recordings.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
    let command =
      "seq 0 7 | \(Self.parallel!) --will-cite -S : -j 2 --halt now,fail=1 "
      + "'cd \(CLIPaths.packageRoot.path) && \(CLIPaths.binary.path) sequence --format jsonl --shard {}/8 "
      + "--files-from \(list)'"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let whole = try traffic(["sequence", "--format", "jsonl"] + Self.recordings)
    #expect(Self.sortedLines(String(decoding: data, as: UTF8.self)) == Self.sortedLines(whole.stdout))
    #expect(!whole.stdout.isEmpty)
  }

  @Test func kubernetesJob_indexReachesTheShard_ofAsManyShardsAsCompletions() throws {
    let job = try String(
      contentsOf: CLIPaths.packageRoot.appendingPathComponent("deploy/kubernetes-job.yaml"), encoding: .utf8)
    #expect(job.contains("completionMode: Indexed"))
    func number(after key: String) -> Int? {
      job.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key) }
        .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
    }
    let completions = try #require(number(after: "completions:"))
    #expect(number(after: "parallelism:") == completions)
    #expect(job.contains("--shard \"$JOB_COMPLETION_INDEX/\(completions)\""))
    #expect(job.contains("/results/part-$JOB_COMPLETION_INDEX.jsonl"))
  }

  /// The Slurm script, run here once per array index: the parts hold one run's records.
  @Test func slurmArray_indexReachesTheShard_andThePartsMakeOneRun() throws {
    let script = CLIPaths.packageRoot.appendingPathComponent("deploy/slurm-array.sh").path
    let text = try String(contentsOfFile: script, encoding: .utf8)
    #expect(text.contains("#SBATCH --array=0-7"))
    #expect(text.contains("--shard \"${SLURM_ARRAY_TASK_ID}/8\""))
    let folder = try temporaryFolder()
    let list = folder + "/recordings.txt"
    try Self.recordings.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
    var merged: [String] = []
    for index in 0..<8 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/bash")
      process.arguments = [script]
      process.currentDirectoryURL = CLIPaths.packageRoot
      process.environment = [
        "SLURM_ARRAY_TASK_ID": String(index), "RECORDINGS": list, "RESULTS": folder + "/results",
        "TRAFFIC_LIGHT": CLIPaths.binary.path, "PATH": "/usr/bin:/bin",
      ]
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "task \(index)")
      merged += Self.sortedLines(
        try String(contentsOfFile: folder + "/results/part-\(index).jsonl", encoding: .utf8))
    }
    let whole = try traffic(["sequence", "--format", "jsonl"] + Self.recordings)
    #expect(merged.sorted() == Self.sortedLines(whole.stdout))
  }
}
