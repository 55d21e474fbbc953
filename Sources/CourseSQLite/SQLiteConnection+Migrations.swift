extension SQLiteConnection {
  /// The schema version the database records in `PRAGMA user_version`: 0 for a new file.
  public func userVersion() throws -> Int {
    let statement = try prepare("PRAGMA user_version")
    guard try statement.step() else { return 0 }
    return Int(statement.int64(at: 0))
  }

  /// Applies, in order and each in its own transaction, every migration whose
  /// version is above the database's `user_version`, then records the version.
  ///
  /// Each transaction reads `user_version` after it holds the write lock
  /// (`BEGIN IMMEDIATE`), so two connections migrating the same file at once
  /// never both apply a migration: the second waits, then finds it done.
  /// A migration that throws rolls back, leaving the database at the last
  /// version that succeeded.
  /// - Precondition: versions start at 1 and increase by one.
  /// - Returns: The versions this call applied, empty when the database was current.
  /// - Throws: `SQLiteError.newerSchema(version:lastKnown:)` when the file records
  ///   a version above the last migration, which means a newer app wrote it;
  ///   `SQLiteError.damagedSchemaVersion(_:)` for a negative version, which no
  ///   migration writes;
  ///   otherwise the first failing migration's error.
  @discardableResult
  public func migrate(_ migrations: [SQLiteMigration]) throws -> [Int] {
    precondition(
      migrations.map(\.version) == Array(stride(from: 1, through: migrations.count, by: 1)),
      "migration versions must be 1, 2, 3, … in order; got \(migrations.map(\.version))")
    let lastKnown = migrations.count
    // Versions only grow, so a current database is current for good: no write lock needed.
    guard try pendingVersion(lastKnown: lastKnown) != nil else { return [] }
    var applied: [Int] = []
    while let version = try transaction({ () throws -> Int? in
      guard let next = try pendingVersion(lastKnown: lastKnown) else { return nil }
      try migrations[next - 1].apply(self)
      try execute("PRAGMA user_version = \(next)")
      return next
    }) {
      applied.append(version)
    }
    return applied
  }

  /// The next version to apply, `nil` when the database is current.
  private func pendingVersion(lastKnown: Int) throws -> Int? {
    let current = try userVersion()
    guard current >= 0 else { throw SQLiteError.damagedSchemaVersion(current) }
    guard current <= lastKnown else { throw SQLiteError.newerSchema(version: current, lastKnown: lastKnown) }
    return current < lastKnown ? current + 1 : nil
  }
}
