import Foundation

/// Who wins when the catalog's copy changed since the version the user's edit
/// started from (the catalog answered 412 to its `If-Match`).
///
/// There is no "newest `updatedAt` wins": it would set the device's clock, which
/// can be off by minutes or set by hand, against the server's. The versions say
/// that the copies differ; only a rule that needs no clock says which stands.
nonisolated enum ConflictPolicy: Sendable, Hashable {
  /// The catalog's copy replaces the user's edit on the device.
  case serverWins
  /// The user's edit is sent again, against the catalog's current version, and replaces its copy.
  case clientWins

  /// The side whose copy stands.
  var winner: ConflictWinner {
    switch self {
    case .serverWins: .server
    case .clientWins: .client
    }
  }
}

/// The side of a conflict whose copy stands.
nonisolated enum ConflictWinner: Sendable, Hashable {
  case server
  case client
}

/// A conflict the sync engine met and how it ended, for a screen or a log.
nonisolated struct ConflictResolution: Sendable, Hashable {
  var productID: Int
  var policy: ConflictPolicy
  var winner: ConflictWinner
}
