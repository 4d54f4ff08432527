import Foundation
import Testing
import TrafficLight

/// What a run of the built `traffic-light` printed and returned.
struct Run: Equatable {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs the `traffic-light` binary built beside this test bundle, in the package root.
func traffic(_ arguments: String..., in directory: String = CLIPaths.packageRoot.path) throws -> Run {
  let process = Process()
  process.executableURL = CLIPaths.binary
  process.arguments = arguments
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  // Files, not pipes: the child can never stall on a full pipe, and no reader threads.
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let outURL = folder.appendingPathComponent("stdout")
  let errURL = folder.appendingPathComponent("stderr")
  _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
  _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
  let out = try FileHandle(forWritingTo: outURL)
  let err = try FileHandle(forWritingTo: errURL)
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  try out.close()
  try err.close()
  return Run(
    status: process.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8),
    stderr: try String(contentsOf: errURL, encoding: .utf8))
}

enum CLIPaths {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let expected = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Expected")

  /// The test bundle runs from the build products folder, where the executable also lives.
  static let binary: URL = {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var folder = executable.deletingLastPathComponent()
    while !folder.path.hasSuffix(".build") && folder.path != "/" {
      let candidate = folder.appendingPathComponent("traffic-light")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/traffic-light")
  }()

  static func expected(_ name: String) throws -> String {
    try String(contentsOf: expected.appendingPathComponent(name), encoding: .utf8)
  }
}

@Suite struct ClassifyCommandTests {
  @Test func classify_sampleFrames_jsonl_matchesTheRecordedRun() throws {
    let run = try traffic("classify", "--profile", "seed", "--format", "jsonl", "SampleFrames")
    #expect(
      run
        == Run(
          status: 0, stdout: try CLIPaths.expected("sampleframes-seed.jsonl"),
          stderr: try CLIPaths.expected("sampleframes.stderr")))
  }

  @Test func classify_sampleFrames_text_isAnAlignedTable() throws {
    let run = try traffic("classify", "--profile=seed", "SampleFrames")
    #expect(run.status == 0)
    #expect(run.stdout == (try CLIPaths.expected("sampleframes-seed.txt")))
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 25)
    #expect(lines[0].hasPrefix("PATH "))
    let colorColumn = lines[0].range(of: "COLOR")!.lowerBound.utf16Offset(in: lines[0])
    for line in lines.dropFirst() {
      let word = line.dropFirst(colorColumn).prefix { $0 != " " }
      #expect(["red", "yellow", "green", "unknown"].contains(word), "\(line)")
    }
  }

  @Test func classify_jsonl_linesAreJSONObjectsWithPathColorAndCounts() throws {
    let run = try traffic("classify", "--format", "jsonl", "SampleFrames/stills")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 12)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["path"] is String)
      #expect(["red", "yellow", "green", "unknown"].contains(object?["color"] as? String ?? ""))
      #expect((object?["counts"] as? [String: Int])?.keys.sorted() == ["green", "red", "yellow"])
    }
  }

  @Test func classify_badFilesAmongGoodOnes_reportsEveryOne_andExitsOne() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let still = CLIPaths.packageRoot.appendingPathComponent("SampleFrames/stills/green").path
    let good = try FileManager.default.contentsOfDirectory(atPath: still).sorted()
    try FileManager.default.copyItem(atPath: still + "/" + good[0], toPath: folder + "/frame_1.jpg")
    try FileManager.default.copyItem(atPath: still + "/" + good[1], toPath: folder + "/frame_10.jpg")
    try Data("not an image".utf8).write(to: URL(fileURLWithPath: folder + "/frame_2.jpg"))
    try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
    let run = try traffic("classify", "--profile", "seed", "--format", "jsonl", folder)
    #expect(run.status == 1)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("{\"path\":\"\(folder)/frame_1.jpg\",\"color\":"))
    #expect(lines[1] == "{\"path\":\"\(folder)/frame_2.jpg\",\"error\":\"not a JPEG or PNG file\"}")
    #expect(lines[2].hasPrefix("{\"path\":\"\(folder)/frame_10.jpg\",\"color\":"))
    #expect(run.stderr == "Note: skipped \(folder)/notes.txt: not named like an image (.jpg, .jpeg, .png)\n")
  }

  @Test func classify_missingFile_isAnErrorRowInText() throws {
    let run = try traffic("classify", "--profile", "seed", "/nonexistent/x.jpg")
    #expect(run.status == 1)
    #expect(
      run.stdout == """
        PATH                COLOR    RED  YELLOW  GREEN
        /nonexistent/x.jpg  error    No such file or directory

        """)
  }

  @Test func help_goesToStdout_withExitZero() throws {
    let top = try traffic("--help")
    #expect(top.status == 0 && top.stderr.isEmpty && top.stdout.contains("classify PATH..."))
    let classify = try traffic("classify", "--help")
    #expect(classify.status == 0 && classify.stderr.isEmpty)
    #expect(classify.stdout.contains("Usage: traffic-light classify"))
    #expect(classify.stdout.contains("--profile NAME|FILE"))
  }

  @Test func badUsage_isAnErrorAndAUsageLine_withExit64() throws {
    let usage = "Usage: traffic-light classify [--format text|jsonl] [--profile NAME|FILE] PATH...\n"
    #expect(
      try traffic("classify", "--bogus", "SampleFrames")
        == Run(status: 64, stdout: "", stderr: "Error: unknown option '--bogus'\n" + usage))
    #expect(try traffic("classify") == Run(status: 64, stdout: "", stderr: "Error: no PATH given\n" + usage))
    #expect(
      try traffic("classify", "--format", "xml", "SampleFrames")
        == Run(status: 64, stdout: "", stderr: "Error: unknown format 'xml' (choose text, jsonl)\n" + usage))
    #expect(try traffic("classify", "--format").stderr == "Error: --format needs a value\n" + usage)
    let profile = try traffic("classify", "--profile", "nope", "SampleFrames")
    #expect(profile.status == 64)
    #expect(profile.stderr.hasPrefix("Error: no profile named 'nope'"))
    #expect(try traffic("frobnicate").status == 64)
    #expect(try traffic().status == 64)
  }
}
