import FakeCatalog
import Testing

@testable import CatalogServer

struct HTTPRequestParserTests {
  private func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Result {
    HTTPRequestParser.parse(Array(text.utf8)[...], limits: limits)
  }

  private func status(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Int? {
    if case .failure(let error) = parse(text, limits: limits) { return error.status }
    return nil
  }

  @Test func readsAHeadAndWhereTheBodyStarts() throws {
    let text = "POST /products/add?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nIdempotency-Key:  k1 \r\n\r\n{}"
    guard case .head(let head, let headLength) = parse(text) else {
      Issue.record("expected a head, got \(parse(text))")
      return
    }
    #expect(head.method == "POST")
    #expect(head.target == "/products/add?x=1")
    #expect(head.contentLength == 2)
    #expect(head.field("idempotency-key") == "k1", "field names ignore case and values lose surrounding spaces")
    #expect(headLength == text.utf8.count - 2, "the body's 2 bytes follow the head")
    #expect(head.keepsAlive, "HTTP/1.1 keeps the connection by default")
  }

  @Test(arguments: [
    ("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", false),
    ("GET / HTTP/1.0\r\n\r\n", false),
    ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
  ])
  func keepAliveFollowsTheVersionAndConnectionHeader(text: String, keepsAlive: Bool) {
    guard case .head(let head, _) = parse(text) else {
      Issue.record("expected a head for \(text.debugDescription)")
      return
    }
    #expect(head.keepsAlive == keepsAlive, "\(text.debugDescription)")
  }

  @Test func waitsForTheRestOfAHead() {
    #expect(parse("GET /products HT") == .needMore)
    #expect(parse("GET /products HTTP/1.1\r\nHost: a\r\n") == .needMore)
    #expect(parse("") == .needMore)
  }

  @Test(arguments: [
    ("GARBAGE\r\n\r\n", 400),
    ("GARBAGE\r\n", 400),  // refused as soon as the request line is complete
    ("GET products HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\n\r\n", 400),  // HTTP/1.1 without Host
    ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
    ("GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),
    ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{1}b\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n", 413),
    ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
  ])
  func refusesBrokenRequestsWithTheRightStatus(text: String, expected: Int) {
    #expect(status(text) == expected, "\(text.debugDescription) should be refused with \(expected), got \(parse(text))")
  }

  @Test func refusesTooManyHeaderFields() {
    let fields = (0...100).map { "X-\($0): y\r\n" }.joined()
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\n\(fields)\r\n") == 431, "101 fields with Host")
    let fewer = (0..<99).map { "X-\($0): y\r\n" }.joined()
    #expect(status("GET / HTTP/1.1\r\nHost: a\r\n\(fewer)\r\n") == nil, "100 fields pass")
  }

  @Test func refusesAHeadLargerThanTheLimitWithoutWaitingForItsEnd() {
    let long = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "y", count: 9000)
    #expect(status(long) == 431, "an 8 KiB head with no end in sight")
    var limits = HTTPLimits()
    limits.maxHeadBytes = 64
    #expect(
      status("GET / HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "y", count: 60))\r\n\r\n", limits: limits) == 431)
  }

  /// Random bytes and random damage to a valid request never trap, and
  /// whatever parses as a head is consistent with its input.
  @Test func fuzzedInputNeverTrapsAndParsesConsistently() {
    var random = SplitMix64(seed: 13)
    let valid = Array("POST /products/add HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}".utf8)
    var heads = 0
    var failures = 0
    for round in 0..<20_000 {
      var bytes: [UInt8]
      if round.isMultiple(of: 2) {
        bytes = (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      } else {
        bytes = valid
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let index = Int.random(in: 0..<bytes.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
          case 1: bytes.remove(at: index)
          default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
          }
          if bytes.isEmpty { bytes = [0] }
        }
      }
      switch HTTPRequestParser.parse(bytes[...]) {
      case .head(let head, let headLength):
        heads += 1
        #expect(headLength <= bytes.count && !head.method.isEmpty && head.target.hasPrefix("/"))
        #expect(head.contentLength <= HTTPLimits().maxBodyBytes)
      case .failure(let error):
        failures += 1
        #expect([400, 413, 431, 501, 505].contains(error.status), "unexpected status \(error.status)")
      case .needMore:
        break
      }
    }
    #expect(heads > 0 && failures > 0, "the fuzz should reach both outcomes: \(heads) heads, \(failures) refusals")
  }
}
