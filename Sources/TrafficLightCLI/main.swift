#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A closed stdout (`traffic-light ... | head`) must end the writes, not the process.
signal(SIGPIPE, SIG_IGN)
var console = Console()
let status = TrafficLightCommand.main(Array(CommandLine.arguments.dropFirst()), console: &console)
console.flush()
exit(status)
