import CourseClock
import CourseFixtures
import CourseSQLite
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

/// Tasks 3 and 4: a failure that no caller can catch (the read has returned, a
/// stream cannot throw) reaches the composition root's `report`, once, and what
/// the caller gets stays as it was.
///
/// The tests break the database file from outside, through a connection of their
/// own, as a full disk or a damaged file would: they name none of its tables.
@Suite(.timeLimit(.minutes(1)))
struct ReportTests {
  @Test func aRefreshBehindAReadThatFailsIsReportedOnce() async {
    guard let journal = await ReadPolicyTests.yesterday(), let repository = journal.launch(for: 3) else { return }
    let before = journal.api.requests.count
    journal.api.inject(.status(503, message: "Down for maintenance"), on: .articles, times: 1)
    let outcome = await Result { try await repository.latest() }
    let matches = sameArticles(try? outcome.get(), fixtureArticles)
    #expect(
      matches,
      guide.task(
        3,
        "with yesterday's 12 articles stored and the server answering 503, latest() should still give the stored list; \(whatDiffers(outcome, from: fixtureArticles))",
        blaming: outcome.failure))
    guard outcome.failure == nil else { return }
    let heard = await journal.reports.settled(count: 1)
    #expect(
      heard.count == 1,
      guide.task(
        3,
        "the refresh behind a read of a day-old store failed (HTTP 503) after the read had returned, so no caller could catch it: makeArticleRepository's report should hear it once; it heard \(heard.count) time(s) \(heard), and the server saw \(journal.api.requests.count - before) request(s) after the launch"
      ))
  }

  @Test func aStoreThatRefusesTheRefreshBehindAReadIsReportedOnce() async {
    guard let journal = await ReadPolicyTests.yesterday(), let repository = journal.launch(for: 3) else { return }
    do {
      try Self.refuseWrites(to: journal.file.path)
    } catch {
      Issue.record("the test could not make the database file refuse writes: \(short(error))")
      return
    }
    let before = journal.api.requests.count
    let outcome = await Result { try await repository.latest() }
    let matches = sameArticles(try? outcome.get(), fixtureArticles)
    #expect(
      matches,
      guide.task(
        3,
        "with yesterday's 12 articles stored and a file that refuses writes (as a full disk does), latest() should still give the stored list; \(whatDiffers(outcome, from: fixtureArticles))",
        blaming: outcome.failure))
    guard outcome.failure == nil else { return }
    let heard = await journal.reports.settled(count: 1)
    #expect(
      heard.count == 1,
      guide.task(
        3,
        "the refresh behind a read of a day-old store fetched an overnight edit and could not keep it (the file refuses writes, as a full disk does); the read had returned, so makeArticleRepository's report should hear it once; it heard \(heard.count) time(s) \(heard), and the server saw \(journal.api.requests.count - before) request(s) after the launch"
      ))
  }

  @Test func anObserverOfAStoreThatCannotBeReadIsReportedOnce() async {
    let journal = Journal()
    guard let first = journal.launch(for: 4),
      await attempt(4, "refresh() should keep the articles", { try await first.refresh() }) != nil,
      let second = journal.launch(for: 4)
    else { return }
    journal.api.inject(.offline)
    do {
      try Self.moveEveryTableAway(in: journal.file.path)
    } catch {
      Issue.record("the test could not move the database's tables away: \(short(error))")
      return
    }
    let reader = StreamReader(second.observeLatest())
    defer { reader.cancel() }
    // A design that read the store at launch has nothing to fail now; one that
    // reads it here fails, and must say so.
    _ = await eventually { !reader.values.isEmpty || !journal.reports.all.isEmpty }
    if let firstValue = reader.values.first, sameArticles(firstValue, fixtureArticles) { return }
    let heard = await journal.reports.settled(count: 1)
    let seen =
      reader.values.isEmpty ? "nothing" : reader.values.map { $0.isEmpty ? "[]" : ids($0) }.joined(separator: ", ")
    #expect(
      heard.count == 1 && reader.values.allSatisfy(\.isEmpty),
      guide.task(
        4,
        "observeLatest() on a store that cannot be read (its tables moved away, as a damaged file) cannot throw: it should give nothing or [], and makeArticleRepository's report should hear why, once; the stream gave \(seen), and report heard \(heard.count) time(s) \(heard)"
      ))
  }

  /// Makes every table of the file at `path` refuse inserts, updates and deletes, as a full disk would,
  /// after `allowed` of them went through.
  static func refuseWrites(to path: String, after allowed: Int = 0) throws {
    let connection = try SQLiteConnection(path: path)
    let tables = try tables(of: connection)
    try connection.execute("CREATE TABLE test_writes_seen (n INTEGER NOT NULL)")
    try connection.execute("INSERT INTO test_writes_seen VALUES (0)")
    for table in tables {
      for event in ["INSERT", "UPDATE", "DELETE"] {
        try connection.execute(
          """
          CREATE TRIGGER "refuse_\(event)_\(table)" BEFORE \(event) ON "\(table)" BEGIN
            UPDATE test_writes_seen SET n = n + 1;
            SELECT RAISE(ABORT, 'disk full') WHERE (SELECT n FROM test_writes_seen) > \(allowed);
          END
          """
        )
      }
    }
  }

  /// Renames every table of the file at `path`, so no query of the app finds it.
  static func moveEveryTableAway(in path: String) throws {
    let connection = try SQLiteConnection(path: path)
    for table in try tables(of: connection) {
      try connection.execute("ALTER TABLE \"\(table)\" RENAME TO \"\(table)_moved_away\"")
    }
  }

  private static func tables(of connection: SQLiteConnection) throws -> [String] {
    try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .query { $0.text(at: 0) ?? "" }
  }
}
