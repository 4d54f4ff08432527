/// A command line that cannot be run: printed as `Error: ...` plus a usage line, exit 64.
struct UsageError: Error, Equatable {
  let message: String
  init(_ message: String) { self.message = message }
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

  /// The value of `option`: the inline one, or the next argument.
  mutating func value(of option: String, inline: String?) throws(UsageError) -> String {
    if let inline { return inline }
    guard let value = arguments.popFirst() else { throw UsageError("\(option) needs a value") }
    return value
  }
}
