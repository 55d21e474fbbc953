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

/// The version an edit sends back as `If-Match` is the one the catalog wrote,
/// kept as it wrote it. A real server compares entity tags as text: a date read
/// into a `Date` and formatted again is another version whenever the catalog
/// spells its dates another way (microseconds, an offset instead of `Z`).
@Suite(.timeLimit(.minutes(1)))
struct VersionTests {
  /// Product 1 with microseconds, product 2 with an offset: the same instants
  /// as the fixture's, spelled as another server might.
  private static let spelledTheirWay: [JSONValue] = ProductFixtures.records.prefix(3).map { record in
    guard case .object(var fields) = record, case .object(var meta)? = fields["meta"],
      let id = fields["id"]?.numberValue
    else { return record }
    let spellings: [Double: String] = [1: "2025-04-30T09:41:02.053123Z", 2: "2025-04-30T11:41:02.053+02:00"]
    if let spelling = spellings[id] { meta["updatedAt"] = .string(spelling) }
    fields["meta"] = .object(meta)
    return .object(fields)
  }

  @Test func anEditSendsBackTheVersionAsTheCatalogWroteIt() async throws {
    let harness = try Harness(products: Self.spelledTheirWay)
    guard await attempt(2, "a refresh", for: 4, { try await harness.repository.refresh() }) != nil else { return }
    let stored = try await harness.store.products().filter { [1, 2].contains($0.id) }
    guard
      await attempt(
        4, "edits of products 1 and 2",
        { () async throws -> Void in
          for var product in stored.sorted(by: { $0.id < $1.id }) {
            product.title = "Mine \(product.id)"
            try await harness.repository.update(product)
          }
        }) != nil,
      await attempt(5, "a sync", for: 4, { try await harness.engine.syncNow() }) != nil
    else { return }
    let ifMatch = harness.api.requests.filter { $0.method == "PUT" }.map { $0.header("If-Match") ?? "none" }
    let titles = [1, 2].map { id in
      harness.api.products.first { $0["id"] == .number(Double(id)) }?["title"]?.stringValue ?? "none"
    }
    let conflicts = await harness.engine.conflicts.count
    #expect(
      ifMatch == [#""2025-04-30T09:41:02.053123Z""#, #""2025-04-30T11:41:02.053+02:00""#]
        && titles == ["Mine 1", "Mine 2"] && conflicts == 0,
      guide.task(
        4,
        "expected the PUTs of products 1 and 2 to carry If-Match \"2025-04-30T09:41:02.053123Z\" and \"2025-04-30T11:41:02.053+02:00\", the versions as the page wrote them, and reach the catalog without a conflict; got If-Match \(ifMatch), \(conflicts) conflicts, and titles \(titles) in the catalog. A version is text the catalog compares as text: keep it as it came, never a date formatted again"
      ))
  }

  /// A database of stage 06 holds no versions: the upgrade gives each row the
  /// one its page carried, so the first edit after it meets no conflict.
  @Test func aStage06InstallUpgradesInPlaceAndItsFirstEditMeetsNoConflict() async throws {
    let database = TemporaryDatabase()
    do {
      let stage06 = try SQLiteProductLocalDataSource(path: database.path)
      try await stage06.save(Array(realProducts.prefix(3)))
    }
    let harness = try Harness(products: Array(ProductFixtures.records.prefix(3)), path: database.path)
    let version = ProductFixtures.records.first?["meta"]?["updatedAt"]?.stringValue ?? "none"
    var product = try #require(
      try await harness.store.products().first { $0.id == 1 }, "stage 06's product 1, read after the upgrade")
    product.title = "Mine"
    guard await attempt(4, "an edit of product 1", { try await harness.repository.update(product) }) != nil,
      await attempt(5, "a sync", for: 4, { try await harness.engine.syncNow() }) != nil
    else { return }
    let ifMatch = harness.api.requests.filter { $0.method == "PUT" }.map { $0.header("If-Match") ?? "none" }
    let title = harness.api.products.first { $0["id"] == .number(1) }?["title"]?.stringValue
    let conflicts = await harness.engine.conflicts.count
    #expect(
      ifMatch == ["\"\(version)\""] && title == "Mine" && conflicts == 0,
      guide.task(
        4,
        "expected the first edit after the upgrade from stage 06 to carry If-Match \"\(version)\" and reach the catalog without a conflict; got If-Match \(ifMatch), \(conflicts) conflicts, and \"\(title ?? "none")\" in the catalog"
      ))
  }
}
