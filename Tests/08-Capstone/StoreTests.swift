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

/// Task 2: the database on the device holds what the server answered, once
/// per article, newest first, and never goes back to an older version.
@Suite(.timeLimit(.minutes(1)))
struct StoreTests {
  @Test func aRefreshIsStillThereAfterARestart() async {
    let journal = Journal()
    guard let first = journal.launch(for: 2),
      await attempt(2, "refresh() should fetch and keep the articles", { try await first.refresh() }) != nil
    else { return }
    journal.api.inject(.offline)
    guard let second = journal.launch(for: 2) else { return }
    let outcome = await Result { try await second.latest() }
    let matches = sameArticles((try? outcome.get()), fixtureArticles)
    #expect(
      matches,
      guide.task(
        2,
        "after refresh(), a second launch on the same database file, offline, should read the 12 articles from the file; latest(): \(whatDiffers(outcome, from: fixtureArticles))",
        blaming: outcome.failure))
  }

  @Test func theSameArticleTwiceIsKeptOnce() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 2),
      await attempt(2, "refresh() should keep the articles", { try await repository.refresh() }) != nil,
      await attempt(2, "a second refresh() should keep them again", { try await repository.refresh() }) != nil
    else { return }
    // An answer that lists one article twice, as a server paging by date can.
    let twice = ArticleFixtures.records + [ArticleFixtures.records[0]]
    journal.api.inject(
      .body(String(decoding: JSONValue.array(twice).encoded(), as: UTF8.self)), on: .articles, times: 1)
    _ = await attempt(
      2, "a refresh whose answer lists an article twice should keep it once", { try await repository.refresh() })
    guard let articles = await journal.readOffline(repository) else { return }
    let counts = Dictionary(grouping: articles, by: \.id).filter { $0.value.count > 1 }.keys.sorted()
    #expect(
      articles.count == 12 && counts.isEmpty,
      guide.task(
        2,
        "three refreshes of the same 12 articles (the last listing one twice) should keep 12 articles, one per id (an article that arrives again is kept once, never twice); the store gave \(ids(articles))\(counts.isEmpty ? "" : ", with \(counts) more than once")"
      ))
  }

  @Test func theStoreIsNewestFirstWhateverOrderTheServerSends() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 2) else { return }
    // The same articles, oldest first: the order of the answer is not the order of the screen.
    let oldestFirst = Array(fixtureArticles.reversed()).map(\.id).compactMap { ArticleFixtures.record(id: $0) }
    journal.api.inject(
      .body(String(decoding: JSONValue.array(oldestFirst).encoded(), as: UTF8.self)), on: .articles, times: 1)
    guard await attempt(2, "refresh() should keep the articles", { try await repository.refresh() }) != nil else {
      return
    }
    // A new article arrives later; it is the newest of all.
    let newest = JSONValue.object([
      "id": .string("advent-calendar"), "title": .string("Our advent calendar is back"),
      "body": .string("Twenty-four doors, one small gift behind each."),
      "updated_at": .string(iso(startDate)),
    ])
    journal.api.articles.append(newest)
    journal.clock.advance(by: 86_400)
    guard await attempt(2, "a second refresh() should keep the new article", { try await repository.refresh() }) != nil
    else { return }
    guard let articles = await journal.readOffline(repository) else { return }
    let expected = domainArticles(ArticleFixtures.records + [newest])
    let matches = sameArticles(articles, expected)
    #expect(
      matches,
      guide.task(
        2,
        "the store should give the articles newest first by updatedAt, whatever order the server sent them in and whenever they arrived (an article stored last but dated first goes first); \(whatDiffers(articles, from: expected))"
      ))
  }

  /// One batch edit on the server stamps many articles in the same millisecond:
  /// only the tie-break orders them, and every read must give the same order.
  @Test func articlesOfOneMomentComeInIDOrder() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 2) else { return }
    let moment = iso(startDate)
    let sameMoment = ArticleFixtures.records.map { record -> JSONValue in
      guard case .object(var fields) = record else { return record }
      fields["updated_at"] = .string(moment)
      return .object(fields)
    }
    // Sent in reverse id order, so an order the store does not decide shows.
    let reversed = sameMoment.sorted { ($0["id"]?.stringValue ?? "") > ($1["id"]?.stringValue ?? "") }
    journal.api.inject(
      .body(String(decoding: JSONValue.array(reversed).encoded(), as: UTF8.self)), on: .articles, times: 1)
    guard await attempt(2, "refresh() should keep the articles", { try await repository.refresh() }) != nil else {
      return
    }
    guard let articles = await journal.readOffline(repository) else { return }
    let inIDOrder = sameArticles(articles, domainArticles(sameMoment))
    #expect(
      inIDOrder,
      guide.task(
        2,
        "the server stamped all 12 articles in the same millisecond (one batch edit) and sent them in reverse id order; the store should give them newest first with ties by id, so every read gives one order: got [\(articles.map(\.id).joined(separator: ", "))]"
      ))
  }

  @Test func aLateAnswerDoesNotRollAnArticleBack() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 2),
      await attempt(2, "refresh() should keep the articles", { try await repository.refresh() }) != nil
    else { return }
    // A slow refresh: the server decides its answer now, and it arrives last.
    journal.api.inject(.latency(.seconds(5)), on: .articles, times: 1)
    let slow = Task { try await repository.refresh() }
    guard await journal.api.clock.waitForSleepers(count: 1, whileRunning: slow) else {
      Issue.record(
        guide.task(
          2,
          "expected refresh() to send GET /articles; it ended (\(brief(await slow.result.mapError { $0 as any Error }))) without waiting for the server"
        ))
      return
    }
    // Meanwhile the article is edited on the server, and a second refresh brings the edit.
    let id = fixtureArticles[3].id
    let editedAt = fixtureArticles[0].updatedAt.addingTimeInterval(60)
    journal.theirEdit(id: id, title: "Edited on the server", stampedAt: editedAt)
    let second = Task { try await repository.refresh() }
    // A refresh that joins the one in flight waits for it, and that answer was
    // decided before the edit: the 10 s safety limit only ends that wait.
    let ownAnswer = await finishesWithinSafetyLimit(second)
    journal.api.clock.advance(by: .seconds(5))
    let quick = await second.result
    let late = await slow.result
    #expect(
      ownAnswer,
      guide.task(
        2,
        "a refresh called while an earlier one still waited for the server should get its own answer; it was still waiting after \(safetyLimit), until the earlier answer came (\(brief(quick.mapError { $0 as any Error }))): joining the refresh in flight hands a caller who asked after the server's edit an answer decided before it"
      ))
    guard let stored = await journal.readOffline(repository) else { return }
    let title = stored.first { $0.id == id }?.title
    #expect(
      quick.failure == nil && title == "Edited on the server",
      guide.task(
        2,
        "a refresh sent after the server's edit brought \"Edited on the server\" for \(id), and then the answer to an earlier refresh, decided before the edit, arrived: an answer that arrives after a newer one must not roll the article back to its older version. The second refresh gave \(brief(quick.mapError { $0 as any Error })), the earlier one \(brief(late.mapError { $0 as any Error })), and the store holds \(title.map { "\"\($0)\"" } ?? "no such article")",
        blaming: quick.failure))
  }

  @Test func aFailedRefreshKeepsWhatWasStored() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 2),
      await attempt(2, "refresh() should keep the articles", { try await repository.refresh() }) != nil
    else { return }
    journal.theirEdit(id: fixtureArticles[0].id, title: "Never seen", stampedAt: startDate)
    journal.api.inject(.truncatedBody, on: .articles, times: 1)
    let outcome = await Result { try await repository.refresh() }
    guard let stored = await journal.readOffline(repository) else { return }
    let matches = outcome.failure != nil && sameArticles(stored, fixtureArticles)
    #expect(
      matches,
      guide.task(
        2,
        "a refresh whose answer is cut off halfway should throw and leave the 12 stored articles as they were; it gave \(brief(outcome)), and the store holds: \(whatDiffers(stored, from: fixtureArticles))",
        blaming: outcome.failure))
  }

  @Test func aRefreshTheDiskRefusesHalfwayKeepsNoneOfIt() async throws {
    let journal = Journal()
    guard let repository = journal.launch(for: 2),
      await attempt(2, "refresh() should keep the articles", { try await repository.refresh() }) != nil
    else { return }
    // Every article is edited on the server; the disk fills after a few rows of the next write.
    for (offset, article) in fixtureArticles.enumerated() {
      journal.theirEdit(
        id: article.id, title: "Edited \(offset)",
        stampedAt: fixtureArticles[0].updatedAt.addingTimeInterval(60 + Double(offset)))
    }
    try ReportTests.refuseWrites(to: journal.file.path, after: 6)
    let outcome = await Result { try await repository.refresh() }
    guard let stored = await journal.readOffline(repository) else { return }
    let keptWhole = outcome.failure != nil && sameArticles(stored, fixtureArticles)
    #expect(
      keptWhole,
      guide.task(
        2,
        "a refresh that brought 12 edited articles, on a disk that refused the write after a few rows (as a full disk does), should throw and leave the 12 stored articles as they were, none of the edits: a refresh is kept whole or not at all; it gave \(brief(outcome)), and the store holds: \(whatDiffers(stored, from: fixtureArticles))",
        blaming: outcome.failure))
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAlone() throws {
    let journal = Journal()
    let bytes = Data("These are a user's notes, not SQLite.".utf8)
    try bytes.write(to: URL(fileURLWithPath: journal.file.path))
    let outcome = Result { try journal.launch() }
    let after = try? Data(contentsOf: URL(fileURLWithPath: journal.file.path))
    let isStub = outcome.failure.flatMap { unfinishedTask(in: $0) } != nil
    #expect(
      !isStub && outcome.failure as? ArticleError == .storage && after == bytes,
      guide.task(
        2,
        "makeArticleRepository on a file that is not a database should throw ArticleError.storage and leave the file as it was (never delete what you cannot read); it gave \(outcome.failure.map { "the error \(short($0))" } ?? "a repository"), and the file is \(after == bytes ? "unchanged" : "changed")",
        blaming: outcome.failure))
  }
}
