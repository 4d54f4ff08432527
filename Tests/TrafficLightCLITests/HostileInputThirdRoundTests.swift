import Foundation
import Testing
import TrafficLightTestSupport

/// The third round of hostile and careless inputs: each test fails on the tool before its fix.
@Suite struct HostileInputThirdRoundTests {
  /// `"error":null` is no error, and a file named twice is counted once, with a note.
  @Test func summarize_nullErrorIsNoError_andAFileNamedTwiceCountsOnce() throws {
    let folder = try temporaryFolder()
    let file = folder + "/a.jsonl"
    let lines = [
      #"{"path":"r/f_0.png","recording":"r","frame":0,"color":"red","smoothed":"red","error":null}"#,
      #"{"path":"r/f_1.png","recording":"r","frame":1,"color":"green","smoothed":"green"}"#,
    ]
    try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    let run = try traffic("summarize", "--format", "jsonl", file, folder + "/./a.jsonl")
    #expect(run.status == 0)
    #expect(
      run.stdout
        == #"{"recording":"r","frames":2,"red":1,"yellow":0,"green":1,"unknown":0,"changes":2,"errors":0}"#
        + "\n")
    #expect(run.stderr == "Note: \(folder)/./a.jsonl: named twice: counted once\n")
  }
}
