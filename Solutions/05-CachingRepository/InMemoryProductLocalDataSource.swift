/// A local data source that keeps products in memory: for previews, tests and
/// as the simplest thing that keeps the contract.
actor InMemoryProductLocalDataSource {
  private var byID: [Int: Product]

  init(products: [Product] = []) {
    byID = Dictionary(products.map { ($0.id, $0) }) { _, last in last }
  }

  func products() -> [Product] {
    byID.values.sorted { lhs, rhs in
      lhs.updatedAt != rhs.updatedAt ? lhs.updatedAt > rhs.updatedAt : lhs.id < rhs.id
    }
  }

  func product(id: Int) -> Product? { byID[id] }

  func save(_ products: [Product]) {
    for product in products { byID[product.id] = product }
  }
}

// Declared apart from the actor: Swift 6.3, building with a package's defaults, can
// reject an actor that names a `nonisolated` protocol in its own declaration
// (Docs/Setup.md, "Today's Xcode").
extension InMemoryProductLocalDataSource: ProductLocalDataSource {}
