/// The app's repository, online-first: every answer comes from the remote data source.
///
/// Stage 05 replaces it with a caching repository, and `ProductRepository`
/// gains a cache policy per call and answers that say where they came from.
nonisolated struct DefaultProductRepository: ProductRepository {
  /// How many products the list screen shows.
  static let pageSize = 30

  private let remote: any ProductRemoteDataSource

  init(remote: any ProductRemoteDataSource) {
    self.remote = remote
  }

  func products() async throws -> [Product] {
    try await remote.products(limit: Self.pageSize, skip: 0).products
  }

  func product(id: Int) async throws -> Product {
    try await remote.product(id: id)
  }
}
