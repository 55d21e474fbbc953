/// The app's repository, online-first: every answer comes from the remote data source.
///
/// Stage 05 adds a local cache behind the same protocol; nothing that uses
/// `ProductRepository` will change.
struct DefaultProductRepository: ProductRepository {
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
