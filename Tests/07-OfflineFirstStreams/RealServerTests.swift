import CourseClock
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

/// Tasks 4 to 6 against a catalog that behaves like a real server: answers lost
/// after the write was applied, pages that arrive late, ids the client cannot
/// predict, a version check on every write, and two syncs asked for at once.
@Suite(.timeLimit(.minutes(1)))
struct RealServerTests {
  /// A catalog small enough that an added product is on page one.
  private static let small = Array(ProductFixtures.records.prefix(3))

  private func kettles(_ harness: Harness) async throws -> [Int] {
    try await harness.store.products().filter { $0.title == "Kettle" }.map(\.id)
  }

  /// The catalog applies the add, its answer is lost and the retries meet no
  /// network; a refresh then brings the catalog's copy before the next sync.
  @Test func anAddWhoseAnswerWasLostThenARefreshIsOneProduct() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil,
      await attempt(4, "an add", for: 5, { try await harness.repository.add(draft()) }) != nil
    else { return }
    harness.api.inject(.answerLost, on: .add, times: 1)
    harness.api.inject(.offline, on: .add)
    let stopped = await Result { try await harness.engine.syncNow() }
    guard stopped.failure != nil else {
      Issue.record(guide.task(5, "expected the sync to stop while the catalog can't be reached, got \(stopped)"))
      return
    }
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil else { return }
    let meanwhile = try await kettles(harness)
    #expect(
      meanwhile.contains { $0 < 0 },
      guide.task(
        4,
        "expected the kettle added here to stay, under its temporary id, while its add waits to be sent again, got ids \(meanwhile)"
      ))
    harness.api.clearFaults()
    guard await attempt(5, "a sync after the network is back", { try await harness.engine.syncNow() }) != nil else {
      return
    }
    let after = try await kettles(harness)
    let outbox = try await harness.store.outbox()
    let expected = harness.api.catalogID(title: "Kettle")
    let added = harness.api.products.filter { $0["title"]?.stringValue == "Kettle" }.count
    #expect(
      after.count == 1 && after.first == expected && outbox.isEmpty && added == 1,
      guide.task(
        5,
        "expected one kettle under the catalog's id \(expected.map(String.init) ?? "none"), an empty outbox, and one kettle in the catalog; got ids \(after), outbox \(outbox.map(\.state)), \(added) in the catalog"
      ))
  }

  /// A page may bring the catalog's copy of an add before the add's answer does.
  @Test func anAddsAnswerAfterAPageWithItsCopyJamsNothing() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(4, "an add", for: 5, { try await harness.repository.add(draft()) }) != nil else { return }
    var edited = draft()
    edited.stock = 9
    harness.api.inject(.answerLost, on: .add, times: 1)
    harness.api.inject(.offline, on: .add)
    let stopped = await Result { try await harness.engine.syncNow() }
    guard guide.unfinishedTask(in: stopped) == nil else {
      Issue.record(guide.task(5, "expected a sync that stops while the catalog can't be reached", blaming: stopped))
      return
    }
    // Another client renames the new product, so nothing on the device can tell
    // that the page's copy is the add: it is stored under the catalog's id.
    guard let id = harness.api.catalogID(title: "Kettle") else {
      Issue.record(
        guide.task(5, "expected the add to reach the catalog before its answer was lost; the catalog holds no kettle"))
      return
    }
    try await harness.api.theirEdit(id: id, #"{"title": "Kettle, renamed"}"#)
    let copy = try await harness.remoteProduct(id: id)
    guard await attempt(2, "a refresh that brings the copy", for: 5, { try await harness.repository.refresh() }) != nil
    else { return }
    harness.api.clearFaults()
    guard await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil else { return }
    let after = try await harness.store.products().filter { $0.title.hasPrefix("Kettle") }.map(\.id)
    let outbox = try await harness.store.outbox()
    #expect(
      after == [copy.id] && outbox.isEmpty,
      guide.task(
        5,
        "expected the add's answer to name the copy already stored, so it gives way (one kettle, id \(copy.id)) and the outbox empties, got ids \(after) and outbox \(outbox.map(\.state))"
      ))
  }

  /// A temporary id, once handed out, is never handed out again, whatever was
  /// added or deleted since: the outbox may still name it. Add, delete, add
  /// catches an id taken from the lowest stored one; add, add, delete, add catches
  /// one counted from the products the device holds.
  @Test func aTemporaryIDIsNeverHandedOutTwice() async throws {
    let harness = try Harness(products: Self.small)
    var ids: [String: Int] = [:]
    let steps: [(add: String?, delete: String?)] = [
      ("Kettle", nil), (nil, "Kettle"), ("Toaster", nil), ("Lamp", nil), (nil, "Toaster"), ("Mug", nil),
    ]
    for (title, deleted) in steps {
      if let title {
        guard
          let added = await attempt(4, "an add of \(title)", { try await harness.repository.add(draft(title: title)) })
        else { return }
        ids[title] = added?.id ?? 0
      } else if let deleted {
        guard
          await attempt(4, "a delete of \(deleted)", { try await harness.repository.delete(id: ids[deleted] ?? 0) })
            != nil
        else { return }
      }
    }
    let handedOut = ["Kettle", "Toaster", "Lamp", "Mug"].map { "\($0) \(ids[$0] ?? 0)" }
    #expect(
      Set(ids.values).count == 4 && ids.values.allSatisfy { $0 < 0 },
      guide.task(
        4,
        "expected four different negative temporary ids (add Kettle, delete it, add Toaster, add Lamp, delete Toaster, add Mug: the outbox still names every deleted one), got \(handedOut)"
      ))
    guard Set(ids.values).count == 4,
      await attempt(5, "a sync", for: 4, { try await harness.engine.syncNow() }) != nil
    else { return }
    let titles = ["Kettle", "Toaster", "Lamp", "Mug"]
    let device = try await harness.store.products().map(\.title).filter(titles.contains).sorted()
    let catalog = titles.filter { harness.api.catalogID(title: $0) != nil }.sorted()
    let saw = await harness.whatTheCatalogSaw()
    #expect(
      device == ["Lamp", "Mug"] && catalog == ["Lamp", "Mug"],
      guide.task(
        5,
        "expected Lamp and Mug on the device and in the catalog after the sync (four adds, two of them deleted), got \(device) on the device and \(catalog) in the catalog, and \(saw)"
      ))
  }

  /// A page fetched before the edit was sent, and saved after, must not bring the old title back.
  @Test func aRefreshInFlightDuringASyncKeepsTheSyncedEdit() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil else { return }
    var edited = try #require(realProducts.first)
    edited.title = "Mine"
    guard await attempt(4, "an update", for: 5, { try await harness.repository.update(edited) }) != nil else { return }
    harness.api.inject(.latency(.seconds(5)), on: .list, times: 1)
    let refresh = Task { try await harness.repository.refresh() }
    await harness.clock.waitForSleepers(whileRunning: refresh)
    let revisionBefore = try await harness.store.revision()
    guard await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil else {
      refresh.cancel()
      return
    }
    let revisionAfter = try await harness.store.revision()
    harness.clock.advance(by: .seconds(5))
    _ = await Result { try await refresh.value }
    let local = try await harness.store.product(id: 1)?.title
    let server = harness.api.products.first { $0["id"] == .number(1) }?["title"]?.stringValue
    let got = "got \(local ?? "none") and \(server ?? "none")"
    // Two halves must hold: the sync's outcome counts as a change (Task 5), and a page never undoes one (Task 4).
    #expect(
      local == "Mine" && server == "Mine",
      revisionAfter == revisionBefore
        ? guide.task(
          5,
          "expected \"Mine\" on the device and in the catalog after a page fetched before the sync was saved after it: what the catalog answered to a sent entry is a change of the device's copy, newer than that page, yet revision() was \(revisionBefore) before the sync and after it (\"Pages through the store\"); \(got)"
        )
        : guide.task(
          4,
          "expected \"Mine\" on the device and in the catalog after a page fetched before the sync was saved after it: savePage(_:fetchedAt:) must keep a product the device changed after the revision the page was fetched at (\"Pages through the store\"); \(got)"
        ))
  }

  /// What an edit may carry that the store could not read back, or the catalog would refuse.
  static let unstorable: [(String, @Sendable (inout Product) -> Void)] = [
    ("a NUL in the title", { $0.title = "Nul\u{0} in the title" }),  // Shown escaped, as "Nul\0 in the title".
    ("a blank title", { $0.title = " " }),
    ("a price that is NaN", { $0.price = .nan }),
    ("a negative price", { $0.price = -1 }),
    ("a rating that is not finite", { $0.rating = .infinity }),
    ("a negative stock", { $0.stock = -2 }),
  ]

  @Test(arguments: unstorable.indices)
  func aLocalEditTheBoundaryRefusesStoresNothing(index: Int) async throws {
    let (problem, change) = Self.unstorable[index]
    let harness = try Harness(products: Self.small)
    guard await attempt(2, "a refresh", for: 4, { try await harness.repository.refresh() }) != nil else { return }
    var edited = try #require(realProducts.first)
    change(&edited)
    let outcome = await Result { try await harness.repository.update(edited) }
    let outbox = try await harness.store.outbox()
    let stored = try await harness.store.product(id: 1)?.title
    #expect(
      outcome.failure is CatalogError && outbox.isEmpty && stored == realProducts.first?.title,
      guide.task(
        4,
        "expected an edit with \(problem) refused with a CatalogError before anything is stored, got \(outcome), outbox \(outbox.count) entries, title \((stored ?? "none").debugDescription)"
      ))
    var fine = try #require(realProducts.first)
    fine.stock = 5
    let next = await Result { try await harness.repository.update(fine) }
    #expect(next.failure == nil, guide.task(4, "expected the store to take the next edit, got \(next)"))
  }

  @Test func twoSyncsAtOnceSendEveryWriteOnce() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil else { return }
    var edited = try #require(realProducts.first)
    edited.title = "Mine"
    guard await attempt(4, "an update", for: 5, { try await harness.repository.update(edited) }) != nil else { return }
    harness.api.inject(.latency(.seconds(1)), on: .update, times: 1)
    let first = Task { try await harness.engine.syncNow() }
    await harness.clock.waitForSleepers(whileRunning: first)
    let second = Task { try await harness.engine.syncNow() }
    await Task.yield()
    harness.clock.advance(by: .seconds(1))
    let outcomes = [await Result { try await first.value }, await Result { try await second.value }]
    let puts = harness.writes.filter { $0.hasPrefix("PUT") }.count
    let conflicts = await harness.engine.conflicts
    #expect(
      puts == 1 && conflicts.isEmpty && outcomes.allSatisfy { $0.failure == nil },
      guide.task(
        5,
        "expected two syncs asked for at once to send the edit once (a second sync never sends what the first sends), got \(puts) PUTs, conflicts \(conflicts), outcomes \(outcomes)"
      ))
  }

  /// The IETF Idempotency-Key draft: 409 says a request with the same key is still being answered.
  @Test func a409ForAKeyInFlightIsSentAgainLaterNotAConflict() async throws {
    let harness = try Harness(products: Self.small, conflictPolicy: .serverWins)
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil else { return }
    var edited = try #require(realProducts.first)
    edited.title = "Mine"
    guard await attempt(4, "an update", for: 5, { try await harness.repository.update(edited) }) != nil else { return }
    harness.api.inject(.status(409, message: "A request with this key is still being answered"), on: .update, times: 1)
    let stopped = await Result { try await harness.engine.syncNow() }
    let waiting = try await harness.store.outbox().map(\.state)
    guard await attempt(5, "a second sync", { try await harness.engine.syncNow() }) != nil else { return }
    let server = harness.api.products.first { $0["id"] == .number(1) }?["title"]?.stringValue
    let conflicts = await harness.engine.conflicts
    #expect(
      stopped.failure != nil && waiting == [.pending] && server == "Mine" && conflicts.isEmpty,
      guide.task(
        5,
        "expected a 409 to stop the sync with the edit still waiting, and the next sync to send it (no conflict), got \(stopped), \(waiting), catalog title \(server ?? "none"), conflicts \(conflicts)"
      ))
  }

  @Test func a2xxWhoseBodyDoesNotDecodeIsApplied() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(4, "an add", for: 5, { try await harness.repository.add(draft()) }) != nil else { return }
    harness.api.inject(.body(#"{"id": 4242, "price": "not a number"}"#), on: .add, times: 1)
    guard await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil else { return }
    let outbox = try await harness.store.outbox()
    let ids = try await kettles(harness)
    #expect(
      outbox.isEmpty && ids == [4242],
      guide.task(
        5,
        "expected a 2xx with a body that is not a product to count as applied (the catalog has it), taking the id it names (4242); got outbox \(outbox.map(\.state)) and ids \(ids)"
      ))
  }

  /// The two ways a 2xx for a write the catalog applied can't be read.
  static let unreadable: [(String, Fault)] = [("cut short", .answerCut), ("not JSON", .answerNotJSON)]

  /// The catalog applies the add, but its 2xx can't be read, on every attempt of
  /// the sync; a refresh then brings the catalog's copy before the next sync.
  @Test(arguments: unreadable.indices)
  func anAddWhoseAnswerCannotBeReadEndsAsOneProductUnderTheCatalogsID(index: Int) async throws {
    let (problem, fault) = Self.unreadable[index]
    let harness = try Harness(products: Self.small)
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil,
      await attempt(4, "an add", for: 5, { try await harness.repository.add(draft()) }) != nil
    else { return }
    harness.api.inject(fault, on: .add, times: 3)
    let stopped = await Result { try await harness.engine.syncNow() }
    guard guide.unfinishedTask(in: stopped) == nil else {
      Issue.record(guide.task(5, "expected a sync of the add", blaming: stopped))
      return
    }
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil else { return }
    let meanwhile = try await kettles(harness)
    harness.api.clearFaults()
    guard await attempt(5, "a sync after the answers can be read", { try await harness.engine.syncNow() }) != nil
    else { return }
    let after = try await kettles(harness)
    let outbox = try await harness.store.outbox()
    let expected = harness.api.catalogID(title: "Kettle")
    let added = harness.api.products.filter { $0["title"]?.stringValue == "Kettle" }.count
    #expect(
      meanwhile.contains { $0 < 0 } && after.count == 1 && after.first == expected && outbox.isEmpty && added == 1,
      guide.task(
        5,
        "expected an add whose 2xx was \(problem) to stay in the outbox, first in line, and be sent again with its key (the catalog applied it: its kept answer names the id), so the kettle added here stays meanwhile, under its temporary id, and after the sync one kettle under the catalog's id \(expected.map(String.init) ?? "none"), one in the catalog; got ids \(meanwhile) after the refresh, \(after) after the sync (the first sync gave \(stopped)), outbox \(outbox.map(\.state)), \(added) in the catalog"
      ))
    guard let id = after.first, id > 0 else { return }
    var edited = try #require(try await harness.store.product(id: id))
    edited.stock = 42
    guard await attempt(4, "an update of the kettle", for: 5, { try await harness.repository.update(edited) }) != nil,
      await attempt(5, "a sync of the update", { try await harness.engine.syncNow() }) != nil
    else { return }
    let stock = harness.api.products.first { $0["id"]?.numberValue == Double(id) }?["stock"]?.numberValue
    let conflicts = await harness.engine.conflicts
    #expect(
      stock == 42 && conflicts.isEmpty,
      guide.task(
        5,
        "expected a later edit of the kettle to reach the catalog's product \(id), got stock \(stock.map { "\($0)" } ?? "none") there, conflicts \(conflicts)"
      ))
  }

  /// Two adds with one title; the first one's answer can't be read, and a page
  /// brings its copy before the next sync. Each add is its own product.
  @Test func twoAddsWithOneTitleEndAsTwoProductsWhenAnAnswerCannotBeRead() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(4, "an add", for: 5, { try await harness.repository.add(draft(stock: 1)) }) != nil,
      await attempt(4, "a second add", for: 5, { try await harness.repository.add(draft(stock: 2)) }) != nil
    else { return }
    harness.api.inject(.answerCut, on: .add, times: 3)
    harness.api.inject(.offline, on: .add)
    let stopped = await Result { try await harness.engine.syncNow() }
    guard guide.unfinishedTask(in: stopped) == nil else {
      Issue.record(guide.task(5, "expected a sync of the adds", blaming: stopped))
      return
    }
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil else { return }
    let meanwhile = try await kettles(harness)
    harness.api.clearFaults()
    guard await attempt(5, "a sync once the catalog answers", { try await harness.engine.syncNow() }) != nil else {
      return
    }
    let device = try await harness.store.products().filter { $0.title == "Kettle" }
    let catalog = harness.api.products.filter { $0["title"]?.stringValue == "Kettle" }
    let catalogStocks = Dictionary(
      uniqueKeysWithValues: catalog.compactMap { record in
        record["id"]?.numberValue.map { (Int($0), record["stock"]?.numberValue.map { Int($0) } ?? -1) }
      })
    let outbox = try await harness.store.outbox()
    #expect(
      meanwhile.filter { $0 < 0 }.count == 2 && device.count == 2 && catalog.count == 2 && outbox.isEmpty
        && device.allSatisfy { catalogStocks[$0.id] == $0.stock },
      guide.task(
        5,
        "expected both kettles added here to stay meanwhile, under their temporary ids, and two kettles (stock 1 and stock 2) after the sync, each under the id the catalog gave that add, with an empty outbox; got ids \(meanwhile) after the refresh, \(device.map { "\($0.id): stock \($0.stock)" }) on the device and \(catalogStocks) in the catalog, outbox \(outbox.map(\.state))"
      ))
  }

  /// The catalog applies an edit, but its 2xx can't be read: the device must
  /// learn the version the catalog stamped, or its next edit meets a 412.
  @Test(arguments: unreadable.indices)
  func anUpdateWhoseAnswerCannotBeReadTakesTheCatalogsVersion(index: Int) async throws {
    let (problem, fault) = Self.unreadable[index]
    let harness = try Harness(products: Self.small, conflictPolicy: .serverWins)
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil else { return }
    var edited = try #require(realProducts.first)
    edited.title = "Mine"
    guard await attempt(4, "an update", for: 5, { try await harness.repository.update(edited) }) != nil else { return }
    harness.api.inject(fault, on: .update, times: 1)
    _ = await Result { try await harness.engine.syncNow() }
    guard await attempt(5, "a sync once the answers can be read", { try await harness.engine.syncNow() }) != nil
    else { return }
    edited.stock = 42
    guard await attempt(4, "a second update", for: 5, { try await harness.repository.update(edited) }) != nil,
      await attempt(5, "a sync of the second update", { try await harness.engine.syncNow() }) != nil
    else { return }
    let server = harness.api.products.first { $0["id"] == .number(1) }
    let conflicts = await harness.engine.conflicts
    let local = try await harness.store.product(id: 1)
    #expect(
      server?["stock"]?.numberValue == 42 && server?["title"]?.stringValue == "Mine" && conflicts.isEmpty
        && local?.version == server?["meta"]?["updatedAt"]?.stringValue,
      guide.task(
        5,
        "expected an update whose 2xx was \(problem) to be sent again with its key, whose kept answer gives the version the next edit starts from, so that edit reaches the catalog without a conflict; got \(server?["title"]?.stringValue ?? "none"), stock \(server?["stock"]?.numberValue.map { "\($0)" } ?? "none") there, conflicts \(conflicts), version \(local?.version ?? "none") here"
      ))
  }

  /// The catalog's ids are above 0; the device numbers its own adds below 0.
  @Test(arguments: [0, -1])
  func aCatalogProductWithAnIDAtOrBelowZeroIsRefusedAsInvalidData(id: Int) async throws {
    guard case .object(var fields) = ProductFixtures.records[3] else { return }
    fields["id"] = .number(Double(id))
    let harness = try Harness(products: Self.small + [.object(fields)])
    let outcome = await Result { try await harness.repository.refresh() }
    guard guide.unfinishedTask(in: outcome) == nil else {
      Issue.record(guide.task(2, "expected a refresh", blaming: outcome))
      return
    }
    let stored = try await harness.store.products().map(\.id)
    let text: String? =
      if case .invalidData(let text)? = outcome.failure as? CatalogError { text } else { nil }
    #expect(
      text.map { $0.contains("product \(id)") && $0.contains("id") } == true && stored.isEmpty,
      guide.task(
        2,
        "expected a page holding a product with id \(id) refused with CatalogError.invalidData naming the product and its id (ids at or below 0 are the device's temporary ones), and nothing of it stored; got \(outcome), stored ids \(stored)"
      ))
  }

  /// An add the catalog answers with an id at or below 0: a later add's temporary id must not overwrite it.
  @Test func anAddTheCatalogNumbersAtOrBelowZeroIsSetAsideNotStoredUnderThatID() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(4, "an add", for: 5, { try await harness.repository.add(draft()) }) != nil else { return }
    harness.api.inject(.body(#"{"id": -2}"#), on: .add, times: 1)
    guard await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil,
      await attempt(4, "a second add", for: 5, { try await harness.repository.add(draft(title: "Teapot")) }) != nil
    else { return }
    let device = try await harness.store.products().map { "\($0.id) \($0.title)" }.sorted()
    let outbox = try await harness.store.outbox()
    let setAside = outbox.first { $0.kind == .add && $0.state != .pending }
    #expect(
      device.count == 2 && device.contains { $0.hasSuffix("Kettle") } && device.contains { $0.hasSuffix("Teapot") }
        && setAside != nil,
      guide.task(
        5,
        "expected an add answered with id -2 (not a catalog id) set aside as invalid data, the kettle kept under its temporary id and the next add (Teapot) beside it; got \(device), outbox \(outbox.map { "\($0.kind) \($0.productID) \($0.state)" })"
      ))
  }

  /// Two edits of product 1 wait; the catalog changed it since.
  @Test(arguments: [ConflictPolicy.serverWins, .clientWins])
  func aConflictWithALaterEditWaitingEndsWithDeviceAndCatalogAlike(policy: ConflictPolicy) async throws {
    let harness = try Harness(products: Self.small, conflictPolicy: policy)
    guard try await twoStaleEditsOfProduct1(harness) else { return }
    guard await attempt(5, "a sync", for: 6, { try await harness.engine.syncNow() }) != nil else { return }
    let local = try await harness.store.product(id: 1)
    let server = harness.api.products.first { $0["id"] == .number(1) }
    let outbox = try await harness.store.outbox()
    let serverTitle = server?["title"]?.stringValue
    let serverStock = server?["stock"]?.numberValue.map { Int($0) }
    let serverVersion = server?["meta"]?["updatedAt"]?.stringValue
    let expectedTitle = policy == .serverWins ? "Theirs" : "Mine"
    #expect(
      local?.title == serverTitle && local?.stock == serverStock && serverTitle == expectedTitle && outbox.isEmpty
        && local?.version == serverVersion,
      guide.task(
        6,
        "expected \(policy) to end with the title \(expectedTitle) on the device and in the catalog, alike (the catalog's answer stored with its updatedAt), and an empty outbox; got \(local.map { "\($0.title), stock \($0.stock), version \($0.version ?? "none")" } ?? "none") here, \(serverTitle ?? "none"), stock \(serverStock.map(String.init) ?? "none"), version \(serverVersion ?? "none") there, outbox \(outbox.map(\.state))"
      ))
  }
}

/// Every request has a deadline of its own, kept on the injected clock.
@Suite(.timeLimit(.minutes(1)))
struct DeadlineTests {
  @Test func aRequestThatNeverAnswersFailsAtItsDeadline() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    // An answer held for ten minutes, as a body that drips one byte at a time holds a request on Linux.
    api.inject(.latency(.seconds(600)), on: .list, times: 1)
    let remote = DeadlineRemoteDataSource(
      wrapping: URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, now: testNow),
      timeout: .seconds(5), clock: api.clock)
    let read = Task { try await remote.products(limit: 30, skip: 0) }
    // The held answer and the deadline both sleep on the clock.
    await api.clock.waitForSleepersWithinSafetyLimit(count: 2)
    api.clock.advance(by: .seconds(5))
    let ended = await finishesWithinSafetyLimit(read, cancelling: true)
    let outcome = await Result { try await read.value }
    #expect(
      ended && outcome.failure as? CatalogError == .timedOut,
      "expected the read to fail with CatalogError.timedOut once its 5 s deadline passed on the clock, got \(ended ? "\(outcome)" : "no end")"
    )
  }
}

extension Harness {
  /// The catalog's copy of a product, read past the device.
  func remoteProduct(id: Int) async throws -> Product {
    try await URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, now: testNow)
      .product(id: id)
  }
}
