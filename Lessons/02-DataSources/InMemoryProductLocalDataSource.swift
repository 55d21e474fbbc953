import LessonSupport

/// A local data source that keeps products in memory: for previews, tests and
/// as the simplest thing that keeps the contract.
actor InMemoryProductLocalDataSource {
  init(products: [Product] = []) {
    // TODO: Task 5. Start with these products (Docs/02-DataSources.md).
  }

  func products() throws -> [Product] {
    throw NotDoneYet(
      "Task 5", in: "Docs/02-DataSources.md", "products() should list what is kept, in the protocol's order")
  }

  func product(id: Int) throws -> Product? {
    throw NotDoneYet("Task 5", in: "Docs/02-DataSources.md", "product(id:) should find one kept product")
  }

  func save(_ products: [Product]) throws {
    throw NotDoneYet("Task 5", in: "Docs/02-DataSources.md", "save(_:) should keep the products")
  }
}

// Declared apart from the actor: Swift 6.3, building with a package's defaults, can
// reject an actor that names a `nonisolated` protocol in its own declaration
// (Docs/Setup.md, "Today's Xcode").
extension InMemoryProductLocalDataSource: ProductLocalDataSource {}
