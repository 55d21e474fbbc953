import Foundation

/// One option of a command whose options are declared as data: its flag, the
/// name of its value (`nil` for a flag without one), its help, and how it
/// applies, in the spirit of swift-argument-parser's `@Option`.
///
/// `course serve` and `course classroom` declare theirs this way; `parse` and
/// `helpLines` read the declarations, so parsing and help never disagree.
struct OptionDeclaration<Options>: Sendable {
  let flag: String
  let value: String?
  let help: String
  let apply: @Sendable (inout Options, String) throws(CourseError) -> Void

  /// Parses `--flag VALUE` and `--flag=VALUE` into `options`.
  ///
  /// - Parameter command: The command's name, for the error.
  /// - Throws: `CourseError.usage` naming the option at fault.
  static func parse(
    _ arguments: [String], into options: Options, with declarations: [OptionDeclaration], command: String
  ) throws(CourseError) -> Options {
    var options = options
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
      guard let declaration = declarations.first(where: { $0.flag == parts.first }) else {
        throw .usage(
          argument.hasPrefix("-") ? "Unknown option \(argument) for \(command)." : "\(command) takes no \(argument).")
      }
      guard let valueName = declaration.value else {
        guard parts.count == 1 else { throw .usage("\(declaration.flag) takes no value.") }
        try declaration.apply(&options, "")
        continue
      }
      guard let value = parts.count == 2 ? parts[1] : remaining.popFirst() else {
        throw .usage("\(declaration.flag) needs a value: \(declaration.flag) \(valueName).")
      }
      try declaration.apply(&options, value)
    }
    return options
  }

  /// One help line per option, the flags padded to one column.
  static func helpLines(_ declarations: [OptionDeclaration]) -> String {
    declarations.map { declaration in
      let usage = declaration.flag + (declaration.value.map { " \($0)" } ?? "")
      return "  " + usage.padding(toLength: 17, withPad: " ", startingAt: 0) + declaration.help
    }.joined(separator: "\n")
  }
}
