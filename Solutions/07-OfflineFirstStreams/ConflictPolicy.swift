import Foundation

/// Who wins when the catalog's copy changed after the user's edit (the catalog answered 412 to its If-Match).
enum ConflictPolicy: Sendable, Hashable {
  /// The catalog's copy replaces the user's edit on the device.
  case serverWins
  /// The user's edit is sent again and replaces the catalog's copy.
  case clientWins
  /// The later of the user's edit and the catalog's `updatedAt` wins; a tie goes to the catalog.
  case newestUpdatedAtWins

  // MARK: Task 6: resolve conflicts

  /// The side whose copy stands.
  ///
  /// - Parameters:
  ///   - localEditedAt: When the user made the edit.
  ///   - serverUpdatedAt: The catalog's copy's `updatedAt`.
  func winner(localEditedAt: Date, serverUpdatedAt: Date) -> ConflictWinner {
    switch self {
    case .serverWins: .server
    case .clientWins: .client
    case .newestUpdatedAtWins: localEditedAt > serverUpdatedAt ? .client : .server
    }
  }
}

/// The side of a conflict whose copy stands.
enum ConflictWinner: Sendable, Hashable {
  case server
  case client
}

/// A conflict the sync engine met and how it ended, for a screen or a log.
struct ConflictResolution: Sendable, Hashable {
  var productID: Int
  var policy: ConflictPolicy
  var winner: ConflictWinner
}
