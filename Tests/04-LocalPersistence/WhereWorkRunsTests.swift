import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

/// Task 6: the main actor draws the screen. It may await the store, but the
/// store's SQLite must run elsewhere, whoever calls it.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct WhereWorkRunsTests {
  @Test func savingAndReadingAPageRunOffTheMainActor() async throws {
    let file = TemporaryDatabase()
    let local = try await openDatabase(file.path)
    let page = Array(try realProducts().prefix(30))
    // From here, every statement any connection to the file runs is recorded with where it ran.
    let watch = SQLiteMainActorWatch(path: file.path)
    // Called from this main-actor test, as a main-actor view model or repository would call it.
    try await guide.attempt(4, "saving a page of 30 products from the main actor") { try await local.save(page) }
    let read = try await guide.attempt(5, "reading them back from the main actor") { try await local.products() }
    try #require(
      read.count == 30 && watch.statementCount > 0,
      guide.task(
        4,
        "a page of 30 saved into \(file.path) should read back as 30 products through SQLite; got \(read.count) products and \(watch.statementCount) statement(s) run on that file"
      ))
    let onMainActor = watch.statementsOnMainActor
    #expect(
      onMainActor.isEmpty,
      guide.task(
        6,
        "expected every SQLite statement of save(_:) and products() to run off the main actor when the main actor calls them, but \(onMainActor.count) of \(watch.statementCount) ran on it, the first: \(onMainActor.first.map { $0.prefix(80) } ?? ""). A nonisolated async function runs on its caller's actor (nonisolated(nonsending), on in a new Xcode 26 app target)"
      ))
  }
}
