import TrafficLight

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A closed stdout (`traffic-light ... | head`) must end the writes, not the process.
signal(SIGPIPE, SIG_IGN)
Console.holdStandardStreams()
var console = Console()
// The arguments as the bytes they are (a file name need not be UTF-8: `FileSystemPath`).
let arguments = (1..<Int(CommandLine.argc)).map { i in
  let argument = CommandLine.unsafeArgv[i]!
  return FileSystemPath.string(
    fromBytes: UnsafeBufferPointer(
      start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
}
var status = TrafficLightCommand.main(arguments, console: &console)
console.flush()
// A full disk or a closed descriptor on stdout loses results: say so, and fail. (A reader
// that closed the pipe took what it wanted: that is quiet.)
if let problem = console.outputError {
  console.err("Error: \(problem)")
  status = max(status, 1)
}
exit(status)
