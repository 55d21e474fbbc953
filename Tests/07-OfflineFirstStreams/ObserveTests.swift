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
    let reader = StreamReader(stream)
    defer { reader.cancel() }
    _ = await reader.waitFor(count: 1)
    let cached = reader.values.first
    #expect(cached == [], guide.task(2, "expected the empty store's list first, [], got \(titles(cached))"))
    guard await attempt(2, "a refresh", { try await harness.repository.refresh() }) != nil else { return }
    let refreshed = await reader.waitFor(count: 2) ? reader.values[1] : nil
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
    let reader = StreamReader(stream)
    defer { reader.cancel() }
    let first = await reader.waitFor(count: 1) ? reader.values.first : nil
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

  /// A disk that fills after five products of the page: the page is stored whole or not at all.
  @Test func aPageTheDiskRefusesHalfwayStoresNoneOfIt() async throws {
    guard await requireTask1(for: 2) else { return }
    let file = TemporaryDatabase()
    let harness = try Harness(path: file.path)
    try file.refuseProducts(after: 5)
    let outcome = await Result { try await harness.repository.refresh() }
    let stored = try await harness.store.products()
    #expect(
      outcome.failure != nil && stored.isEmpty,
      guide.task(
        2,
        "expected a refresh whose page the disk refused after 5 products to throw and store none of it (a page is stored whole or not at all), got \(outcome) and \(stored.count) products stored",
        blaming: outcome))
  }

  @Test func aRefreshWritesThroughInOneTransaction() async throws {
    guard await requireTask1(for: 2) else { return }
    let harness = try Harness()
    guard await requireObserveStartsWithTheStoredList(harness, for: 2),
      let stream = await attempt(2, "a stream", { try await harness.repository.observe() })
    else { return }
    let reader = StreamReader(stream)
    defer { reader.cancel() }
    _ = await reader.waitFor(count: 1)
    guard await attempt(2, "a refresh", { try await harness.repository.refresh() }) != nil else { return }
    let seen = await reader.settled(count: 2).dropFirst().map(\.count)
    #expect(
      seen == [30],
      guide.task(
        2,
        "expected one new value for the whole page (one transaction, published after it commits), got list sizes \(seen)"
      ))
  }

  /// A list that rolls back must never reach an observer: a change is published after its COMMIT succeeds.
  @Test func aCommitThatFailsPublishesNothing() async throws {
    guard await requireTask1(for: 2) else { return }
    let file = TemporaryDatabase()
    let harness = try Harness(path: file.path)
    guard await attempt(2, "a refresh", { try await harness.repository.refresh() }) != nil,
      let stream = await attempt(2, "a stream", { try await harness.repository.observe() })
    else { return }
    let reader = StreamReader(stream)
    defer { reader.cancel() }
    _ = await reader.waitFor(count: 1)
    // The catalog renames product 1; storing the next page then fails at COMMIT, and SQLite rolls it back.
    try await harness.api.theirEdit(id: 1, #"{"title": "Rolled back"}"#)
    try file.failCommitsWriting(productID: 1)
    let outcome = await Result { try await harness.repository.refresh() }
    let seen = await reader.settled(count: 1).dropFirst().map { $0.first { $0.id == 1 }?.title ?? "no product 1" }
    let stored = try await harness.store.product(id: 1)?.title
    #expect(
      outcome.failure != nil && seen.isEmpty && stored != "Rolled back",
      guide.task(
        2,
        "expected a transaction whose COMMIT fails to throw and publish nothing (publish once the transaction has committed, never inside it), got \(outcome.failure.map { "error \(short($0))" } ?? "no error"), product 1 titled \(seen) for observers and \(stored ?? "none") stored",
        blaming: outcome))
  }
}
