import CourseClock
import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if ALTERNATIVE
  import Alternative08
#elseif SOLUTION
  import Solution08
#else
  import Lesson08
#endif

// The capstone's suite sees only the domain (Article.swift) and the composition
// root, `makeArticleRepository`: every part behind them is the learner's design,
// so no test here names a type, a table or a helper of theirs.

let guide = StageGuide(
  doc: "Docs/08-Capstone.md",
  tasks: [
    1: "Read the journal from the API",
    2: "Keep the articles on the device",
    3: "Serve the store first",
    4: "Publish every change",
    5: "Write the test: what a read serves",
    6: "Write the test: what the store keeps",
  ]
)

/// 2026-12-01 09:00:00 UTC: the wall-clock time a test starts at.
let startDate = Date(timeIntervalSince1970: 1_796_115_600)

/// A wall clock the test moves by hand, injected as `now`.
final class WallClock: Sendable {
  private let date = Mutex(startDate)

  var now: @Sendable () -> Date { { self.date.withLock { $0 } } }

  /// Moves the wall clock on, as a day passing between two launches of the app.
  func advance(by interval: TimeInterval) {
    date.withLock { $0 = $0.addingTimeInterval(interval) }
  }
}

/// A database file of its own, removed when the test lets go of it.
final class DatabaseFile: Sendable {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("capstone-\(UUID().uuidString).sqlite")
    .path

  deinit {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }
}

/// What the app heard through the composition root's `report`: the failures no caller could catch.
final class Reports: Sendable {
  private let heard = Mutex<[String]>([])

  /// Every failure heard so far, as a message shows it.
  var all: [String] { heard.withLock { $0 } }

  /// The sink a launch passes as `report`.
  var hear: @Sendable (any Error) -> Void { { error in self.heard.withLock { $0.append(short(error)) } } }

  /// What was heard once `count` reports came (within the test's safety limit),
  /// and a few hundred turns later, so a report too many shows as well: a
  /// bounded wait, never a duration.
  func settled(count: Int) async -> [String] {
    _ = await eventually { self.all.count >= count }
    for _ in 0..<500 { await Task.yield() }
    return all
  }
}

/// The fake API, a database file, a wall clock and what the app heard: what the app runs on.
struct Journal {
  let api: FakeCatalogAPI
  let file = DatabaseFile()
  let clock = WallClock()
  let reports = Reports()

  init(articles: [JSONValue] = ArticleFixtures.records) {
    api = FakeCatalogAPI(articles: articles)
  }

  /// `latest()` with the server unreachable, after the test filled the store
  /// through `repository`: how the store's content shows through the seams.
  /// `nil` when it threw, recorded for Task 2, whose tests read the store this way.
  func readOffline(_ repository: any ArticleRepository, sourceLocation: SourceLocation = #_sourceLocation) async
    -> [Article]?
  {
    api.inject(.offline)
    do {
      return try await repository.latest()
    } catch {
      let why =
        (error as? ArticleError) == .offline
        ? ": with articles stored, a read answers from the store when the server can't be reached (Task 3, \"Offline\"; Task 2's tests read the store that way)"
        : ""
      Issue.record(
        guide.task(
          2, "latest() offline should give what this test's refreshes kept; it threw \(short(error))\(why)",
          blaming: error), sourceLocation: sourceLocation)
      return nil
    }
  }

  /// What a failed read says when requests went through `URLSession.shared`,
  /// which the fake API refuses as a host it cannot reach.
  var sharedSessionNote: String {
    let count = api.sharedSessionRequests.count
    return count == 0
      ? ""
      : " (\(count) request(s) went through URLSession.shared, which this API never answers: send through the session given to makeArticleRepository)"
  }

  /// A launch of the app: the repository the composition root builds on the journal's file.
  func launch() throws -> any ArticleRepository {
    try makeArticleRepository(
      baseURL: api.baseURL, session: api.session, databasePath: file.path, now: clock.now, report: reports.hear)
  }

  /// `launch()`, recording an issue that names `task` (or Task 1, while the
  /// composition root is a stub) when it throws.
  func launch(for task: Int, sourceLocation: SourceLocation = #_sourceLocation) -> (any ArticleRepository)? {
    do {
      return try launch()
    } catch {
      Issue.record(
        guide.task(
          task,
          "makeArticleRepository(baseURL:session:databasePath:now:report:) should build the repository; it threw \(error)",
          blaming: error), sourceLocation: sourceLocation)
      return nil
    }
  }

  /// Another client edits an article on the server: a new title, stamped `later` than its current version.
  func theirEdit(id: String, title: String, stampedAt date: Date) {
    api.articles = api.articles.map { record in
      guard record["id"]?.stringValue == id, case .object(var fields) = record else { return record }
      fields["title"] = .string(title)
      fields["updated_at"] = .string(iso(date))
      return .object(fields)
    }
  }
}

/// A date as the API writes it, with milliseconds: `2026-12-01T09:00:00.250Z`,
/// rounded to the nearest millisecond. (`Date.ISO8601FormatStyle` cuts the
/// fraction off instead: a date parsed from `41.900Z` is a hair below it, and
/// formats as `41.899Z`.)
func iso(_ date: Date) -> String {
  let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
  let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1_000)
  let whole = Date.ISO8601FormatStyle().format(Date(timeIntervalSince1970: TimeInterval(seconds)))
  return "\(whole.dropLast()).\(String(fraction + 1_000).dropFirst())Z"
}

/// The articles `records` hold, as the domain sees them, newest first (ties by id).
///
/// Read here with the suite's own decoding, never with the learner's.
func domainArticles(_ records: [JSONValue]) -> [Article] {
  let articles = records.map { record -> Article in
    let text = record["updated_at"]?.stringValue ?? ""
    let date =
      (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
      ?? (try? Date.ISO8601FormatStyle().parse(text))
    guard let id = record["id"]?.stringValue, let title = record["title"]?.stringValue,
      let body = record["body"]?.stringValue, let date
    else { preconditionFailure("the suite's article records are well formed: \(record)") }
    return Article(id: id, title: title, body: body, updatedAt: date)
  }
  return articles.sorted { ($0.updatedAt, $1.id) > ($1.updatedAt, $0.id) }
}

/// The twelve articles of the fixture, newest first.
let fixtureArticles = domainArticles(ArticleFixtures.records)

/// Whether two lists hold the same articles in the same order, dates to the
/// millisecond: the server sends no finer ones, and a store may keep no finer.
func sameArticles(_ a: [Article]?, _ b: [Article]) -> Bool {
  guard let a, a.count == b.count else { return false }
  return zip(a, b).allSatisfy { left, right in
    left.id == right.id && left.title == right.title && left.body == right.body
      && abs(left.updatedAt.timeIntervalSince(right.updatedAt)) < 0.0005
  }
}

/// Ids in order, for short messages.
func ids(_ articles: [Article]?) -> String {
  guard let articles else { return "nothing" }
  if articles.count > 4 {
    return "\(articles.count) articles [\(articles.prefix(3).map(\.id).joined(separator: ", ")), …]"
  }
  return "[\(articles.map(\.id).joined(separator: ", "))]"
}

/// What a list breaks of the expected one, for messages: its first wrong article, field by field.
func whatDiffers(_ actual: [Article]?, from expected: [Article]) -> String {
  guard let actual else { return "got nothing" }
  guard actual.count == expected.count else { return "got \(ids(actual)), expected \(ids(expected))" }
  for (index, (got, want)) in zip(actual, expected).enumerated() {
    if got.id != want.id {
      return "at position \(index) expected \(want.id), got \(got.id) (order: newest updatedAt first)"
    }
    if got.title != want.title || got.body != want.body {
      return "\(want.id): expected title \"\(want.title)\" and its body, got \"\(got.title)\""
    }
    let apart = abs(got.updatedAt.timeIntervalSince(want.updatedAt))
    if apart >= 0.0005 {
      let hint =
        apart < 0.0015
        ? " (1 ms apart: Date.ISO8601FormatStyle cuts fractions off when it formats, so a date kept as text can lose a millisecond; keep it in a form that comes back to the millisecond)"
        : ""
      return "\(want.id): expected updatedAt \(iso(want.updatedAt)), got \(iso(got.updatedAt))\(hint)"
    }
  }
  return "the same"
}

/// What a read gave against the list it should give, for messages: the error
/// it threw, or what its list breaks of the expected one.
func whatDiffers(_ outcome: Result<[Article], any Error>, from expected: [Article]) -> String {
  switch outcome {
  case .success(let articles): whatDiffers(articles, from: expected)
  case .failure(let error): "it threw \(short(error))"
  }
}

/// The outcome of a call, for messages.
func brief<Value>(_ outcome: Result<Value, any Error>) -> String {
  switch outcome {
  case .success(let value):
    if Value.self == Void.self {
      "no error"
    } else {
      "no error (it returned \(value is [Article] ? ids(value as? [Article]) : "\(value)"))"
    }
  case .failure(let error): "the error \(short(error))"
  }
}

/// Runs `body` and returns its value; when it throws, records an issue naming
/// `task` (or the stub's task) and returns `nil`.
func attempt<Value>(
  _ task: Int, _ what: String, note: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> Value
) async -> Value? {
  do {
    return try await body()
  } catch {
    // A store that fails shows first in Task 1's reads once they go through it; the store is Task 2's.
    // The other way round, a later task's read that meets the server's errors may be Task 1's.
    let store: String
    switch error as? ArticleError {
    case .storage? where task == 1: store = " (the store failed: see Task 2's tests)"
    case .storage?, nil: store = ""
    case _ where task == 1: store = ""
    case _: store = " (an error of the server's side: if Task 1's tests fail too, start there)"
    }
    Issue.record(
      guide.task(task, "\(what); it threw \(short(error))\(store)\(note())", blaming: error),
      sourceLocation: sourceLocation)
    return nil
  }
}
