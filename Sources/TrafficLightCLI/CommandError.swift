import TrafficLight
import TrafficLightStudy

/// Why a command stopped before reading its inputs: printed as `Error: ...`.
struct CommandError: Error, Equatable {
  enum Kind: Equatable {
    /// The command line cannot be run: a usage line follows the message, exit 64.
    case usage
    /// The file system refused something the run needs (an output, a folder, a labels
    /// file): exit 1, no usage line.
    case io
  }

  let message: String
  let kind: Kind

  /// A usage error.
  init(_ message: String) {
    self.message = message
    kind = .usage
  }

  /// An I/O failure.
  static func io(_ message: String) -> CommandError { CommandError(message: message, kind: .io) }

  private init(message: String, kind: Kind) {
    self.message = message
    self.kind = kind
  }

  /// The exit status the command ends with.
  var status: Int32 { kind == .usage ? 64 : 1 }
}

extension CommandError {
  /// The error a profile that cannot be loaded stops the command with: a file that cannot
  /// be read is an I/O failure, a name or content that is wrong is a usage error.
  init(_ error: ProfileError) {
    if case .unreadable = error { self = .io(error.description) } else { self.init(error.description) }
  }

  /// The error a labelled folder that cannot be used stops the command with.
  init(_ error: LabelledSetError) {
    if case .badLabels = error { self = .io(error.description) } else { self.init(error.description) }
  }
}

/// Walks an argument list: options (`--name value` or `--name=value`) and operands; `--`
/// ends the options.
struct ArgumentScanner {
  private var arguments: ArraySlice<String>
  private var optionsEnded = false

  init(_ arguments: [String]) { self.arguments = arguments[...] }

  enum Token: Equatable {
    case option(String, inlineValue: String?)
    case operand(String)
  }

  mutating func next() -> Token? {
    guard let argument = arguments.popFirst() else { return nil }
    if optionsEnded { return .operand(argument) }
    if argument == "--" {
      optionsEnded = true
      return next()
    }
    if argument.hasPrefix("--") {
      if let equals = argument.firstIndex(of: "=") {
        return .option(
          String(argument[..<equals]), inlineValue: String(argument[argument.index(after: equals)...]))
      }
      return .option(argument, inlineValue: nil)
    }
    if argument.hasPrefix("-") && argument.count > 1 { return .option(argument, inlineValue: nil) }
    return .operand(argument)
  }

  /// Refuses an inline value given to a flag, an option that takes none: `--lenient=no` must
  /// not turn leniency on.
  static func refuseValue(of flag: String, inline: String?) throws(CommandError) {
    if let inline { throw CommandError("\(flag) takes no value, not '\(flag)=\(inline)'") }
  }

  /// The value of `option`: the inline one, or the next argument.
  mutating func value(of option: String, inline: String?) throws(CommandError) -> String {
    if let inline { return inline }
    guard let value = arguments.popFirst() else { throw CommandError("\(option) needs a value") }
    return value
  }
}
