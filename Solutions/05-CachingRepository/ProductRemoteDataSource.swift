/// Where products come from over the network. The view model and, from stage 03,
/// the repository depend on this protocol, never on URLSession.
nonisolated protocol ProductRemoteDataSource: Sendable {
  /// One page of the catalog.
  ///
  /// An empty page is a valid answer, not an error.
  /// - Throws: `RemoteDataSourceError`.
  func products(limit: Int, skip: Int) async throws -> ProductPage

  /// One product by id.
  ///
  /// - Throws: `RemoteDataSourceError.http(status: 404, …)` when there is none.
  func product(id: Int) async throws -> Product
}
