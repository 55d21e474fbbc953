/// A local data source that keeps products in memory: for previews, tests and
/// as the simplest thing that keeps the contract.
actor InMemoryProductLocalDataSource: ProductLocalDataSource {
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
