import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

@Suite(.timeLimit(.minutes(1)))
struct LocalDataSourceTests {
  @Test func startsEmptyAndKeepsWhatItSaves() async throws {
    let local: any ProductLocalDataSource = InMemoryProductLocalDataSource()
    let ids = try await guide.attempt(5, "saving products 1 and 2, then reading them back") {
      try await local.save([.sample(id: 1), .sample(id: 2)])
      return try await local.products().map(\.id)
    }
    // The order is listsNewestFirstThenByID's business: here only what is kept counts.
    #expect(
      ids.sorted() == [1, 2],
      guide.task(5, "after saving products 1 and 2, products() should return 1 and 2, got \(ids)"))
  }

  @Test func savingAnExistingIDReplacesIt() async throws {
    let local: any ProductLocalDataSource = InMemoryProductLocalDataSource()
    let products = try await guide.attempt(5, "saving id 1 twice, then reading") {
      try await local.save([.sample(id: 1, title: "Old"), .sample(id: 2)])
      try await local.save([.sample(id: 1, title: "New")])
      return try await local.products()
    }
    let shown = byID(products)
    #expect(
      shown == "[1 New, 2 Sample]",
      guide.task(5, "saving id 1 again should replace it and keep id 2: expected [1 New, 2 Sample], got \(shown)")
    )
  }

  @Test func startsWithTheLastOfARepeatedID() async throws {
    let local: any ProductLocalDataSource = InMemoryProductLocalDataSource(products: [
      .sample(id: 1, title: "First"), .sample(id: 2), .sample(id: 1, title: "Last"),
    ])
    let products = try await guide.attempt(5, "reading a source made with products 1, 2 and 1 again") {
      try await local.products()
    }
    let shown = byID(products)
    #expect(
      shown == "[1 Last, 2 Sample]",
      guide.task(
        5,
        "init(products:) with id 1 twice should keep the last one, as save(_:) does: expected [1 Last, 2 Sample], got \(shown)"
      )
    )
  }

  @Test func listsNewestFirstThenByID() async throws {
    let local: any ProductLocalDataSource = InMemoryProductLocalDataSource()
    let older = Date(timeIntervalSince1970: 1_000)
    let newer = Date(timeIntervalSince1970: 2_000)
    // Ties in both dates, saved out of id order: a sort without the id tie-break fails whatever the dictionary's order.
    let ids = try await guide.attempt(5, "saving five products with two dates, then reading") {
      try await local.save([
        .sample(id: 5, updatedAt: older), .sample(id: 4, updatedAt: newer), .sample(id: 3, updatedAt: older),
        .sample(id: 2, updatedAt: newer), .sample(id: 1, updatedAt: older),
      ])
      return try await local.products().map(\.id)
    }
    let expected = [2, 4, 1, 3, 5]
    let problem =
      ids.sorted() == expected.sorted()
      ? "right products, wrong order: expected \(expected), got \(ids). Sort by updatedAt descending, and for equal dates by id ascending"
      : "expected \(expected), got \(ids)"
    #expect(ids == expected, guide.task(5, "products() should list newest updatedAt first, then by id: \(problem)"))
  }

  @Test func findsOneByID() async throws {
    let local: any ProductLocalDataSource = InMemoryProductLocalDataSource()
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

/// The products as `[1 Title, 2 Title]`, sorted by id: the tests of what is kept
/// leave the order to `listsNewestFirstThenByID`.
private func byID(_ products: [Product]) -> String {
  "[" + products.sorted { $0.id < $1.id }.map { "\($0.id) \($0.title)" }.joined(separator: ", ") + "]"
}
