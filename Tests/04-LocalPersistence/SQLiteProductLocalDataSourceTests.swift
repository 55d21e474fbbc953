import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

struct SQLiteProductLocalDataSourceTests {
  @Test func opensAndMigratesAnEmptyDatabase() async throws {
    let local = try openDatabase()
    let products = await Result { try await local.products() }
    #expect(
      (try? products.get()) == [], guide.task(5, "a new database holds no products: expected [], got \(products)"))
  }

  @Test func roundTripsAll194RealRecords() async throws {
    let local = try openDatabase()
    let read = await Result {
      try await local.save(realProducts)
      return try await local.products()
    }
    let products = (try? read.get()) ?? []
    #expect(
      products.count == 194,
      guide.task(4, "after saving the 194 real products, products() should return 194, got \(read.map(\.count))"))
    #expect(
      products == newestFirst(realProducts),
      guide.task(
        3,
        "every field should come back exactly (price as Decimal, brand nil or not, updatedAt to the millisecond), newest first; first difference: \(zip(products, newestFirst(realProducts)).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "none")"
      )
    )
  }

  @Test func keepsMoneyAndDatesWithoutLoss() async throws {
    let local = try openDatabase()
    var product = Product.sample(id: 1, updatedAt: Date(timeIntervalSince1970: 1_746_006_062.053))
    product.price = Decimal(string: "0.1")! + Decimal(string: "0.2")!
    var precise = Product.sample(id: 2)
    precise.price = Decimal(string: "1234567.8912")!
    let read = await Result {
      try await local.save([product, precise])
      return (try await local.product(id: 1), try await local.product(id: 2))
    }
    let found = try? read.get()
    #expect(
      found?.0?.price == Decimal(string: "0.3"),
      guide.task(
        3,
        "a price of 0.3 should come back exactly 0.3, got \(String(describing: found?.0?.price))\(read.failure.map { " (\($0))" } ?? "")"
      ))
    #expect(
      found?.1?.price == Decimal(string: "1234567.8912"),
      guide.task(
        3,
        "a price of 1234567.8912 should come back exactly, got \(String(describing: found?.1?.price))\(read.failure.map { " (\($0))" } ?? "")"
      ))
    #expect(
      found?.0?.updatedAt == product.updatedAt,
      guide.task(
        3,
        "updatedAt should come back to the last bit, got \(String(describing: found?.0?.updatedAt.timeIntervalSince1970))\(read.failure.map { " (\($0))" } ?? "")"
      ))
  }

  @Test func savingTheSameProductsTwiceChangesNothing() async throws {
    let local = try openDatabase()
    let read = await Result {
      try await local.save(realProducts)
      let once = try await local.products()
      try await local.save(realProducts)
      return (once, try await local.products())
    }
    let (once, twice) = (try? read.get()) ?? ([], [])
    #expect(
      !once.isEmpty && once == twice,
      guide.task(
        4,
        "saving the same 194 products again must neither duplicate nor change a row (an upsert keyed by id): \(once.count) rows after one save, \(twice.count) after two; \(read.failure.map { "error: \($0)" } ?? "")"
      )
    )
  }

  @Test func savingAnIDAgainReplacesIt() async throws {
    let local = try openDatabase()
    let read = await Result {
      try await local.save([.sample(id: 1, title: "Old"), .sample(id: 2)])
      try await local.save([.sample(id: 1, title: "New")])
      return try await local.products().map { "\($0.id) \($0.title)" }
    }
    #expect(
      (try? read.get()) == ["1 New", "2 Sample"],
      guide.task(4, "saving id 1 again should replace its row and keep id 2, got \(read)"))
  }

  @Test func aSaveThatFailsPartWayKeepsThePreviousContent() async throws {
    let local = try openDatabase()
    let before = Array(realProducts.prefix(10))
    let first = await Result { try await local.save(before) }
    try #require((try? first.get()) != nil, guide.task(4, "saving 10 products should work, got \(first)"))
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
    let after = await Result { try await local.products() }
    #expect(
      (try? after.get()) == newestFirst(before),
      guide.task(
        4,
        "the failed save must leave nothing behind, neither product 500 nor the changed title: expected the 10 first products, got \(after.map { $0.map(\.id) })"
      )
    )
  }

  @Test(arguments: [
    #"She said "hello" and it's fine"#,
    "'; DROP TABLE products; --",
    "Robert'); DELETE FROM products WHERE ('1' = '1",
    "Emoji 🛒🧴✨ and accents: crème brûlée",
    String(repeating: "Long text ", count: 10_000),
  ])
  func keepsAnyTextExactly(title: String) async throws {
    let local = try openDatabase()
    var product = Product.sample(id: 1, title: title)
    product.description = title
    let read = await Result {
      try await local.save([product, .sample(id: 2)])
      return try await local.products()
    }
    let products = (try? read.get()) ?? []
    #expect(
      products.first?.title == title && products.first?.description == title && products.count == 2,
      guide.task(
        3,
        "text must round-trip exactly and never run as SQL; bind it with ?, never paste it into the statement. Got \(read.map { $0.map { String($0.title.prefix(40)) } })"
      )
    )
  }

  @Test func readsNewestFirstThenByID() async throws {
    let local = try openDatabase()
    let older = Date(timeIntervalSince1970: 1_000)
    let newer = Date(timeIntervalSince1970: 2_000)
    let read = await Result {
      try await local.save([
        .sample(id: 3, updatedAt: older), .sample(id: 2, updatedAt: newer), .sample(id: 1, updatedAt: older),
      ])
      return try await local.products().map(\.id)
    }
    #expect(
      (try? read.get()) == [2, 1, 3],
      guide.task(5, "products() should list newest updatedAt first, then by id: expected [2, 1, 3], got \(read)"))
  }

  @Test func findsOneByIDOrNil() async throws {
    let local = try openDatabase()
    let read = await Result {
      try await local.save([.sample(id: 7, title: "Kettle")])
      return (try await local.product(id: 7)?.title, try await local.product(id: 8))
    }
    let found = try? read.get()
    #expect(
      found?.0 == "Kettle" && found?.1 == nil,
      guide.task(5, "product(id: 7) should be Kettle and product(id: 8) nil, got \(read)"))
  }

  @Test func manyConcurrentSavesLeaveAConsistentTable() async throws {
    let local = try openDatabase()
    let ids = 1...50
    let results = await withTaskGroup(of: Bool.self) { group in
      for batch in 1...20 {
        group.addTask {
          (try? await local.save(ids.map { Product.sample(id: $0, title: "Batch \(batch)") })) != nil
        }
      }
      return await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    let products = (try? await local.products()) ?? []
    #expect(
      results.allSatisfy { $0 },
      guide.task(4, "every one of 20 concurrent saves should succeed, \(results.filter { !$0 }.count) failed"))
    #expect(
      products.count == 50 && Set(products.map(\.title)).count == 1,
      guide.task(
        4,
        "20 concurrent saves of ids 1–50 must leave 50 rows from one whole batch each time, never a mix: got \(products.count) rows with titles \(Set(products.map(\.title)).sorted())"
      )
    )
  }
}
