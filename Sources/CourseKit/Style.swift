/// How `course` decorates its output: ANSI colour on a terminal, plain text elsewhere.
public struct Style: Sendable {
  /// Whether to emit ANSI colour codes.
  public let colored: Bool

  /// Makes a style.
  public init(colored: Bool) { self.colored = colored }

  /// Colour only on a terminal, and never when `NO_COLOR` is set (https://no-color.org).
  public static func detect(environment: [String: String], isTerminal: Bool) -> Style {
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    return Style(colored: isTerminal && !noColor && environment["TERM"] != "dumb")
  }

  func green(_ text: String) -> String { paint(text, "32") }
  func red(_ text: String) -> String { paint(text, "31") }
  func yellow(_ text: String) -> String { paint(text, "33") }
  func bold(_ text: String) -> String { paint(text, "1") }
  func dim(_ text: String) -> String { paint(text, "2") }

  private func paint(_ text: String, _ code: String) -> String {
    colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
