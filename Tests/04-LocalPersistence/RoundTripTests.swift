import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

/// Task 3 through the data source: a product comes back exactly as it was
/// saved, and a stored value that is no product is refused, never guessed at.
@Suite(.timeLimit(.minutes(1)))
struct RoundTripTests {
  /// A date whose seconds since 1970 do not survive the trip: 2001-based seconds
  /// plus 978,307,200 round off the last bit.
  static let preciseDate = Date(timeIntervalSinceReferenceDate: 767_698_862.053_123_4)

  /// A product whose every field is awkward to store, and different from every other.
  static var awkward: Product {
    Product(
      id: 42, title: "Lamp \"Ö\" 🛒", description: "It's bright", category: "home",
      price: Decimal(string: "99999999999999.99") ?? 0, discountPercentage: 12.5, rating: 4.75, stock: 7,
      brand: "Acme", thumbnail: URL(string: "https://cdn.example/lamp.webp"), updatedAt: preciseDate)
  }

  @Test func givesBackEveryFieldAsSaved() async throws {
    try await save([.sample(id: 1)], to: try await openDatabase(), "saving a plain product")
    var cheap = Self.awkward
    cheap.price = (Decimal(string: "0.1") ?? 0) + (Decimal(string: "0.2") ?? 0)
    cheap.brand = nil
    cheap.thumbnail = nil
    var precise = Self.awkward
    precise.price = Decimal(string: "12345678901234567890.123456789") ?? 0
    var free = Self.awkward
    free.price = 0
    free.stock = 0
    // The premises: a Double keeps neither large price, and 1970-based seconds lose this date.
    try #require(Decimal(string: "\(Double("99999999999999.99") ?? 0)") != Self.awkward.price)
    try #require(Date(timeIntervalSince1970: Self.preciseDate.timeIntervalSince1970) != Self.preciseDate)
    let products = [
      ("the awkward product", Self.awkward), ("0.1 + 0.2 without brand or thumbnail", cheap),
      ("a 29-digit price", precise), ("a price and a stock of 0", free),
    ]
    await guide.expectEvery(
      products, task: 3,
      "a saved product should come back from product(id:) the same: every field in its place, every digit of the price, the date to the last bit"
    ) { name, product in
      let outcome = await Result { () async throws -> Product? in
        let local = try SQLiteProductLocalDataSource(path: ":memory:")
        try await local.save([product])
        return try await local.product(id: product.id)
      }
      guard case .success(let back) = outcome else {
        return ("\(name) (price \(product.price)) gave \(outcome.described)", outcome.failure)
      }
      guard let back else { return ("\(name): product(id: \(product.id)) is nil", nil) }
      return back == product ? nil : ("\(name): \(differences(expected: product, actual: back))", nil)
    }
  }

  @Test func refusesAStoredPriceThatIsNotWhollyANumber() async throws {
    // Rows the first release's table holds, written by another tool: "12²" and full-width "１２"
    // are numbers to Character.isNumber, not digits to a price.
    let prices = ["12abc", "12.5.6", "", "NaN", " 12", "1,5", "-3", "1e5", ".5", "5.", "12²", "１２"]
    let file = TemporaryDatabase()
    try writeFirstReleaseFile(
      at: file.path,
      rows: prices.enumerated().map { FirstReleaseRow(id: Int64($0.offset + 1), price: $0.element) }
        + [FirstReleaseRow(id: 100)])
    let local = try await guide.attempt(2, "SQLiteProductLocalDataSource(path:) should open a first-release file") {
      try SQLiteProductLocalDataSource(path: file.path)
    }
    // A good row of the same file first: when even that cannot be read, the upgrade is at fault (Task 2).
    _ = try await guide.attempt(2, "reading the first release's good product 100 from the upgraded file") {
      try await local.product(id: 100)
    }
    await guide.expectEvery(
      Array(prices.enumerated()), task: 3,
      "a stored price that is not wholly a decimal number is a corrupt row: product(id:) should throw LocalDataSourceError.corruptRow, never read a prefix, and a migration must carry the text as it is"
    ) { index, price in
      let outcome = await Result { try await local.product(id: index + 1) }
      if case .corruptRow? = outcome.failure as? LocalDataSourceError { return nil }
      return (
        "\"\(price)\" gave \(outcome.map { $0.map { "the price \($0.price)" } ?? "nil" }.described)", outcome.failure
      )
    }
    let all = await Result { try await local.products() }
    let listRefuses: Bool = {
      if case .corruptRow? = all.failure as? LocalDataSourceError { true } else { false }
    }()
    #expect(
      listRefuses,
      guide.task(
        3,
        "products() over a table of corrupt prices should throw LocalDataSourceError.corruptRow too, got \(all.map { "\($0.count) products" }.described)",
        blaming: all.failure))
  }
}
