import FakeCatalog
import Foundation
import Synchronization

extension CatalogServer {
  /// Carries out an instructor's command and says, in one line, what is in force now.
  public func perform(_ command: ControlCommand) -> String {
    switch command {
    case .latency(let latency):
      state.withLock { $0.latency = latency }
      return latency == .zero ? "No latency." : "Every answer now waits \(Self.milliseconds(latency)) ms."
    case .failRate(let rate):
      state.withLock { $0.failRate = rate }
      return rate == 0 ? "No random failures." : "Each request now fails with 500 with probability \(rate)."
    case .offline(let seconds):
      setOffline(true)
      if let seconds { scheduleOnline(after: seconds) }
      let span = seconds.map { "for \($0) s" } ?? "until `online`"
      return "Offline \(span): connections to port \(port) are refused."
    case .online:
      if let error = setOffline(false) { return "Still offline: \(error)" }
      return "Online: accepting connections on port \(port)."
    case .inject(let fault, let times):
      responder.inject(fault, times: times)
      let span = times.map { $0 == 1 ? "The next request" : "The next \($0) requests" } ?? "Every request"
      return "\(span): \(Self.describe(fault)). `clear` removes it."
    case .clear:
      responder.clearFaults()
      state.withLock {
        $0.latency = .zero
        $0.failRate = 0
      }
      let online = setOffline(false).map { " Still offline: \($0)" } ?? ""
      return "Cleared: no faults, no latency, no random failures, online." + online
    case .habits(let habits):
      responder.habits = habits
      return habits == .kind
        ? "Kind: ids as max + 1, no versions, no 409 for a key in flight, no Date header."
        : "Real: ETag and 412 on a stale If-Match, server ids and stamps, 409 for a key in flight, Date."
    case .state:
      return stateDescription
    case .help:
      return ControlCommand.summary
    }
  }

  /// What is in force now, one item a line.
  public var stateDescription: String {
    let (latency, failRate, offline, port) = state.withLock { ($0.latency, $0.failRate, $0.offline, $0.port) }
    var lines = [
      offline ? "offline: connections to port \(port) are refused" : "online on port \(port)",
      "latency: \(Self.milliseconds(latency)) ms",
      "fail-rate: \(failRate)",
      "habits: \(responder.habits == .kind ? "kind" : responder.habits == .real ? "real" : "some")",
    ]
    let faults = responder.faults
    lines.append(faults.isEmpty ? "faults: none" : "faults:")
    for rule in faults {
      let span = rule.remaining.map { "next \($0)" } ?? "every request"
      lines.append("  \(span): \(Self.describe(rule.fault))")
    }
    return lines.joined(separator: "\n")
  }

  /// `GET /__admin` shows the state and the commands; `POST /__admin` with a
  /// command as the body (`latency 500`) carries it out.
  func adminReply(method: String, body: Data) -> Reply {
    let plain = ["Content-Type": "text/plain; charset=utf-8"]
    switch method {
    case "GET", "HEAD":
      let text = stateDescription + "\n\nPOST one of these as the body to /__admin:\n" + ControlCommand.summary + "\n"
      return Reply(status: 200, headers: plain, body: Data(text.utf8))
    case "POST":
      do {
        let command = try ControlCommand.parse(String(decoding: body, as: UTF8.self))
        configuration.notice(
          "admin: \(String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))")
        return Reply(status: 200, headers: plain, body: Data((perform(command) + "\n").utf8))
      } catch {
        return Reply(status: 400, headers: plain, body: Data((error.reason + "\n").utf8))
      }
    default:
      return Reply(status: 405, headers: plain, body: Data("Use GET or POST on /__admin.\n".utf8))
    }
  }

  static func describe(_ fault: Fault) -> String {
    switch fault {
    case .status(let code, _, let headers):
      headers["Retry-After"].map { "\(code) with Retry-After: \($0)" } ?? "\(code)"
    case .latency(let duration): "wait \(milliseconds(duration)) ms"
    case .malformedBody: "200 with broken JSON"
    case .truncatedBody: "the body stops halfway and the connection closes"
    case .nonJSONBody: "200 with an HTML page"
    case .body(let text): "200 with the body \(text)"
    case .statusWithBody(let status, let text): "\(status) with the body \(text)"
    case .nonHTTPResponse: "an answer without HTTP"
    case .offline: "the connection closes without an answer"
    case .answerLost: "the write is applied, then the connection closes without an answer"
    case .answerCut: "the write is applied, and its answer's body stops halfway (the answer says it is whole)"
    case .answerNotJSON: "the write is applied, and its answer's body is plain text, not JSON"
    case .timeout: "no answer until the client gives up"
    }
  }

  static func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }
}
