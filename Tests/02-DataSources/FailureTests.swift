import CourseClock
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// Task 2: whatever goes wrong reaches the caller as one `RemoteDataSourceError`, or as
/// `CancellationError` when the caller went away; never as an empty page.
@Suite(.timeLimit(.minutes(1)))
struct FailureTests {
  let api = FakeCatalogAPI()

  /// Expects `outcome` to fail with `expected`, reporting Task 2 (or Task 1, while it comes first).
  func expect(
    _ outcome: Result<some Any, any Error>, toFailWith expected: RemoteDataSourceError, _ why: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let failed = outcome.failure as? RemoteDataSourceError == expected
    let (task, prefix) = failed ? (2, "") : await owner(of: 2)
    #expect(
      failed,
      guide.task(
        task, "\(prefix)\(why): expected \(shown(expected)), got \(outcome.described)", blaming: outcome.failure),
      sourceLocation: sourceLocation)
  }

  @Test func aMissingProductIsA404WithTheServersMessage() async {
    let outcome = await Result { try await source(for: api).product(id: 999) }
    await expect(
      outcome, toFailWith: .http(status: 404, message: "Product with id '999' not found"),
      "a 404 carries its status and the body's message; check the status before decoding")
  }

  @Test func aServerErrorCarriesItsStatusAndMessage() async {
    api.inject(.status(500, message: "Database unavailable"), on: .list)
    let outcome = await Result { try await source(for: api).products(limit: 30, skip: 0) }
    await expect(
      outcome, toFailWith: .http(status: 500, message: "Database unavailable"),
      "a 500 is a failure, never an empty page")
  }

  @Test func aServerErrorWithAnHTMLBodyKeepsItsStatus() async {
    api.inject(.statusWithBody(502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>"), on: .list)
    let outcome = await Result { try await source(for: api).products(limit: 30, skip: 0) }
    await expect(
      outcome, toFailWith: .http(status: 502, message: nil),
      "a 502 whose body is a proxy's HTML page has no message to read, and is still a 502")
  }

  @Test func aResponseThatIsNotHTTPIsRefused() async {
    api.inject(.nonHTTPResponse)
    let outcome = await Result { try await source(for: api).products(limit: 30, skip: 0) }
    await expect(outcome, toFailWith: .notHTTP, "a URLResponse that is not an HTTPURLResponse has no status to check")
  }

  @Test func offlineIsItsOwnError() async {
    api.inject(.offline)
    let outcome = await Result { try await source(for: api).products(limit: 30, skip: 0) }
    await expect(outcome, toFailWith: .offline, "URLError(.notConnectedToInternet) means the device is offline")
  }

  @Test func aTimeoutIsATransportError() async {
    api.inject(.timeout)
    let outcome = await Result { try await source(for: api).products(limit: 30, skip: 0) }
    var isTransport = false
    if case .failure(RemoteDataSourceError.transport) = outcome { isTransport = true }
    let (task, prefix) = isTransport ? (2, "") : await owner(of: 2)
    #expect(
      isTransport,
      guide.task(
        task, "\(prefix)URLError(.timedOut) should become RemoteDataSourceError.transport, got \(outcome.described)",
        blaming: outcome.failure)
    )
  }

  /// A page whose ignored `junk` key nests `depth` arrays deep, so the whole body nests `depth + 1`.
  static func emptyPage(junkDepth depth: Int) -> String {
    let junk = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    return #"{"products": [], "total": 0, "skip": 0, "limit": 0, "junk": \#(junk)}"#
  }

  @Test func aBodyThatIsNotAPageIsADecodingError() async {
    let bodies: [(name: String, fault: Fault)] = [
      ("a malformed body", .malformedBody), ("a truncated body", .truncatedBody), ("an HTML page", .nonJSONBody),
      (#"{"items": []}"#, .body(#"{"items": []}"#)),
      ("a page nested 65 levels deep (more than 64)", .body(Self.emptyPage(junkDepth: 64))),
      ("a page with a key nested 100 deep", .body(Self.emptyPage(junkDepth: 100))),
      ("100,000 open brackets", .body(String(repeating: "[", count: 100_000))),
    ]
    let (task, prefix) = await owner(of: 2)
    await guide.expectEvery(
      bodies, task: task,
      "\(prefix)a 200 whose body is not a page, or nests deeper than 64 levels, should throw .decoding, never return a page"
    ) { name, fault in
      let api = FakeCatalogAPI()
      api.inject(fault)
      let outcome = await Result { try await source(for: api).products(limit: 30, skip: 0) }
      if case .failure(RemoteDataSourceError.decoding) = outcome { return nil }
      var happened = "\(name) gave \(outcome.described)"
      if name.contains("deep") || name.contains("brackets") {
        happened += " (JSONDecoder.catalog() refuses more than 64 levels before parsing)"
      }
      return (happened, outcome.failure)
    }
  }

  @Test func aBodyNestedExactly64DeepIsAllowed() async throws {
    let outcome = await fetchPage(answering: Self.emptyPage(junkDepth: 63))
    let (task, prefix) = outcome.failure == nil ? (2, "") : await owner(of: 2)
    #expect(
      outcome.failure == nil,
      guide.task(
        task,
        "\(prefix)a page nested exactly 64 levels deep is allowed, and should give an empty page; got \(outcome.described)",
        blaming: outcome.failure))
  }

  @Test func bracketsInsideStringsDoNotCount() async throws {
    let brackets = String(repeating: "[{", count: 200)
    let outcome = await fetchProduct(answering: record(title: #""\"\#(brackets)\" and \\\"\#(brackets)""#))
    let title = (try? outcome.get())?.title ?? ""
    let (task, prefix) = title.hasSuffix(brackets) ? (2, "") : await owner(of: 2)
    #expect(
      title.hasSuffix(brackets),
      guide.task(
        task,
        "\(prefix)brackets inside a string are text, not nesting: a title of 400 brackets, with escaped quotes, should come through whole; got \(outcome.map { "title \($0.title.prefix(20))…" }.described)",
        blaming: outcome.failure))
  }

  @Test func aPageThatBreaksTheRulesIsInvalidDataNotDecoding() async {
    let outcome = await fetchPage(answering: page([record(id: 1, stock: "-3")], total: 1))
    let refused = isInvalidData(outcome.failure, naming: "stock")
    let (task, prefix) = refused ? (2, "") : await owner(of: 2)
    #expect(
      refused,
      guide.task(
        task == 2 && !isDecoding(outcome.failure) ? 4 : task,
        "\(prefix)a page that decodes but holds stock -3 should reach the caller as .invalidData naming \"stock\", not wrapped in .decoding; got \(outcome.described)",
        blaming: outcome.failure)
    )
  }

  @Test func aCancelledRequestIsCancellationNotAFailure() async throws {
    api.inject(.latency(.seconds(30)))
    let source = source(for: api)
    let request = Task { try await source.products(limit: 30, skip: 0) }
    guard await api.clock.waitForSleepers(count: 1, whileRunning: request) else {
      let early = await request.result
      Issue.record(
        guide.task(
          2,
          "the request should reach the fake API and wait there for the test to cancel it; it ended first: \(early.described)",
          blaming: early.failure))
      return
    }
    request.cancel()
    let outcome = await request.result
    // Recorded by hand, so the message is the sentence alone, without the `is` expression around it.
    if !(outcome.failure is CancellationError) {
      Issue.record(
        guide.task(
          2,
          "a request cancelled in flight ends with URLError(.cancelled); that is no failure to show: throw CancellationError(), got \(outcome.described)"
        ))
    }
  }
}

/// Whether `error` is `RemoteDataSourceError.decoding`.
func isDecoding(_ error: (any Error)?) -> Bool {
  if case .decoding? = error as? RemoteDataSourceError { return true }
  return false
}
