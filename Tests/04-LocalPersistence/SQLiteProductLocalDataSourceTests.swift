import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

@Suite(.timeLimit(.minutes(1)))
struct SQLiteProductLocalDataSourceTests {
  @Test func opensAndMigratesAnEmptyDatabase() async throws {
    let local = try await openDatabase()
    let products = try await guide.attempt(5, "a new database should read") { try await local.products() }
    #expect(products.isEmpty, guide.task(5, "a new database holds no products: expected [], got \(products.map(\.id))"))
  }

  @Test func roundTripsAll194RealRecords() async throws {
    let local = try await openDatabase()
    let real = try realProducts()
    _ = try await guide.attempt(4, "saving the 194 real products") { try await local.save(real) }
    let products = try await guide.attempt(5, "reading them back") { try await local.products() }
    #expect(
      products.count == 194,
      guide.task(4, "after saving the 194 real products, products() should return 194, got \(products.count)"))
    let expected = newestFirst(real)
    let firstDifference = zip(expected, products).first { $0 != $1 }
    let identical = firstDifference == nil
    #expect(
      identical,
      guide.task(
        3,
        "every field should come back exactly, newest first; product \(firstDifference?.0.id ?? 0) at the same place differs: \(firstDifference.map { differences(expected: $0, actual: $1) } ?? "")"
      )
    )
  }

  @Test func keepsMoneyAndDatesWithoutLoss() async throws {
    let local = try await openDatabase()
    // A Double keeps neither price, and 1970-based seconds lose this date's last bit.
    let date = Date(timeIntervalSinceReferenceDate: 767_698_862.053_123_4)
    try #require(Date(timeIntervalSince1970: date.timeIntervalSince1970) != date)
    var large = Product.sample(id: 1, updatedAt: date)
    large.price = Decimal(string: "99999999999999.99") ?? 0
    var long = Product.sample(id: 2)
    long.price = Decimal(string: "12345678901234567890.123456789") ?? 0
    let (readLarge, readLong) = try await guide.attempt(4, "saving two products and reading them by id") {
      try await local.save([large, long])
      return (try await local.product(id: 1), try await local.product(id: 2))
    }
    #expect(
      readLarge?.price == large.price && readLong?.price == long.price,
      guide.task(
        3,
        "prices should come back with every digit: expected \(large.price) and \(long.price), got \(readLarge.map { "\($0.price)" } ?? "nil") and \(readLong.map { "\($0.price)" } ?? "nil"). A REAL column or a Double on the way keeps about 16 digits"
      ))
    #expect(
      readLarge?.updatedAt == date,
      guide.task(
        3,
        "updatedAt should come back to the last bit: expected \(date.timeIntervalSinceReferenceDate) s after 2001, got \(readLarge.map { "\($0.updatedAt.timeIntervalSinceReferenceDate)" } ?? "nil"). Store timeIntervalSinceReferenceDate, not timeIntervalSince1970"
      ))
  }

  @Test func aNaNPriceIsRefusedAndNothingIsSaved() async throws {
    let local = try await openDatabase()
    var broken = Product.sample(id: 2)
    broken.price = .nan
    let outcome = await Result { try await local.save([.sample(id: 1), broken, .sample(id: 3)]) }
    var isUnsavable = false
    if case .unsavable(let id, _)? = outcome.failure as? LocalDataSourceError { isUnsavable = id == 2 }
    try #require(
      isUnsavable,
      guide.task(
        4,
        "a NaN price would be stored as \"NaN\" and never read back as money: save should throw LocalDataSourceError.unsavable(id: 2, …), got \(outcome.map { _ in "no error" }.described)",
        blaming: outcome.failure)
    )
    let after = try await guide.attempt(5, "reading after the refused save") { try await local.products() }
    #expect(after.isEmpty, guide.task(4, "the refused save must leave nothing behind, got \(after.map(\.id))"))
  }

  @Test func savingTheSameProductsTwiceChangesNothing() async throws {
    let local = try await openDatabase()
    let real = try realProducts()
    let (once, twice) = try await guide.attempt(4, "saving the 194 real products twice, reading after each") {
      try await local.save(real)
      let once = try await local.products()
      try await local.save(real)
      return (once, try await local.products())
    }
    let unchanged = !once.isEmpty && once == twice
    #expect(
      unchanged,
      guide.task(
        4,
        "saving the same 194 products again must neither duplicate nor change a row (an upsert keyed by id): \(once.count) rows after one save, \(twice.count) after two"
      )
    )
  }

  @Test func savingAnIDAgainReplacesIt() async throws {
    let local = try await openDatabase()
    let shown = try await guide.attempt(4, "saving id 1 twice, then reading") {
      try await local.save([.sample(id: 1, title: "Old"), .sample(id: 2)])
      try await local.save([.sample(id: 1, title: "New")])
      return try await local.products().map { "\($0.id) \($0.title)" }
    }
    #expect(
      shown == ["1 New", "2 Sample"],
      guide.task(4, "saving id 1 again should replace its row and keep id 2: expected [1 New, 2 Sample], got \(shown)"))
  }

  @Test func aSaveThatFailsPartWayKeepsThePreviousContent() async throws {
    let local = try await openDatabase()
    let before = Array(try realProducts().prefix(10))
    _ = try await guide.attempt(4, "saving 10 products") { try await local.save(before) }
    var changed = before[0]
    changed.title = "Changed by the failed save"
    let batch = [Product.sample(id: 500), changed, Product.sample(id: 501, stock: -1), Product.sample(id: 502)]
    let failed = await Result { try await local.save(batch) }
    #expect(
      (failed.failure as? SQLiteError)?.code == .constraint,
      guide.task(
        1,
        "a product with stock -1 must break the table's CHECK (stock >= 0): expected SQLiteError SQLITE_CONSTRAINT, got \(failed)"
      )
    )
    let after = try await guide.attempt(5, "reading after the failed save") { try await local.products() }
    let unchanged = after == newestFirst(before)
    #expect(
      unchanged,
      guide.task(
        4,
        "the failed save must leave nothing behind, neither product 500 nor the changed title: expected the 10 first products, got \(after.map(\.id)) with titles \(Set(after.map(\.title)).contains(changed.title) ? "including the changed one" : "unchanged")"
      )
    )
  }

  @Test func aFailedSaveLeavesTheStoreUsable() async throws {
    let local = try await openDatabase()
    let failed = await Result { try await local.save([.sample(id: 1), .sample(id: 2, stock: -1)]) }
    try #require(
      isConstraintFailure(failed.failure),
      guide.task(
        1,
        "a product with stock -1 must break the table's CHECK (stock >= 0), got \(failed.map { _ in "no error" }.described)",
        blaming: failed.failure))
    let ids = try await guide.attempt(
      4, "a save after a failed one should work: the failed one must not leave its transaction open"
    ) {
      try await local.save([.sample(id: 3)])
      return try await local.products().map(\.id)
    }
    #expect(ids == [3], guide.task(4, "after a failed save and a good one, expected [3], got \(ids)"))
  }

  @Test func keepsAnyTextExactly() async throws {
    let titles = [
      #"She said "hello" and it's fine"#,
      "'; DROP TABLE products; --",
      "Robert'); DELETE FROM products WHERE ('1' = '1",
      "Emoji 🛒🧴✨ and accents: crème brûlée",
      String(repeating: "Long text ", count: 10_000),
    ]
    await guide.expectEvery(
      titles, task: 3,
      "text must round-trip exactly and never run as SQL; bind it with ?, never paste it into the statement"
    ) { title in
      let outcome = await Result {
        let local = try SQLiteProductLocalDataSource(path: ":memory:")
        var product = Product.sample(id: 1, title: title)
        product.description = title
        try await local.save([product, .sample(id: 2)])
        return try await local.products()
      }
      guard case .success(let products) = outcome else {
        return ("\(title.prefix(40)) gave \(outcome.described)", outcome.failure)
      }
      let kept = products.count == 2 && products.first?.title == title && products.first?.description == title
      return kept ? nil : ("\(title.prefix(40)) came back as \(products.map { String($0.title.prefix(40)) })", nil)
    }
  }

  @Test func readsNewestFirstThenByID() async throws {
    let local = try await openDatabase()
    let older = Date(timeIntervalSince1970: 1_000)
    let newer = Date(timeIntervalSince1970: 2_000)
    let ids = try await guide.attempt(5, "saving three products with two dates, then reading") {
      try await local.save([
        .sample(id: 3, updatedAt: older), .sample(id: 2, updatedAt: newer), .sample(id: 1, updatedAt: older),
      ])
      return try await local.products().map(\.id)
    }
    #expect(
      ids == [2, 1, 3],
      guide.task(5, "products() should list newest updatedAt first, then by id: expected [2, 1, 3], got \(ids)"))
  }

  @Test func findsOneByIDOrNil() async throws {
    let local = try await openDatabase()
    let (found, missing) = try await guide.attempt(5, "saving product 7, then finding 7 and 8") {
      try await local.save([.sample(id: 7, title: "Kettle")])
      return (try await local.product(id: 7), try await local.product(id: 8))
    }
    #expect(
      found?.title == "Kettle" && missing == nil,
      guide.task(
        5,
        "product(id: 7) should be Kettle and product(id: 8) nil, got \(found?.title ?? "nil") and \(missing?.title ?? "nil")"
      ))
  }
}
