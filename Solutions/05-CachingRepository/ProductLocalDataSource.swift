/// Where products are kept on the device.
///
/// Stage 02 keeps them in memory; stage 04 puts the same protocol on SQLite,
/// and nothing above the data layer notices.
nonisolated protocol ProductLocalDataSource: Sendable {
  /// Every stored product, newest `updatedAt` first, then by id.
  func products() async throws -> [Product]

  /// The stored product with this id, or `nil`.
  func product(id: Int) async throws -> Product?

  /// Stores the products, replacing any stored product with the same id.
  func save(_ products: [Product]) async throws
}
