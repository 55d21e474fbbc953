import Foundation

/// Where an answer came from.
nonisolated enum Origin: Sendable, Hashable {
  /// The repository's in-memory tier: no disk, no network.
  case memory
  /// The local store on disk.
  case disk
  /// The remote data source, just now.
  case network
}

/// A value and what a screen needs to know about it: where it came from, when
/// it was fetched from the network, and whether it may be out of date.
///
/// A screen shows "Updated 5 minutes ago" from `fetchedAt`, and a marker when `isStale`.
nonisolated struct RepositoryAnswer<Value: Sendable>: Sendable {
  var value: Value
  var origin: Origin
  /// When the network answered with this value; a cached value keeps its original time.
  var fetchedAt: Date
  /// The value may be out of date: it is past its soft age, or the network
  /// failed and the repository fell back to it.
  var isStale: Bool
  /// Stage 06: why the network failed, when this cached value stands in for its
  /// answer, so the screen can say "You're offline" above the products.
  var networkError: CatalogError? = nil
}

nonisolated extension RepositoryAnswer: Equatable where Value: Equatable {}
