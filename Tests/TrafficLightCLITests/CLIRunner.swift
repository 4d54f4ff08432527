import Foundation
import Testing
import TrafficLight
import TrafficLightKernels

/// What a run of the built `traffic-light` printed and returned.
struct Run: Equatable {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs the `traffic-light` binary built beside this test bundle, in the package root.
func traffic(_ arguments: String..., in directory: String = CLIPaths.packageRoot.path) throws -> Run {
  try traffic(arguments, in: directory)
}

/// Runs the `traffic-light` binary with `arguments`; a run still going after `timeout`
/// seconds is killed and recorded as an issue (a hang is a failure, not a wait).
func traffic(
  _ arguments: [String], in directory: String = CLIPaths.packageRoot.path, timeout: Double = 120,
  stdin: [UInt8]? = nil, environment: [String: String] = [:]
) throws -> Run {
  let process = Process()
  process.executableURL = CLIPaths.binary
  process.arguments = arguments
  if !environment.isEmpty {
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
  }
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
  if let stdin {
    let inURL = folder.appendingPathComponent("stdin")
    try Data(stdin).write(to: inURL)
    process.standardInput = try FileHandle(forReadingFrom: inURL)
  } else {
    process.standardInput = FileHandle.nullDevice
  }
  try process.run()
  let deadline = Date().addingTimeInterval(timeout)
  while process.isRunning && Date() < deadline { usleep(2000) }
  if process.isRunning {
    process.terminate()
    Issue.record("traffic-light \(arguments.joined(separator: " ")) still ran after \(timeout) s")
  }
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

  /// A recorded output in `Expected/`.
  static func expected(_ name: String) throws -> String {
    try String(contentsOf: expected.appendingPathComponent(name), encoding: .utf8)
  }
}
