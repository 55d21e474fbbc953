import Foundation
import Testing

@testable import Solution04

/// The store on a real SQLite file, one per test: a fake would not show what
/// the file keeps across a reopen, and SQLite in a temporary file is fast.
struct StoreTests {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite").path

  func product(_ id: Int, title: String = "Kettle", price: String = "19.99", updatedAt: TimeInterval = 0) -> Product {
    Product(
      id: id, title: title, description: "A kettle", category: "kitchen", price: Decimal(string: price)!,
      discountPercentage: 0, rating: 4, stock: 3, brand: nil, thumbnail: nil,
      updatedAt: Date(timeIntervalSince1970: 1_700_000_000 + updatedAt))
  }

  @Test func aSavedProductComesBackAsItWasAfterAReopen() async throws {
    try await SQLiteProductLocalDataSource(path: path).save([product(1)])
    let reopened = try SQLiteProductLocalDataSource(path: path)
    #expect(try await reopened.product(id: 1) == product(1))
  }

  @Test func savingAnIDAgainReplacesIt() async throws {
    let store = try SQLiteProductLocalDataSource(path: path)
    try await store.save([product(1, title: "Kettle")])
    try await store.save([product(1, title: "Steel kettle")])
    #expect(try await store.products() == [product(1, title: "Steel kettle")])
  }

  @Test func aSaveWithOneBadProductSavesNone() async throws {
    let store = try SQLiteProductLocalDataSource(path: path)
    var bad = product(2)
    bad.price = .nan
    await #expect(throws: (any Error).self) { try await store.save([product(1), bad]) }
    #expect(try await store.products() == [])
  }

  @Test func theListIsNewestFirst() async throws {
    let store = try SQLiteProductLocalDataSource(path: path)
    try await store.save([product(1, updatedAt: 0), product(2, updatedAt: 60)])
    #expect(try await store.products().map(\.id) == [2, 1])
  }
}
