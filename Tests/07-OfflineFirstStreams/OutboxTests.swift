import CourseFixtures
import CourseSQLite
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// Task 4: the user's changes land in the store and the outbox together, online or not.
@Suite(.timeLimit(.minutes(1)))
struct OutboxTests {
  /// A store holding the first page, and a catalog that is now offline.
  private func offlineWithFirstPage() async throws -> Harness? {
    let harness = try Harness()
    guard await attempt(2, "a refresh", for: 4, { try await harness.repository.refresh() }) != nil else { return nil }
    harness.api.inject(.offline)
    return harness
  }

  @Test func anOfflineEditIsVisibleAtOnce() async throws {
    guard await requireTask1(for: 4), let harness = try await offlineWithFirstPage(),
      let stream = await attempt(2, "a stream", for: 4, { try await harness.repository.observe() })
    else { return }
    let reader = StreamReader(stream)
    defer { reader.cancel() }
    _ = await reader.waitFor(count: 1)
    var edited = try #require(realProducts.first)
    edited.title = "Mascara, on sale"
    guard await attempt(4, "an update offline", { try await harness.repository.update(edited) }) != nil else { return }
    let seen = await reader.waitFor(count: 2) ? reader.values[1] : nil
    let shown = seen?.first { $0.id == edited.id }
    #expect(
      shown?.title == "Mascara, on sale" && shown?.updatedAt == testDate,
      guide.task(
        4,
        "expected observers to see product 1 at once as \"Mascara, on sale\", updatedAt \(testDate) (now), got \(shown.map { "\"\($0.title)\", updatedAt \($0.updatedAt)" } ?? "no product 1")"
      ))
    #expect(harness.writes.isEmpty, guide.task(4, "expected no request for a local write, got \(harness.writes)"))
  }

  @Test func addUpdateAndDeleteQueueInOrderWithTheirOwnKeys() async throws {
    guard let harness = try await offlineWithFirstPage() else { return }
    var edited = try #require(realProducts.first)
    edited.stock = 1
    guard let added = await attempt(4, "an add", { try await harness.repository.add(draft()) }),
      await attempt(4, "an update", { try await harness.repository.update(edited) }) != nil,
      await attempt(4, "a delete", { try await harness.repository.delete(id: 2) }) != nil
    else { return }
    let outbox = try await harness.store.outbox()
    let stored = try await harness.store.products()
    let summary = outbox.map { "\($0.kind) \($0.productID)" }
    // Each edit starts from the catalog's version of the copy it changed, read before the change.
    let bases = outbox.map { $0.baseVersion ?? "none" }
    let expectedBases = ["none"] + [1, 2].map { id in realProducts.first { $0.id == id }?.version ?? "?" }
    #expect(
      bases == expectedBases,
      guide.task(
        4,
        "expected the outbox's base versions \(expectedBases) (none for the add; the catalog's version of the stored copy, read before the update and the delete change it), got \(bases)"
      ))
    #expect(
      (added?.id ?? 0) < 0 && summary == ["add \(added?.id ?? 0)", "update 1", "delete 2"],
      guide.task(
        4, "expected an add with a temporary negative id, then update 1, then delete 2 in the outbox, got \(summary)"))
    #expect(
      Set(outbox.map(\.idempotencyKey)).count == 3 && outbox.allSatisfy { $0.state == .pending },
      guide.task(4, "expected three pending entries with three different idempotency keys, got \(outbox)"))
    #expect(
      stored.contains { $0.title == "Kettle" } && !stored.contains { $0.id == 2 } && stored.count == 30,
      guide.task(
        4, "expected the store to hold the kettle and not product 2 (30 products), got \(stored.count) products"))
  }

  /// Each add takes a temporary id of its own, below every id on the device, so
  /// a second add never overwrites the first before the catalog gives real ids.
  @Test func twoAddsAreTwoProductsUntilTheCatalogNumbersThem() async throws {
    let harness = try Harness()
    guard
      await attempt(
        4, "two adds",
        { () async throws -> Void in
          try await harness.repository.add(draft(title: "Kettle"))
          try await harness.repository.add(draft(title: "Toaster"))
        }) != nil
    else { return }
    let before = try await harness.store.products().map { "\($0.title) \($0.id)" }.sorted()
    let outbox = try await harness.store.outbox()
    let ids = try await harness.store.products().map(\.id)
    #expect(
      before.count == 2 && Set(ids).count == 2 && ids.allSatisfy { $0 < 0 } && outbox.map(\.kind) == [.add, .add],
      guide.task(
        4,
        "expected two products with two different negative temporary ids and two add entries, got \(before) and \(outbox.map(\.kind))"
      ))
    guard await attempt(5, "a sync", for: 4, { try await harness.engine.syncNow() }) != nil else { return }
    let after = try await harness.store.products().map { "\($0.title) \($0.id)" }.sorted()
    // The catalog picks the ids; a client cannot predict them.
    let catalogs = ["Kettle", "Toaster"].map { title in
      "\(title) \(harness.api.catalogID(title: title) ?? 0)"
    }
    #expect(
      after == catalogs,
      guide.task(4, "expected the ids the catalog gave after the sync, \(catalogs), got \(after)"))
  }

  @Test func aFailureBetweenTheStoreAndTheOutboxLeavesNeither() async throws {
    let file = TemporaryDatabase()
    let harness = try Harness(path: file.path)
    guard await attempt(2, "a refresh", for: 4, { try await harness.repository.refresh() }) != nil else { return }
    // Another connection makes every outbox insert fail, after the product row was written.
    try SQLiteConnection(path: file.path).execute(
      "CREATE TRIGGER refuse_outbox BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'outbox refused'); END;")
    var edited = try #require(realProducts.first)
    edited.title = "Half written"
    let outcome = await Result { try await harness.repository.update(edited) }
    let stored = try await harness.store.product(id: edited.id)
    let outbox = try await harness.store.outbox()
    #expect(
      outcome.failure as? CatalogError == .storage(.refused),
      guide.task(4, "expected update(_:) to throw CatalogError.storage(.refused), got \(outcome)", blaming: outcome))
    #expect(
      stored?.title == realProducts.first?.title && outbox.isEmpty,
      guide.task(
        4,
        "expected neither the new title nor an outbox entry (one transaction), got title \(stored?.title ?? "none") and \(outbox.count) entries",
        blaming: outcome))
  }

  @Test func aRefreshKeepsAnEditThatIsWaiting() async throws {
    guard let harness = try await offlineWithFirstPage() else { return }
    var edited = try #require(realProducts.first)
    edited.title = "Mine"
    guard await attempt(4, "an update", { try await harness.repository.update(edited) }) != nil else { return }
    harness.api.clearFaults()
    guard await attempt(2, "a refresh", for: 4, { try await harness.repository.refresh() }) != nil else { return }
    let stored = try await harness.store.product(id: edited.id)
    #expect(
      stored?.title == "Mine",
      guide.task(4, "expected a refresh to keep the user's waiting edit \"Mine\", got \(stored?.title ?? "no product")")
    )
  }
}

extension OfflineProductStore {
  /// One stored product, for the tests.
  func product(id: Int) throws -> Product? {
    try products().first { $0.id == id }
  }
}
