/// What the offline app's screens need from its data layer: the seam a view
/// model depends on, so a test gives it a stub instead of a database and a network.
///
/// `OfflineFirstProductRepository` is the app's; stage 03's rule still holds:
/// the screen knows this protocol, not the store, the outbox or the engine.
nonisolated protocol OfflineProductRepository: Sendable {
  /// The product list now, and then after every committed change.
  func observe() async throws -> AsyncStream<[Product]>
  /// Fetches the first page and writes it through the store.
  func refresh() async throws
  /// Fetches the page after the last one loaded; `false` at the end of the catalog.
  @discardableResult
  func loadNextPage() async throws -> Bool
  /// Adds a product on the device and queues it for the catalog.
  @discardableResult
  func add(_ product: Product) async throws -> Product?
  /// Changes a product on the device and queues the change.
  func update(_ product: Product) async throws
  /// Deletes a product on the device and queues the delete.
  func delete(id: Int) async throws
}

nonisolated extension OfflineFirstProductRepository: OfflineProductRepository {}
