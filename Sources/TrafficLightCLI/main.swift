#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A closed stdout (`traffic-light ... | head`) must end the writes, not the process.
signal(SIGPIPE, SIG_IGN)
Console.holdStandardStreams()
var console = Console()
var status = TrafficLightCommand.main(Array(CommandLine.arguments.dropFirst()), console: &console)
console.flush()
// A full disk or a closed descriptor on stdout loses results: say so, and fail. (A reader
// that closed the pipe took what it wanted: that is quiet.)
if let problem = console.outputError {
  console.err("Error: \(problem)")
  status = max(status, 1)
}
exit(status)
