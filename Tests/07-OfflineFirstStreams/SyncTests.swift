import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// Task 5: the outbox reaches the catalog in order, once, and survives a restart.
@Suite(.timeLimit(.minutes(1)))
struct SyncTests {
  /// A store holding the first page, with an update of product 1, an add and a delete of product 2 waiting.
  private func threeWaitingWrites(_ harness: Harness) async throws -> Bool {
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil else { return false }
    var edited = try #require(realProducts.first)
    edited.stock = 1
    return await attempt(4, "three local writes", for: 5) { () async throws -> Void in
      try await harness.repository.update(edited)
      try await harness.repository.add(draft())
      try await harness.repository.delete(id: 2)
    } != nil
  }

  private func keys(_ harness: Harness) -> [String] {
    harness.api.requests.filter { $0.method != "GET" }.map { $0.header("Idempotency-Key") ?? "none" }
  }

  @Test func theOutboxIsSentInOrderWithItsKeys() async throws {
    let harness = try Harness()
    guard try await threeWaitingWrites(harness) else { return }
    let expectedKeys = try await harness.store.outbox().map(\.idempotencyKey)
    guard await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil else { return }
    #expect(
      harness.writes == ["PUT /products/1", "POST /products/add", "DELETE /products/2"],
      guide.task(5, "expected the writes in the order they were made, got \(harness.writes)"))
    #expect(
      keys(harness) == expectedKeys,
      guide.task(
        5, "expected each request's Idempotency-Key to be its outbox entry's key \(expectedKeys), got \(keys(harness))")
    )
    let left = try await harness.store.outbox()
    #expect(left.isEmpty, guide.task(5, "expected an empty outbox after the sync, got \(left)"))
  }

  @Test func anAddedProductTakesTheCatalogsID() async throws {
    let harness = try Harness()
    guard try await threeWaitingWrites(harness) else { return }
    guard await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil else { return }
    let ids = try await harness.store.products().filter { $0.title == "Kettle" }.map(\.id)
    let catalogID = harness.api.catalogID(title: "Kettle")
    #expect(
      ids.count == 1 && ids.first == catalogID,
      guide.task(
        5,
        "expected the kettle stored once, with the id the catalog chose (\(catalogID.map(String.init) ?? "none")), got ids \(ids)"
      ))
    #expect(
      harness.api.products.count == 194,
      guide.task(
        5, "expected the catalog to hold 194 products (one added, one deleted), got \(harness.api.products.count)"))
  }

  @Test func everyRetryCarriesTheSameKey() async throws {
    let harness = try Harness()
    guard try await threeWaitingWrites(harness) else { return }
    harness.api.inject(.status(503, message: "Busy"), on: .update, times: 2)
    guard await attempt(5, "a sync that retries", { try await harness.engine.syncNow() }) != nil else { return }
    let sent = keys(harness)
    #expect(
      sent.count == 5 && Set(sent.prefix(3)).count == 1 && Set(sent).count == 3,
      guide.task(
        5, "expected the update three times with one key (two 503s, then 200), then the others, got keys \(sent)"))
  }

  @Test func aWriteWhoseAnswerWasLostIsAppliedOnce() async throws {
    let harness = try Harness(remote: { LosingAnswers($0, times: 1) })
    guard await attempt(4, "an add", for: 5, { try await harness.repository.add(draft()) }) != nil else { return }
    guard await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil else { return }
    let kettles = harness.api.products.filter { $0["title"]?.stringValue == "Kettle" }.count
    let sent = keys(harness)
    #expect(
      kettles == 1 && sent.count == 2 && Set(sent).count == 1,
      guide.task(
        5, "expected the add sent twice with one key and applied once, got \(kettles) kettles from keys \(sent)"))
  }

  @Test func aTransientFailureStopsTheSyncWithoutReordering() async throws {
    let harness = try Harness()
    guard try await threeWaitingWrites(harness) else { return }
    harness.api.inject(.status(503, message: "Down"))
    let outcome = await Result { try await harness.engine.syncNow() }
    let left = try await harness.store.outbox().map(\.kind)
    guard outcome.failure as? CatalogError == .server(status: 503) else {
      Issue.record(
        guide.task(
          5, "expected syncNow() to throw the last failure, .server(status: 503), after its retries, got \(outcome)",
          blaming: outcome))
      return
    }
    #expect(
      harness.writes == Array(repeating: "PUT /products/1", count: 3) && left == [.update, .add, .delete],
      guide.task(
        5,
        "expected three attempts of the first write only and all three entries kept in order, got \(harness.writes) and \(left)",
        blaming: outcome))
  }

  /// A refused session is not a refused write: after a 401 (an expired token,
  /// say), setting aside every entry would lose the whole outbox.
  @Test func aRefusedSessionStopsTheSyncAndSetsNothingAside() async throws {
    let harness = try Harness()
    guard try await threeWaitingWrites(harness) else { return }
    harness.api.inject(.status(401, message: "Token expired"))
    let outcome = await Result { try await harness.engine.syncNow() }
    let outbox = try await harness.store.outbox()
    #expect(
      outcome.failure as? CatalogError == .unauthorized && harness.writes == ["PUT /products/1"]
        && outbox.map(\.kind) == [.update, .add, .delete] && outbox.allSatisfy { $0.state == .pending },
      guide.task(
        5,
        "a 401 is about the session, not the write: expected syncNow() to throw .unauthorized after one attempt and keep all three entries pending, in order; got \(outcome), writes \(harness.writes), outbox \(outbox.map { "\($0.kind) \($0.state)" })",
        blaming: outcome))
  }

  @Test func aRejectedWriteIsSetAsideAndTheNextOneGoes() async throws {
    let harness = try Harness()
    guard try await threeWaitingWrites(harness) else { return }
    harness.api.inject(.status(422, message: "Stock can't be 1"), on: .update, times: 1)
    do {
      try await harness.engine.syncNow()
    } catch {
      Issue.record(
        guide.task(
          5, "expected the 422 write to be set aside and the next one sent; syncNow() threw \(error) instead",
          blaming: error))
      return
    }
    let outbox = try await harness.store.outbox()
    #expect(
      harness.writes == ["PUT /products/1", "POST /products/add", "DELETE /products/2"],
      guide.task(5, "expected the refused update once, then the add and the delete, got \(harness.writes)"))
    #expect(
      outbox.count == 1 && outbox.first?.kind == .update && outbox.first?.state != .pending,
      guide.task(5, "expected the update set aside with its error, the rest sent, got \(outbox)"))
    if case .setAside(let reason)? = outbox.first?.state {
      #expect(
        reason.contains("422"), guide.task(5, "expected the reason to keep the error, rejected 422, got \(reason)"))
    }
  }

  @Test func aDeleteOfAProductAlreadyGoneIsDone() async throws {
    let harness = try Harness()
    guard await attempt(4, "a delete", for: 5, { try await harness.repository.delete(id: 4_242) }) != nil,
      await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil
    else { return }
    let outbox = try await harness.store.outbox()
    #expect(outbox.isEmpty, guide.task(5, "expected a delete answered 404 to count as done, got \(outbox)"))
  }

  /// Only a delete answered 404 is done: the product is gone either way. An
  /// update of a product the catalog lacks lost the user's change; keep it, set aside.
  @Test func anUpdateTheCatalogAnswers404IsSetAside() async throws {
    let harness = try Harness()
    let stranger = try #require(realProducts.first).withID(4_242)
    guard await attempt(4, "an update", for: 5, { try await harness.repository.update(stranger) }) != nil,
      await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil
    else { return }
    let outbox = try await harness.store.outbox()
    #expect(
      outbox.count == 1 && outbox.first?.state != .pending,
      guide.task(
        5,
        "expected an update answered 404 to be set aside with its error, not done (only a delete of what is gone is done), got outbox \(outbox.map(\.state))"
      ))
  }

  @Test func aRestartReplaysTheOutboxOnce() async throws {
    let file = TemporaryDatabase()
    let api = FakeCatalogAPI()
    do {
      // Before the restart: the add reaches the catalog, but every answer is lost.
      let before = try Harness(api: api, path: file.path, remote: { LosingAnswers($0, times: 99) })
      guard await attempt(4, "an add", for: 5, { try await before.repository.add(draft()) }) != nil,
        await attempt(4, "an update", for: 5, { try await before.repository.update(try #require(realProducts.last)) })
          != nil
      else { return }
      let outcome = await Result { try await before.engine.syncNow() }
      #expect(
        outcome.failure != nil,
        guide.task(5, "expected the first sync to fail on lost answers, got \(outcome)", blaming: outcome))
    }
    let after = try Harness(api: api, path: file.path)
    let waiting = try await after.store.outbox().map(\.kind)
    #expect(
      waiting == [.add, .update],
      guide.task(5, "expected the restarted store to find the add and the update waiting, got \(waiting)"))
    guard await attempt(5, "a sync after the restart", { try await after.engine.syncNow() }) != nil else { return }
    let kettles = api.products.filter { $0["title"]?.stringValue == "Kettle" }.count
    let left = try await after.store.outbox()
    #expect(
      kettles == 1 && left.isEmpty,
      guide.task(
        5,
        "expected the add applied once across 4 sends with one key, and an empty outbox, got \(kettles) kettles and \(left.count) entries"
      ))
  }
}
