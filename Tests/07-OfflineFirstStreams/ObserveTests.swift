import CourseSQLite
import FakeCatalog
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// Task 2: the store is the source of truth; the network only fills it.
@Suite(.timeLimit(.minutes(1)))
struct ObserveTests {
  @Test func observeGivesTheStoredListThenTheRefreshedOne() async throws {
    guard await requireTask1(for: 2) else { return }
    let harness = try Harness()
    guard await requireObserveStartsWithTheStoredList(harness, for: 2),
      let stream = await attempt(2, "a stream of the stored list", { try await harness.repository.observe() })
    else { return }
    var values = stream.makeAsyncIterator()
    let cached = await values.next()
    #expect(cached == [], guide.task(2, "expected the empty store's list first, [], got \(titles(cached))"))
    guard await attempt(2, "a refresh", { try await harness.repository.refresh() }) != nil else { return }
    await harness.store.changes.finish()  // What was published stays readable; a missing value reads as the end.
    let refreshed = await values.next()
    let expected = realProducts.prefix(30).sorted { ($0.updatedAt, $1.id) > ($1.updatedAt, $0.id) }
    #expect(
      refreshed?.count == 30 && Set(refreshed ?? []) == Set(expected),
      guide.task(2, "expected the first page's 30 products after refresh(), got \(titles(refreshed))"))
  }

  @Test func aSecondObserverStartsWithTheCurrentList() async throws {
    guard await requireTask1(for: 2) else { return }
    let harness = try Harness()
    guard await attempt(2, "a refresh", { try await harness.repository.refresh() }) != nil,
      let stream = await attempt(2, "a stream", { try await harness.repository.observe() })
    else { return }
    var values = stream.makeAsyncIterator()
    let first = await values.next()
    #expect(
      first?.count == 30,
      guide.task(
        2, "expected an observer that starts after a refresh to get the 30 stored products first, got \(titles(first))")
    )
  }

  @Test func aFailedRefreshChangesNothing() async throws {
    guard await requireTask1(for: 2) else { return }
    let harness = try Harness()
    harness.api.inject(.offline)
    let outcome = await Result { try await harness.repository.refresh() }
    let stored = try await harness.store.products()
    #expect(
      outcome.failure != nil && stored.isEmpty,
      guide.task(
        2, "expected refresh() offline to throw and store nothing, got \(outcome) and \(stored.count) products",
        blaming: outcome))
    #expect(
      outcome.failure as? CatalogError == .offline,
      guide.task(
        2, "expected the domain error .offline from stage 06's remote source, got \(outcome)", blaming: outcome))
  }

  @Test func aRefreshWritesThroughInOneTransaction() async throws {
    guard await requireTask1(for: 2) else { return }
    let harness = try Harness()
    guard await requireObserveStartsWithTheStoredList(harness, for: 2),
      let stream = await attempt(2, "a stream", { try await harness.repository.observe() })
    else { return }
    var values = stream.makeAsyncIterator()
    _ = await values.next()
    guard await attempt(2, "a refresh", { try await harness.repository.refresh() }) != nil else { return }
    await harness.store.changes.finish()
    var seen: [Int] = []
    while let value = await values.next() { seen.append(value.count) }
    #expect(
      seen == [30],
      guide.task(
        2,
        "expected one new value for the whole page (one transaction, published after it commits), got list sizes \(seen)"
      ))
  }

  /// A list that rolls back must never reach an observer: `commit(_:)` publishes after the COMMIT succeeds.
  @Test func aCommitThatFailsPublishesNothing() async throws {
    guard await requireTask1(for: 2) else { return }
    let harness = try Harness()
    guard await attempt(2, "a refresh", { try await harness.repository.refresh() }) != nil,
      let stream = await attempt(2, "a stream", { try await harness.repository.observe() })
    else { return }
    var values = stream.makeAsyncIterator()
    _ = await values.next()
    let outcome = await Result { try await harness.store.renameProduct1FailingAtCommit() }
    await harness.store.changes.finish()
    var seen: [String] = []
    while let value = await values.next() { seen.append(value.first { $0.id == 1 }?.title ?? "no product 1") }
    let stored = try await harness.store.product(id: 1)?.title
    #expect(
      outcome.failure != nil && seen.isEmpty && stored != "Rolled back",
      guide.task(
        2,
        "expected a transaction whose COMMIT fails to publish nothing (publish after database.transaction returns, never inside it), got product 1 titled \(seen) for observers and \(stored ?? "none") stored",
        blaming: outcome))
  }
}

extension OfflineProductStore {
  /// Renames product 1 in `commit(_:)`; the COMMIT then fails on a deferred foreign key, and SQLite rolls back.
  fileprivate func renameProduct1FailingAtCommit() throws {
    try database.execute("PRAGMA foreign_keys = ON")
    defer { try? database.execute("PRAGMA foreign_keys = OFF") }
    try database.execute("CREATE TEMP TABLE parent (id INTEGER PRIMARY KEY)")
    try database.execute(
      "CREATE TEMP TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)")
    try commit {
      try database.execute("UPDATE products SET title = 'Rolled back' WHERE id = 1")
      try database.execute("INSERT INTO child VALUES (42)")
    }
  }
}
