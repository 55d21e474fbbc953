import LessonSupport

/// A local data source that keeps products in memory: for previews, tests and
/// as the simplest thing that keeps the contract.
actor InMemoryProductLocalDataSource: ProductLocalDataSource {
  // TODO: Task 5. Keep the products here, keyed so a save replaces by id.

  init(products: [Product] = []) {
    // TODO: Task 5. Start with `products`.
  }

  func products() throws -> [Product] {
    throw NotDoneYet(
      "Task 5", in: "Docs/02-DataSources.md",
      "products() should return every product, newest updatedAt first, then by id")
  }

  func product(id: Int) throws -> Product? {
    throw NotDoneYet("Task 5", in: "Docs/02-DataSources.md", "product(id:) should return the stored product or nil")
  }

  func save(_ products: [Product]) throws {
    throw NotDoneYet(
      "Task 5", in: "Docs/02-DataSources.md", "save(_:) should store the products, replacing any with the same id")
  }
}
