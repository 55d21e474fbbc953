import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// Task 6: a conflict ends by an explicit policy, and the outcome is visible.
@Suite(.timeLimit(.minutes(1)))
struct ConflictTests {
  /// Another client changes product 1 in the catalog (the catalog stamps a new
  /// version), after the device read it.
  private func theirEdit(_ harness: Harness) async throws {
    try await harness.api.theirEdit(id: 1, #"{"title": "Theirs"}"#)
  }

  /// The store holds page one; another client changes product 1 in the catalog;
  /// the user edits product 1 from the version read before, so the catalog answers 412.
  private func conflictingEdit(_ policy: ConflictPolicy) async throws -> Harness? {
    let harness = try Harness(conflictPolicy: policy)
    guard await attempt(2, "a refresh", for: 6, { try await harness.repository.refresh() }) != nil else { return nil }
    try await theirEdit(harness)
    var edited = try #require(realProducts.first)
    edited.title = "Mine"
    guard await attempt(4, "an update", for: 6, { try await harness.repository.update(edited) }) != nil else {
      return nil
    }
    guard await attempt(5, "a sync", for: 6, { try await harness.engine.syncNow() }) != nil else { return nil }
    _ = sentWithIfMatch(harness)
    return harness
  }

  /// Whether the first PUT carried If-Match; when it did not, records Task 4's
  /// issue: without it the catalog cannot tell its copy changed, and no 412 comes.
  private func sentWithIfMatch(_ harness: Harness) -> Bool {
    guard let first = harness.api.requests.first(where: { $0.method == "PUT" }), first.header("If-Match") == nil else {
      return true
    }
    Issue.record(
      guide.task(
        4,
        "the edit was sent without If-Match, so the catalog could not tell its copy changed (no 412): an update must wait in the outbox with the version of the product it started from, which the sync sends as If-Match"
      ))
    return false
  }

  private func product1Titles(_ harness: Harness) async throws -> (local: String?, server: String?) {
    let local = try await harness.store.product(id: 1)?.title
    let server = harness.api.products.first { $0["id"] == .number(1) }?["title"]?.stringValue
    return (local, server)
  }

  @Test func serverWinsKeepsTheCatalogsCopy() async throws {
    guard let harness = try await conflictingEdit(.serverWins) else { return }
    let (local, server) = try await product1Titles(harness)
    let conflicts = await harness.engine.conflicts
    #expect(
      local == server && local == "Theirs",
      guide.task(
        6, "expected the catalog's title on the device, got \(local ?? "none") here and \(server ?? "none") there"))
    #expect(
      conflicts == [ConflictResolution(productID: 1, policy: .serverWins, winner: .server)],
      guide.task(6, "expected the conflict listed with the server as winner, got \(conflicts)"))
  }

  @Test func clientWinsSendsTheEditAgain() async throws {
    guard let harness = try await conflictingEdit(.clientWins) else { return }
    let (local, server) = try await product1Titles(harness)
    let keys = harness.api.requests.filter { $0.method == "PUT" }.compactMap { $0.header("Idempotency-Key") }
    #expect(
      local == "Mine" && server == "Mine",
      guide.task(
        6, "expected \"Mine\" on the device and in the catalog, got \(local ?? "none") and \(server ?? "none")"))
    let entryKey = harness.entryKeys.first
    if keys.first != nil, keys.first != entryKey {
      Issue.record(
        guide.task(
          5,
          "finish this task first: the first PUT must carry its outbox entry's Idempotency-Key \(entryKey ?? "none"), got \(keys.first ?? "none")"
        ))
    } else {
      let ifMatch = harness.api.requests.filter { $0.method == "PUT" }.map { $0.header("If-Match") ?? "none" }
      #expect(
        keys.count == 2 && keys.first.map { keys.last?.hasPrefix($0 + "-over-") == true } == true
          && Set(ifMatch).count == 2,
        guide.task(
          6,
          "expected the edit sent again against the catalog's current version (a new If-Match) with the key \(keys.first ?? "K")-over-<that version>, got keys \(keys) and If-Match \(ifMatch)"
        ))
    }
    let conflicts = await harness.engine.conflicts
    #expect(
      conflicts.map(\.winner) == [.client], guide.task(6, "expected one conflict won by the client, got \(conflicts)"))
  }

  /// The catalog wins the first of two waiting edits of product 1; the second
  /// can't be sent yet. The device still shows the person's latest edit, since
  /// it waits: the catalog's copy replaces it once nothing of the product waits.
  @Test func aLaterEditStillWaitingStaysOnTheDeviceWhenTheCatalogWinsTheFirst() async throws {
    let harness = try Harness(conflictPolicy: .serverWins)
    guard try await twoStaleEditsOfProduct1(harness) else { return }
    // The first PUT meets the conflict; every later one finds the device offline.
    harness.api.inject(.status(412, message: "Changed since"), on: .update, times: 1)
    harness.api.inject(.offline, on: .update)
    let outcome = await Result { try await harness.engine.syncNow() }
    let local = try await harness.store.product(id: 1)
    let outbox = try await harness.store.outbox()
    let conflicts = await harness.engine.conflicts
    #expect(
      local?.title == "Mine" && local?.stock == 77 && outbox.map(\.state) == [.pending]
        && conflicts.map(\.winner) == [.server],
      guide.task(
        6,
        "expected the catalog to win the first edit (listed in conflicts) and the device to keep showing the second, still waiting (title Mine, stock 77, one entry pending), when the sync stopped offline before sending it: the catalog's copy replaces the person's only once no later change of the product waits; got \(local.map { "\($0.title), stock \($0.stock)" } ?? "none") on the device, outbox \(outbox.map(\.state)), conflicts \(conflicts), sync \(outcome)",
        blaming: outcome))
  }

  /// Reading the catalog's copy is a request like any other: a transient failure
  /// stops the sync with the edit still waiting; it is not a refusal.
  @Test func aConflictWhoseCatalogCopyCannotBeReadStopsTheSync() async throws {
    let harness = try Harness(conflictPolicy: .serverWins)
    guard await attempt(2, "a refresh", for: 6, { try await harness.repository.refresh() }) != nil else { return }
    var edited = try #require(realProducts.first)
    edited.title = "Mine"
    guard await attempt(4, "an update", for: 6, { try await harness.repository.update(edited) }) != nil else {
      return
    }
    try await theirEdit(harness)
    harness.api.inject(.status(503, message: "Busy"), on: .product)
    let outcome = await Result { try await harness.engine.syncNow() }
    guard sentWithIfMatch(harness) else { return }
    let outbox = try await harness.store.outbox()
    #expect(
      outcome.failure as? CatalogError == .server(status: 503) && outbox.map(\.state) == [.pending],
      guide.task(
        6,
        "expected a conflict whose catalog copy can't be read (503 after the retries) to stop the sync with .server(status: 503) and keep the edit waiting, as any transient failure does: only what retrying can't help is set aside; got \(outcome) and outbox \(outbox.map(\.state))",
        blaming: outcome))
  }

  /// A delete that meets a 412: the catalog's newer copy comes back, or the delete goes again against it.
  @Test(arguments: [ConflictPolicy.serverWins, .clientWins])
  func aDeleteOfAProductTheCatalogChangedFollowsThePolicy(policy: ConflictPolicy) async throws {
    let harness = try Harness(conflictPolicy: policy)
    guard await attempt(2, "a refresh", for: 6, { try await harness.repository.refresh() }) != nil else { return }
    try await theirEdit(harness)
    guard await attempt(4, "a delete", for: 6, { try await harness.repository.delete(id: 1) }) != nil else { return }
    guard await attempt(5, "a sync", for: 6, { try await harness.engine.syncNow() }) != nil else { return }
    let (local, server) = try await product1Titles(harness)
    let expected = policy == .serverWins ? "Theirs" : nil
    #expect(
      local == expected && server == expected,
      guide.task(
        6,
        "expected \(policy) to leave product 1 \(expected.map { "as \"\($0)\"" } ?? "deleted") on both sides, got \(local ?? "none") here and \(server ?? "none") there"
      ))
  }

  /// A 412 whose catalog copy is gone: the update can't win against nothing, and is set aside.
  @Test func anUpdateWhoseConflictingCopyIsGoneIsSetAside() async throws {
    let harness = try Harness(conflictPolicy: .clientWins)
    guard await attempt(2, "a refresh", for: 6, { try await harness.repository.refresh() }) != nil else { return }
    var edited = try #require(realProducts.first)
    edited.title = "Mine"
    guard await attempt(4, "an update", for: 6, { try await harness.repository.update(edited) }) != nil else { return }
    harness.api.inject(.status(412, message: "Changed since"), on: .update, times: 1)
    harness.api.inject(.status(404, message: "Product with id '1' not found"), on: .product, times: 1)
    let outcome = await Result { try await harness.engine.syncNow() }
    let outbox = try await harness.store.outbox().map(\.state)
    let setAside = outbox.count == 1 && outbox.allSatisfy { if case .setAside = $0 { true } else { false } }
    #expect(
      outcome.failure == nil && setAside,
      guide.task(
        6,
        "expected an update whose conflicting copy the catalog no longer has (404 when the copy is read) to be set aside, as a write the catalog refuses for good is, and the sync to go on: got \(outcome) and outbox \(outbox)",
        blaming: outcome))
  }
}

/// The store holds page one; another client retitles product 1 "Theirs"; the
/// person then edits product 1 twice from the version read before ("Mine", then
/// stock 77), so two changes wait on a stale version. `false` when a step
/// failed (already recorded, at the calling test's line).
func twoStaleEditsOfProduct1(_ harness: Harness, sourceLocation: SourceLocation = #_sourceLocation) async throws
  -> Bool
{
  let refresh = { try await harness.repository.refresh() }
  guard await attempt(2, "a refresh", for: 6, sourceLocation: sourceLocation, refresh) != nil else { return false }
  try await harness.api.theirEdit(id: 1, #"{"title": "Theirs"}"#)
  var edited = try #require(realProducts.first, sourceLocation: sourceLocation)
  edited.title = "Mine"
  let first = edited
  guard
    await attempt(
      4, "an update", for: 6, sourceLocation: sourceLocation, { try await harness.repository.update(first) })
      != nil
  else { return false }
  edited.stock = 77
  let second = edited
  return await attempt(
    4, "a second update", for: 6, sourceLocation: sourceLocation, { try await harness.repository.update(second) })
    != nil
}
