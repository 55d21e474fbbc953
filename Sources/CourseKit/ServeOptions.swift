import CatalogServer
import Foundation

/// The options of `course serve`, parsed.
///
/// Each option is declared once in `declarations` (`OptionDeclaration`), which
/// drives both parsing and the help text.
public struct ServeOptions: Sendable, Equatable {
  /// The port on 127.0.0.1; 0 picks a free one.
  public var port: UInt16 = 8080
  /// How long every answer waits, in milliseconds.
  public var latencyMilliseconds = 0
  /// The probability that a request fails with 500.
  public var failRate = 0.0
  /// Start with connections refused.
  public var offline = false

  public init() {}

  typealias Declaration = OptionDeclaration<ServeOptions>

  static let declarations: [Declaration] = [
    Declaration(flag: "--port", value: "N", help: "The port on 127.0.0.1 (default 8080; 0 picks a free one).") {
      options, text throws(CourseError) in
      guard let port = UInt16(text) else { throw .usage("--port takes a port number from 0 to 65535, got \(text).") }
      options.port = port
    },
    Declaration(flag: "--latency", value: "MS", help: "Every answer waits MS milliseconds (default 0).") {
      options, text throws(CourseError) in
      guard let milliseconds = Int(text), (0...60_000).contains(milliseconds) else {
        throw .usage("--latency takes milliseconds from 0 to 60000, got \(text).")
      }
      options.latencyMilliseconds = milliseconds
    },
    Declaration(flag: "--fail-rate", value: "P", help: "Each request fails with 500 with probability P (0 to 1).") {
      options, text throws(CourseError) in
      guard let rate = Double(text), (0...1).contains(rate) else {
        throw .usage("--fail-rate takes a probability from 0 to 1, such as 0.2, got \(text).")
      }
      options.failRate = rate
    },
    Declaration(flag: "--offline", value: nil, help: "Start refusing connections; type `online` to open.") {
      options, _ in options.offline = true
    },
  ]

  /// Parses the arguments after `serve`: `--port 8080` or `--port=8080`.
  ///
  /// - Throws: `CourseError.usage` naming the option at fault.
  static func parse(_ arguments: [String]) throws(CourseError) -> ServeOptions {
    try Declaration.parse(arguments, into: ServeOptions(), with: declarations, command: "serve")
  }

  /// `course help serve`.
  static var help: String {
    """
    USAGE: swift run course serve [--port N] [--latency MS] [--fail-rate P] [--offline]

    Serves the fake Catalog API (the DummyJSON products contract, the 194 real
    records) as an HTTP/1.1 server on 127.0.0.1 only, for curl, an app or the
    iOS simulator. Writes are kept while it runs; a write repeated with the
    same Idempotency-Key header is answered again and applied once.

    OPTIONS:
    \(Declaration.helpLines(declarations))
      -h, --help       Show this help.

    WHILE IT RUNS, type a command on its terminal, or POST it to /__admin
    (curl -d 'latency 500' http://127.0.0.1:8080/__admin):
    \(ControlCommand.summary.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))

    Offline means the port is closed: clients see "connection refused"
    (URLError.cannotConnectToHost). Each request is logged on one line:
    method, target, status, bytes, milliseconds. Ctrl-C stops the server.
    """
  }
}
