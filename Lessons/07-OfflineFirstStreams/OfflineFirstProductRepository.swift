import CourseSQLite
import Foundation
import LessonSupport

/// The offline-first repository: screens read the store and only the store;
/// the network fills the store, and the user's changes land in it first.
///
/// - `observe()` streams the list now and after every change.
/// - `refresh()` and `loadNextPage()` write the catalog's pages through the store.
/// - `add(_:)`, `update(_:)` and `delete(id:)` change the store and queue the
///   change in the outbox, online or not; the sync engine sends it later.
nonisolated struct OfflineFirstProductRepository: Sendable {
  /// How many products a page holds.
  static let pageSize = 30

  let store: OfflineProductStore
  let remote: any ProductRemoteDataSource
  /// The wall-clock time of the user's changes.
  let now: @Sendable () -> Date

  /// The product list now, and then after every committed change.
  ///
  /// - Throws: `CatalogError.storage` when the store can't be read.
  func observe() async throws -> AsyncStream<[Product]> {
    try await storing { try await store.observe() }
  }

  // MARK: Task 2: observe the store

  /// Fetches the first page and writes it through the store; observers see it.
  ///
  /// - Throws: `CatalogError`, or `CancellationError`.
  func refresh() async throws {
    // TODO: Task 2. The catalog's first page reaches observers through the store (Docs/07, Task 2).
    throw NotDoneYet("Task 2", in: "Docs/07-OfflineFirstStreams.md", "write the first page through the store")
  }

  // MARK: Task 3: page through the store

  /// Fetches the page after the last one loaded and writes it through the store.
  ///
  /// - Returns: `false`, without asking the network, when the store already holds the whole catalog.
  /// - Throws: `CatalogError`, or `CancellationError`.
  @discardableResult
  func loadNextPage() async throws -> Bool {
    // TODO: Task 3. The next page reaches the store, and the end of the catalog costs no request (Docs/07, Task 3).
    throw NotDoneYet("Task 3", in: "Docs/07-OfflineFirstStreams.md", "write the next page through the store")
  }

  // MARK: Task 4: write locally with an outbox (finished: the store does the work)

  /// Adds a product on the device and queues it for the catalog.
  ///
  /// - Returns: The product as stored, with a temporary negative id until the catalog assigns one.
  @discardableResult
  func add(_ product: Product) async throws -> Product? {
    try await storing { try await store.record(.add(product), editedAt: now()) }
  }

  /// Changes a product on the device and queues the change.
  func update(_ product: Product) async throws {
    try await storing { _ = try await store.record(.update(product), editedAt: now()) }
  }

  /// Deletes a product on the device and queues the delete.
  func delete(id: Int) async throws {
    try await storing { _ = try await store.record(.delete(id: id), editedAt: now()) }
  }

  /// Runs a store operation, mapping a storage failure to `CatalogError` (stage 06).
  private func storing<Value>(_ operation: () async throws -> Value) async throws -> Value {
    do {
      return try await operation()
    } catch  where error is SQLiteError || error is LocalDataSourceError {
      throw try AppDependencies.errorMapper().catalogError(from: error, now: now())
    }
  }
}
