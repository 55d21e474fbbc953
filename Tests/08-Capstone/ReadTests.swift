import CourseClock
import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if ALTERNATIVE
  import Alternative08
#elseif SOLUTION
  import Solution08
#else
  import Lesson08
#endif

/// Task 1: the JSON stops at the edge of the data layer, and every failure
/// reaches the app in the domain's words.
@Suite(.timeLimit(.minutes(1)))
struct ReadTests {
  @Test func aFirstReadGivesEveryArticleAsTheServerWroteIt() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 1),
      let articles = await attempt(
        1, "latest() on an empty store should fetch the articles", note: journal.sharedSessionNote,
        { try await repository.latest() })
    else { return }
    let matches = sameArticles(articles, fixtureArticles)
    // The server sent them newest first: the same ids in another order come from the store's read.
    let reordered =
      !matches && Set(articles.map(\.id)) == Set(fixtureArticles.map(\.id))
      && articles.map(\.id) != fixtureArticles.map(\.id)
    let sent = journal.api.requests.map { "\($0.method) \($0.path)" }
    if reordered {
      Issue.record(
        guide.task(
          2,
          "a first read gave the server's 12 articles in another order than newest first: the server sent them newest first, so the order comes from how your store reads them back; \(whatDiffers(articles, from: fixtureArticles))"
        ))
    } else if articles.isEmpty, sent.isEmpty {
      Issue.record(
        guide.task(
          1,
          "latest() on an empty store returned [] before any request reached the API: a first read has nothing stored to show, so it waits for the server and gives the articles it fetched"
        ))
      return
    } else {
      #expect(
        matches,
        guide.task(
          1,
          "expected the server's 12 articles, newest first, each with its id, title, body and updated_at (to the millisecond; the API writes some dates with fractional seconds and some without): \(whatDiffers(articles, from: fixtureArticles))"
        ))
    }
    #expect(
      sent.contains("GET /articles") && journal.api.sharedSessionRequests.isEmpty,
      guide.task(
        1,
        "expected GET /articles through the session given to makeArticleRepository; the API saw \(sent) through it and \(journal.api.sharedSessionRequests.count) request(s) through URLSession.shared"
      ))
  }

  @Test func theDomainTypeKnowsNoJSON() {
    // The shape of the JSON (snake case, dates as text) belongs to a type at the edge, never to Article.
    #expect(
      !(Article.self is any Decodable.Type) && !(Article.self is any Encodable.Type),
      guide.task(
        1,
        "Article must not be Codable: decode the API's shape into a type of the data layer and map it to Article, so a change in the JSON never reaches a screen"
      ))
  }

  /// What the server or the connection does, and the domain error it must become.
  static let failures: [(fault: Fault, name: String, expected: ArticleError)] = [
    (.offline, "no connection", .offline),
    (.timeout, "a timeout", .offline),
    (.answerLost, "a connection lost before the answer", .offline),
    (.status(404, message: "Not found"), "HTTP 404", .notFound),
    (.status(500, message: "Database unavailable"), "HTTP 500", .server(500)),
    (.status(503, message: "Down for maintenance"), "HTTP 503", .server(503)),
    (.malformedBody, "a body cut off mid-JSON", .decoding),
    (.nonJSONBody, "a captive portal's HTML page", .decoding),
    (.body(#"{"articles": []}"#), "an object where the array should be", .decoding),
    (
      .body(#"[{"id": 7, "title": "T", "body": "B", "updated_at": "2026-11-02T08:15:00Z"}]"#), "a number as the id",
      .decoding
    ),
    (
      .body(#"[{"id": "a", "title": "T", "body": "B", "updated_at": "yesterday"}]"#), "a date that is not ISO 8601",
      .decoding
    ),
  ]

  @Test func everyFailureIsADomainError() async {
    await guide.expectEvery(
      Array(Self.failures.indices), task: 1,
      "refresh() should throw ArticleError for each failure of the server or the connection (offline, notFound, server(status), decoding)"
    ) { index in
      let (fault, name, expected) = Self.failures[index]
      let journal = Journal()
      let repository: any ArticleRepository
      do { repository = try journal.launch() } catch {
        return ("\(name): the composition root threw \(short(error))", error)
      }
      journal.api.inject(fault, on: .articles)
      let outcome = await Result { try await repository.refresh() }
      guard outcome.failure as? ArticleError != expected else { return nil }
      return ("\(name) should be .\(expected), got \(brief(outcome))", outcome.failure)
    }
  }

  @Test func aCancelledReadIsCancellationNotAnError() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 1) else { return }
    journal.api.inject(.latency(.seconds(30)), on: .articles)
    let call = Task { try await repository.latest() }
    let inFlight = await journal.api.clock.waitForSleepers(count: 1, whileRunning: call)
    call.cancel()
    let outcome = await call.result
    let early =
      inFlight
      ? ""
      : " (no request of it waited at the API: a first read has nothing stored to show, so it waits for the server's answer, sent through the session given to makeArticleRepository)"
    #expect(
      inFlight && outcome.failure is CancellationError,
      guide.task(
        1,
        "a first read cancelled while its request waits should throw CancellationError, so the screen that left shows no error; got \(brief(outcome.mapError { $0 as any Error }))\(early)",
        blaming: outcome.failure))
  }
}
