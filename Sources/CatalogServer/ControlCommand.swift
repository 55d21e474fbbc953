import FakeCatalog
import Foundation

/// What an instructor can change while the server runs, typed on its terminal
/// or posted to `/__admin`: the same words either way.
public enum ControlCommand: Sendable, Equatable {
  /// `latency MS`: every answer waits this long; `latency 0` turns it off.
  case latency(Duration)
  /// `fail-rate P`: each request fails with 500 with probability P (0 to 1).
  case failRate(Double)
  /// `offline [SECONDS]`: refuse connections, for SECONDS or until `online`.
  case offline(seconds: Int?)
  /// `online`: accept connections again.
  case online
  /// `status CODE [N]`, `rate-limit SECONDS [N]`, `stall [N]`, `cut [N]`,
  /// `html [N]`, `malformed [N]`, `drop [N]`, `lose [N]`, `clip [N]`, `plain [N]`: the next N
  /// requests (all, without N) misbehave.
  case inject(Fault, times: Int?)
  /// `clear`: no faults, no latency, fail-rate 0, online.
  case clear
  /// `habits real` (the default) or `habits kind`: the server's habits on or off.
  case habits(ServerHabits)
  /// `state`: what is in force now.
  case state
  /// `help`: the commands.
  case help

  /// Parses one line, such as `latency 500` or `status 503 3`.
  ///
  /// - Throws: `HTTPError` with status 400 and a message naming what is wrong.
  public static func parse(_ line: String) throws(HTTPError) -> ControlCommand {
    let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let name = words.first?.lowercased() else { throw .badRequest("Type a command; `help` lists them.") }
    let arguments = Array(words.dropFirst())
    func count(at index: Int) throws(HTTPError) -> Int? {
      guard index < arguments.count else { return nil }
      guard let value = Int(arguments[index]), value > 0 else {
        throw .badRequest("\(name): the count must be a whole number above 0, got \(arguments[index])")
      }
      return value
    }
    func expect(_ range: ClosedRange<Int>, _ usage: String) throws(HTTPError) {
      guard range.contains(arguments.count) else { throw .badRequest("Usage: \(usage)") }
    }
    switch name {
    case "latency":
      try expect(1...1, "latency MS")
      guard let milliseconds = Int(arguments[0]), (0...60_000).contains(milliseconds) else {
        throw .badRequest("latency: milliseconds from 0 to 60000, got \(arguments[0])")
      }
      return .latency(.milliseconds(milliseconds))
    case "fail-rate":
      try expect(1...1, "fail-rate P")
      guard let rate = Double(arguments[0]), (0...1).contains(rate) else {
        throw .badRequest("fail-rate: a probability from 0 to 1, such as 0.2, got \(arguments[0])")
      }
      return .failRate(rate)
    case "offline":
      try expect(0...1, "offline [SECONDS]")
      return .offline(seconds: try count(at: 0))
    case "online":
      try expect(0...0, "online")
      return .online
    case "status":
      try expect(1...2, "status CODE [N]")
      guard let code = Int(arguments[0]), (400...599).contains(code) else {
        throw .badRequest("status: an error status from 400 to 599, got \(arguments[0])")
      }
      return .inject(.status(code, message: "Injected \(code) (status \(code))"), times: try count(at: 1))
    case "rate-limit":
      try expect(1...2, "rate-limit SECONDS [N]")
      guard let seconds = Int(arguments[0]), seconds >= 0 else {
        throw .badRequest("rate-limit: Retry-After in whole seconds, got \(arguments[0])")
      }
      let fault = Fault.status(429, message: "Too many requests", headers: ["Retry-After": "\(seconds)"])
      return .inject(fault, times: try count(at: 1))
    case "stall", "cut", "html", "malformed", "drop", "lose", "clip", "plain":
      try expect(0...1, "\(name) [N]")
      let faults: [String: Fault] = [
        "stall": .timeout, "cut": .truncatedBody, "html": .nonJSONBody, "malformed": .malformedBody, "drop": .offline,
        "lose": .answerLost, "clip": .answerCut, "plain": .answerNotJSON,
      ]
      return .inject(faults[name] ?? .timeout, times: try count(at: 0))
    case "habits":
      try expect(1...1, "habits real|kind")
      switch arguments[0].lowercased() {
      case "real": return .habits(.real)
      case "kind": return .habits(.kind)
      default:
        throw .badRequest(
          "habits: real (versions, server ids, 409 for a key in flight, Date) or kind, got \(arguments[0])")
      }
    case "clear", "state", "help":
      try expect(0...0, name)
      return name == "clear" ? .clear : name == "state" ? .state : .help
    default:
      throw .badRequest("Unknown command \(name); `help` lists them.")
    }
  }

  /// The commands, one a line, for `help` and `GET /__admin`.
  public static let summary = """
    latency MS             every answer waits MS milliseconds (0: none)
    fail-rate P            each request fails with 500 with probability P (0 to 1)
    offline [SECONDS]      refuse connections (for SECONDS, or until `online`)
    online                 accept connections again
    status CODE [N]        the next N requests (all, without N) answer CODE
    rate-limit SECONDS [N] the next N requests answer 429 with Retry-After: SECONDS
    stall [N]              the next N requests get no answer until the client gives up
    cut [N]                the next N answers stop halfway through the body
    html [N]               the next N answers are a 200 HTML page (a captive portal)
    malformed [N]          the next N answers are 200 with broken JSON
    drop [N]               the next N connections close without an answer
    lose [N]               the next N requests are applied, then close without an answer
    clip [N]               the next N requests are applied, and answered whole with half their body
    plain [N]              the next N requests are applied, and answered with plain text, not JSON
    habits real|kind       a real server's habits (ETag and 412, server ids, 409 for a key in flight, Date) on, or off
    clear                  no faults, no latency, fail-rate 0, online
    state                  what is in force now
    help                   this list
    """
}
