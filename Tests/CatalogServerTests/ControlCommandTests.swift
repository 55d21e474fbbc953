import FakeCatalog
import Testing

@testable import CatalogServer

struct ControlCommandTests {
  @Test(arguments: [
    ("latency 500", ControlCommand.latency(.milliseconds(500))),
    ("fail-rate 0.2", .failRate(0.2)),
    ("offline", .offline(seconds: nil)),
    ("  offline   30 ", .offline(seconds: 30)),
    ("online", .online),
    ("status 503 3", .inject(.status(503, message: "Injected 503 (status 503)"), times: 3)),
    ("rate-limit 2", .inject(.status(429, message: "Too many requests", headers: ["Retry-After": "2"]), times: nil)),
    ("stall 1", .inject(.timeout, times: 1)),
    ("cut", .inject(.truncatedBody, times: nil)),
    ("html 2", .inject(.nonJSONBody, times: 2)),
    ("lose 2", .inject(.answerLost, times: 2)),
    ("clip 1", .inject(.answerCut, times: 1)),
    ("plain", .inject(.answerNotJSON, times: nil)),
    ("habits kind", .habits(.kind)),
    ("habits REAL", .habits(.real)),
    ("CLEAR", .clear),
    ("help", .help),
  ])
  func parsesEachCommand(line: String, expected: ControlCommand) throws {
    #expect(try ControlCommand.parse(line) == expected)
  }

  @Test(arguments: [
    "", "latency", "latency fast", "latency -1", "fail-rate 2", "status 200", "status 503 0", "dance", "habits",
    "habits rude",
  ])
  func refusesWhatItCannotDo(line: String) {
    #expect(throws: HTTPError.self, "\(line.debugDescription) is refused") { try ControlCommand.parse(line) }
  }

  @Test func everyCommandIsInTheHelp() {
    for word in [
      "latency", "fail-rate", "offline", "online", "status", "rate-limit", "stall", "cut", "html", "lose", "habits",
      "clear", "clip", "plain",
    ] {
      #expect(ControlCommand.summary.contains(word), "help mentions \(word)")
    }
  }
}
