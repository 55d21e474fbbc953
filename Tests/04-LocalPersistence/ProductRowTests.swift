import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

/// Task 3 on its own: `ProductRow` in and out, with no table and no data source.
@Suite(.timeLimit(.minutes(1)))
struct ProductRowTests {
  /// The stubs' inits throw, the finished ones need not: called through these
  /// function values, both compile the same.
  let makeRow: (Product) throws -> ProductRow = ProductRow.init
  let readRow: (SQLiteStatement) throws -> ProductRow = ProductRow.init(statement:)

  /// A date whose seconds since 1970 do not survive the trip: 2001-based seconds
  /// plus 978,307,200 round off the last bit.
  static let preciseDate = Date(timeIntervalSinceReferenceDate: 767_698_862.053_123_4)

  /// A product whose every field is awkward to store.
  static var awkward: Product {
    Product(
      id: 42, title: "Lamp \"Ö\" 🛒", description: "It's bright", category: "home",
      price: Decimal(string: "99999999999999.99") ?? 0, discountPercentage: 12.5, rating: 4.75, stock: 7,
      brand: "Acme", thumbnail: URL(string: "https://cdn.example/lamp.webp"), updatedAt: preciseDate)
  }

  @Test func storesEachFieldInItsColumnsShape() async throws {
    let product = Self.awkward
    let row = try await guide.attempt(3, "ProductRow(product) should make a row") { try makeRow(product) }
    // A value off by the 978,307,200 s from 1970 to 2001 is said to be, instead of labelled "since 2001".
    let mixUp = dateMixUp(expected: product.updatedAt, actual: Date(timeIntervalSinceReferenceDate: row.updatedAt))
    let expected: [(column: String, expected: String, actual: String)] = [
      ("id", "42", "\(row.id)"), ("title", product.title, row.title), ("price", "99999999999999.99", row.price),
      ("discountPercentage", "12.5", "\(row.discountPercentage)"), ("stock", "7", "\(row.stock)"),
      ("brand", "Acme", row.brand ?? "nil"), ("thumbnail", "https://cdn.example/lamp.webp", row.thumbnail ?? "nil"),
      (
        "updatedAt", "\(product.updatedAt.timeIntervalSinceReferenceDate) (seconds since 2001)",
        "\(row.updatedAt)\(mixUp.isEmpty ? " (seconds since 2001)" : mixUp)"
      ),
    ]
    await guide.expectEvery(expected, task: 3, "each field should take its column's shape") { column, wanted, got in
      wanted == got ? nil : ("\(column): expected \(wanted), got \(got)", nil)
    }
  }

  @Test func mapsARowBackToTheSameProduct() async throws {
    var cheap = Self.awkward
    cheap.price = (Decimal(string: "0.1") ?? 0) + (Decimal(string: "0.2") ?? 0)
    cheap.brand = nil
    cheap.thumbnail = nil
    var precise = Self.awkward
    precise.price = Decimal(string: "12345678901234567890.123456789") ?? 0
    // The premises: a Double keeps neither price, and 1970-based seconds lose this date.
    try #require(Decimal(string: "\(Double("99999999999999.99") ?? 0)") != Self.awkward.price)
    try #require(Date(timeIntervalSince1970: Self.preciseDate.timeIntervalSince1970) != Self.preciseDate)
    let products = [
      ("the awkward product", Self.awkward), ("0.1 + 0.2 without brand or thumbnail", cheap),
      ("a 29-digit price", precise),
    ]
    await guide.expectEvery(
      products, task: 3,
      "ProductRow(product).toDomain() should give back the same product: every digit of the price, the date to the last bit"
    ) { name, product in
      let outcome = Result { try makeRow(product).toDomain() }
      guard case .success(let back) = outcome else {
        return ("\(name) (price \(product.price)) gave \(outcome.described)", outcome.failure)
      }
      return back == product ? nil : ("\(name): \(differences(expected: product, actual: back))", nil)
    }
  }

  @Test func readsTheColumnsInTheirOrder() async throws {
    let product = Self.awkward
    let stored = try await guide.attempt(3, "ProductRow(product) should make a row") { try makeRow(product) }
    // No table needed: a SELECT of bound values hands init(statement:) one row in the order of ProductRow.columns.
    let database = try SQLiteConnection(path: ":memory:")
    let read = try await guide.attempt(3, "ProductRow(statement:) should read a row selected in the order of columns") {
      try database.prepare("SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?").query(stored.values) { try readRow($0) }
    }
    let row = try #require(read.first)
    #expect(
      row == stored,
      guide.task(
        3,
        "ProductRow(statement:) should read back the row it was given; differences: \(differences(expected: stored, actual: row))"
      )
    )
  }

  @Test func refusesAStoredPriceThatIsNotWhollyANumber() async throws {
    let row = try await guide.attempt(3, "ProductRow(product) should make a row") { try makeRow(Self.awkward) }
    // "12²" and full-width "１２" are numbers to Character.isNumber, not digits to a price.
    let prices = ["12abc", "12.5.6", "", "NaN", " 12", "1,5", "-3", "1e5", ".5", "5.", "12²", "１２"]
    await guide.expectEvery(
      prices, task: 3,
      "a stored price that is not wholly a decimal number is a corrupt row: toDomain() should throw LocalDataSourceError.corruptRow, never read a prefix"
    ) { price in
      var corrupt = row
      corrupt.price = price
      let outcome = Result { try corrupt.toDomain() }
      if case .corruptRow? = outcome.failure as? LocalDataSourceError { return nil }
      return ("\"\(price)\" gave \(outcome.map { "the price \($0.price)" }.described)", outcome.failure)
    }
  }
}
