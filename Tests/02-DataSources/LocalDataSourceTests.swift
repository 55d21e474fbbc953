import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

struct LocalDataSourceTests {
  @Test func startsEmptyAndKeepsWhatItSaves() async {
    let local = InMemoryProductLocalDataSource()
    let saved = await Result {
      try await local.save([.sample(id: 1), .sample(id: 2)])
      return try await local.products().map(\.id)
    }
    #expect(
      (try? saved.get()) == [1, 2],
      guide.task(5, "after saving products 1 and 2, products() should return [1, 2], got \(saved)"))
  }

  @Test func savingAnExistingIDReplacesIt() async {
    let local = InMemoryProductLocalDataSource()
    let result = await Result {
      try await local.save([.sample(id: 1, title: "Old"), .sample(id: 2)])
      try await local.save([.sample(id: 1, title: "New")])
      return try await local.products()
    }
    let products = (try? result.get()) ?? []
    #expect(
      products.map(\.id) == [1, 2] && products.first?.title == "New",
      guide.task(
        5,
        "saving id 1 again should replace it and keep id 2: expected [1 \"New\", 2], got \(result.map { $0.map { "\($0.id) \($0.title)" } })"
      )
    )
  }

  @Test func listsNewestFirstThenByID() async {
    let local = InMemoryProductLocalDataSource()
    let older = Date(timeIntervalSince1970: 1_000)
    let newer = Date(timeIntervalSince1970: 2_000)
    let result = await Result {
      try await local.save([
        .sample(id: 3, updatedAt: older), .sample(id: 2, updatedAt: newer), .sample(id: 1, updatedAt: older),
      ])
      return try await local.products().map(\.id)
    }
    #expect(
      (try? result.get()) == [2, 1, 3],
      guide.task(5, "products() should list newest updatedAt first, then by id: expected [2, 1, 3], got \(result)"))
  }

  @Test func findsOneByID() async {
    let local = InMemoryProductLocalDataSource()
    let result = await Result {
      try await local.save([.sample(id: 7, title: "Kettle")])
      return (try await local.product(id: 7)?.title, try await local.product(id: 8))
    }
    let found = try? result.get()
    #expect(
      found?.0 == "Kettle" && found?.1 == nil,
      guide.task(5, "product(id: 7) should be Kettle and product(id: 8) nil, got \(result)"))
  }
}

extension Product {
  static func sample(id: Int, title: String = "Sample", updatedAt: Date = Date(timeIntervalSince1970: 1_746_006_062))
    -> Product
  {
    Product(
      id: id, title: title, description: "", category: "test", price: 1, discountPercentage: 0, rating: 0,
      stock: 1, brand: nil, thumbnail: nil, updatedAt: updatedAt)
  }
}
