// libFuzzer entry point for the command-line parsers, compiled by Fuzz/run.sh with the
// sources of Sources/TrafficLightCLI but its main.swift: the input is split at NUL bytes into
// arguments, and every subcommand's parser must give options or a CommandError, never trap.
// Nothing is run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  for command in [Subcommand.classify, .sequence] {
    _ = try? CommandOptions.parse(arguments, for: command)
  }
  for command in [StudyCommand.evaluate, .calibrate] {
    _ = try? command.parse(arguments)
  }
  return 0
}
