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

/// Task 3: a read answers from the device at once; the server only fills the
/// store, behind the answer.
@Suite(.timeLimit(.minutes(1)))
struct ReadPolicyTests {
  /// Yesterday's launch filled the store; today's starts with a slow server whose journal has changed.
  static func yesterday() async -> Journal? {
    let journal = Journal()
    guard let first = journal.launch(for: 3),
      await attempt(3, "refresh() should keep the articles", { try await first.refresh() }) != nil
    else { return nil }
    journal.clock.advance(by: 86_400 + 60)  // A day and a minute: an age of "a day" passes, by > or by >=.
    journal.theirEdit(
      id: fixtureArticles[5].id, title: "Changed overnight", stampedAt: startDate.addingTimeInterval(3_600))
    return journal
  }

  @Test func aReadAnswersFromTheStoreAtOnceThenRefreshes() async {
    guard let journal = await Self.yesterday(), let repository = journal.launch(for: 3) else { return }
    journal.api.inject(.latency(.seconds(30)), on: .articles, times: 1)
    let read = Task { try await repository.latest() }
    let answered = await finishesWithinSafetyLimit(read, cancelling: true)
    let outcome = await read.result
    let matches = answered && sameArticles((try? outcome.get()), fixtureArticles)
    #expect(
      matches,
      guide.task(
        3,
        "with yesterday's 12 articles stored and the server slow to answer, latest() should give the stored list at once, without waiting for the server; \(answered ? whatDiffers(outcome, from: fixtureArticles) : "it was still waiting after \(safetyLimit)")",
        blaming: outcome.failure))
    guard answered else { return }
    let asked = await journal.api.clock.waitForSleepersWithinSafetyLimit(count: 1)
    #expect(
      asked,
      guide.task(
        3,
        "a read whose stored copy is a day old should refresh behind its answer (GET /articles while the screen shows the stored list); the server saw \(journal.api.requests.count - 1) request(s) after the launch"
      ))
    guard asked else { return }
    journal.api.clock.advance(by: .seconds(30))
    let title = fixtureArticles[5].id
    let refreshed = await comesTrue {
      (try? await repository.latest())?.contains { $0.id == title && $0.title == "Changed overnight" } ?? false
    }
    #expect(
      refreshed,
      guide.task(
        3,
        "once the server answered the refresh behind the read, the store (and so the next latest()) should hold the overnight edit of \(title); after \(safetyLimit) it did not"
      ))
  }

  /// The screen sees what the store holds, never the server's answer, from
  /// the first read on: a read that had to wait for the server keeps its answer
  /// and gives what the store then holds.
  @Test func aFirstReadKeepsWhatItFetchedAndAnswersFromTheStore() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 3) else { return }
    // The server sends the journal oldest first and lists one article twice: the
    // store's list, newest first and once each, is not the answer's.
    let oldestFirst = fixtureArticles.reversed().compactMap { ArticleFixtures.record(id: $0.id) }
    let answer = JSONValue.array(oldestFirst + [oldestFirst[0]])
    journal.api.inject(.body(String(decoding: answer.encoded(), as: UTF8.self)), on: .articles, times: 1)
    let outcome = await Result { try await repository.latest() }
    let first = try? outcome.get()
    let sentIDs = fixtureArticles.reversed().map(\.id) + [fixtureArticles[fixtureArticles.count - 1].id]
    let asSent = first?.map(\.id) == sentIDs ? " (the answer as the server sent it, not the store's list)" : ""
    let matches = sameArticles(first, fixtureArticles)
    #expect(
      matches,
      guide.task(
        3,
        "a first read on an empty store waits for the server, keeps its answer in the store, and gives what the store then holds: the 12 articles newest first, each once. The server listed them oldest first and one twice; latest(): \(whatDiffers(outcome, from: fixtureArticles))\(asSent)",
        blaming: outcome.failure))
    guard outcome.failure == nil else { return }
    journal.api.inject(.offline)
    guard let second = journal.launch(for: 3) else { return }
    let later = await Result { try await second.latest() }
    let kept = sameArticles(try? later.get(), fixtureArticles)
    #expect(
      kept,
      guide.task(
        3,
        "what a first read fetched should be in the store: a second launch on the same file, offline, should read the 12 articles from it; latest(): \(whatDiffers(later, from: fixtureArticles))",
        blaming: later.failure))
  }

  @Test func offlineTheStoreStillAnswers() async {
    guard let journal = await Self.yesterday(), let repository = journal.launch(for: 3) else { return }
    journal.api.inject(.offline)
    let outcome = await Result { try await repository.latest() }
    let matches = sameArticles((try? outcome.get()), fixtureArticles)
    #expect(
      matches,
      guide.task(
        3,
        "offline, with yesterday's articles stored, latest() should give them (an offline-first app reads without a network); \(whatDiffers(outcome, from: fixtureArticles))",
        blaming: outcome.failure))
    let refresh = await Result { try await repository.refresh() }
    #expect(
      refresh.failure as? ArticleError == .offline,
      guide.task(
        3,
        "offline, refresh() should still say so with ArticleError.offline, so the screen can show a banner over the stored list; it gave \(brief(refresh))",
        blaming: refresh.failure))
  }

  @Test func offlineWithNothingStoredIsOffline() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 3) else { return }
    journal.api.inject(.offline)
    let outcome = await Result { try await repository.latest() }
    #expect(
      outcome.failure as? ArticleError == .offline,
      guide.task(
        3,
        "on a first launch offline there is nothing to show: latest() should throw ArticleError.offline, not an empty list the screen would take for an empty journal; it gave \(brief(outcome))",
        blaming: outcome.failure))
  }
}
