/// What the app asks for products. View models depend on this protocol and
/// nothing below it: not on data sources, DTOs, URLs or URLErrors.
nonisolated protocol ProductRepository: Sendable {
  /// The products the list screen shows: the first page of the catalog.
  ///
  /// - Throws: `RemoteDataSourceError`, or `CancellationError` when the calling
  ///   task was cancelled, which is not a failure to show.
  func products() async throws -> [Product]

  /// One product by id.
  ///
  /// - Throws: `RemoteDataSourceError`, `.http(status: 404, …)` when there is none;
  ///   `CancellationError` when the calling task was cancelled.
  func product(id: Int) async throws -> Product
}
