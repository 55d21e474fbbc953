/// What the app asks for products. View models depend on this protocol and
/// nothing below it: not on data sources, DTOs, URLs, SQL or caches.
///
/// Stage 05: each call says how to use the cache (`CachePolicy`), and each
/// answer says where it came from and how old it is (`RepositoryAnswer`).
nonisolated protocol ProductRepository: Sendable {
  /// The products the list screen shows: the first page of the catalog.
  ///
  /// - Throws: Stage 06: only `CatalogError`: the network's error when no
  ///   cached value may stand in; `.nothingCached` for `.cacheOnly` with nothing
  ///   cached. `CancellationError` when the calling task was cancelled, which is
  ///   not a failure to show.
  func products(policy: CachePolicy) async throws -> RepositoryAnswer<[Product]>

  /// One product by id.
  ///
  /// - Throws: As `products(policy:)`; `CatalogError.notFound` when there is none.
  func product(id: Int, policy: CachePolicy) async throws -> RepositoryAnswer<Product>
}
