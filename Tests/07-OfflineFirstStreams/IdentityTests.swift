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

/// Tasks 4 and 5: one identity and one version history per product, whatever
/// order the person's edits, the pages and the catalog's answers arrive in.
@Suite(.timeLimit(.minutes(1)))
struct IdentityTests {
  /// A catalog small enough that an added product is on page one.
  private static let small = Array(ProductFixtures.records.prefix(3))

  /// A page never undoes a delete that waits to be sent.
  @Test func aRefreshKeepsADeleteThatIsWaiting() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(2, "a refresh", for: 4, { try await harness.repository.refresh() }) != nil,
      await attempt(4, "a delete of product 1", { try await harness.repository.delete(id: 1) }) != nil,
      await attempt(2, "a refresh", for: 4, { try await harness.repository.refresh() }) != nil
    else { return }
    let stored = try await harness.store.product(id: 1)
    let outbox = try await harness.store.outbox()
    #expect(
      stored == nil && outbox.map(\.kind) == [.delete],
      guide.task(
        4,
        "expected product 1 to stay deleted on the device while its delete waits, with the delete still queued, got \(stored.map { "\"\($0.title)\" back" } ?? "it gone") and outbox \(outbox.map { "\($0.kind)" })"
      ))
  }

  /// Another person's product is never hidden because its title is the title of
  /// an add waiting on this device: only the catalog's answer to the add says which product the add became.
  @Test func anotherPersonsProductWithTheTitleOfAWaitingAddShows() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(2, "a refresh", for: 4, { try await harness.repository.refresh() }) != nil,
      await attempt(4, "an add of a kettle", { try await harness.repository.add(draft()) }) != nil
    else { return }
    try await harness.api.theirAdd(
      #"{"title": "Kettle", "description": "Theirs", "category": "kitchen-accessories", "price": 30, "discountPercentage": 0, "rating": 4, "stock": 1}"#
    )
    guard let theirs = harness.api.catalogID(title: "Kettle") else {
      Issue.record("the fake catalog did not take the other person's kettle")
      return
    }
    guard await attempt(2, "a refresh", for: 4, { try await harness.repository.refresh() }) != nil else { return }
    let shown = try await harness.store.products().filter { $0.title == "Kettle" }.map(\.id)
    #expect(
      shown.count == 2 && shown.contains(theirs) && shown.contains { $0 < 0 },
      guide.task(
        4,
        "expected two kettles after the refresh: the one added here (a temporary id, still waiting) and another person's, id \(theirs), which a page brought; got ids \(shown). A title does not say which product an add became: the catalog's answer to it does"
      ))
    guard await attempt(5, "a sync", for: 4, { try await harness.engine.syncNow() }) != nil else { return }
    let device = try await harness.store.products().filter { $0.title == "Kettle" }.map(\.id).sorted()
    let catalog = harness.api.products.filter { $0["title"]?.stringValue == "Kettle" }
      .compactMap { $0["id"]?.numberValue.map { Int($0) } }.sorted()
    #expect(
      device == catalog && catalog.count == 2,
      guide.task(
        5,
        "expected the same two kettles on the device and in the catalog after the sync, got \(device) here and \(catalog) there"
      ))
  }

  /// Edits of a product added on the device, made before its add was sent,
  /// reach the catalog under the id the catalog gave it.
  @Test func editsOfAnAddedProductMadeBeforeItsAddWasSentReachTheCatalogsID() async throws {
    let harness = try Harness(products: Self.small)
    guard
      let kettle = await attempt(4, "an add of a kettle", for: 5, { try await harness.repository.add(draft()) }),
      var edited = kettle,
      let toaster = await attempt(
        4, "an add of a toaster", for: 5, { try await harness.repository.add(draft(title: "Toaster")) }),
      let toasterID = toaster?.id
    else { return }
    edited.stock = 9
    guard
      await attempt(4, "an update and a delete of the new products", for: 5) { () async throws -> Void in
        try await harness.repository.update(edited)
        try await harness.repository.delete(id: toasterID)
      } != nil,
      await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil
    else { return }
    let kettleID = harness.api.catalogID(title: "Kettle")
    let stock = harness.api.products.first { $0["title"]?.stringValue == "Kettle" }?["stock"]?.numberValue
    let device = try await harness.store.products().filter { ["Kettle", "Toaster"].contains($0.title) }
    let outbox = try await harness.store.outbox()
    let toasterInCatalog = harness.api.catalogID(title: "Toaster")
    let expectedWrites = [
      "POST /products/add", "POST /products/add", "PUT /products/\(kettleID ?? 0)", "DELETE /products/",
    ]
    let writes = harness.writes.map { $0.hasPrefix("DELETE") ? "DELETE /products/" : $0 }
    let saw = await harness.whatTheCatalogSaw()
    #expect(
      writes == expectedWrites && stock == 9 && toasterInCatalog == nil,
      guide.task(
        5,
        "expected the kettle's add and the toaster's, then the kettle's update sent to the id the catalog gave it (\(kettleID.map(String.init) ?? "none")) with stock 9, then the toaster's delete, leaving no toaster in the catalog; got the catalog's kettle with stock \(stock.map { "\($0)" } ?? "none") and \(toasterInCatalog.map { "a toaster, id \($0)" } ?? "no toaster"), and \(saw)"
      ))
    #expect(
      device.map(\.id) == [kettleID ?? 0] && device.first?.stock == 9 && outbox.isEmpty,
      guide.task(
        5,
        "expected one kettle on the device, under the catalog's id \(kettleID.map(String.init) ?? "none") with stock 9, and an empty outbox, got \(device.map { "\($0.title) \($0.id) stock \($0.stock)" }) and outbox \(outbox.map { "\($0.kind)" })"
      ))
  }

  /// Each edit is sent with the catalog's version it was made on: the first with
  /// the copy's version from before the edit, the one behind it with the version
  /// the first one's answer gave. A wrong version meets a 412 the catalog never should have sent.
  @Test func twoEditsInARowAreEachSentWithTheVersionTheyWereMadeOn() async throws {
    let harness = try Harness(products: Self.small)
    guard await attempt(2, "a refresh", for: 5, { try await harness.repository.refresh() }) != nil else { return }
    var edited = try #require(realProducts.first)
    guard
      await attempt(4, "two updates of product 1", for: 5) { () async throws -> Void in
        edited.title = "First"
        try await harness.repository.update(edited)
        edited.title = "Second"
        try await harness.repository.update(edited)
      } != nil,
      await attempt(5, "a sync", { try await harness.engine.syncNow() }) != nil
    else { return }
    let puts = harness.api.requests.filter { $0.method == "PUT" }
    let ifMatch = puts.map { $0.header("If-Match") ?? "none" }
    let title = harness.api.products.first { $0["id"] == .number(1) }?["title"]?.stringValue
    let conflicts = await harness.engine.conflicts
    #expect(
      puts.count == 2 && !ifMatch.contains("none") && title == "Second" && conflicts.isEmpty,
      guide.task(
        5,
        "expected two PUTs of product 1, each with an If-Match, accepted without a conflict, leaving \"Second\" in the catalog; got If-Match \(ifMatch), \(conflicts.count) conflicts, and \"\(title ?? "none")\" in the catalog. The first edit starts from the version the device held; the second from the version the first one's answer gave, not from the device's own copy"
      ))
  }
}
