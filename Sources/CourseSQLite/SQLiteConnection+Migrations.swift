extension SQLiteConnection {
  /// The schema version the database records in `PRAGMA user_version`: 0 for a new file.
  public func userVersion() throws -> Int {
    let statement = try prepare("PRAGMA user_version")
    guard try statement.step() else { return 0 }
    return Int(statement.int64(at: 0))
  }

  /// Applies, in order, every migration whose version is above the database's
  /// `user_version`, recording each version as it is reached.
  ///
  /// They run in one transaction, each in a savepoint of its own: one commit
  /// (one write to the disk) however many migrations a new file needs, and a
  /// migration that throws rolls back alone, leaving the database at the last
  /// version that succeeded, which is committed. The transaction reads
  /// `user_version` after it holds the write lock (`BEGIN IMMEDIATE`), so two
  /// connections migrating the same file at once never both apply a migration:
  /// the second waits, then finds it done.
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
    var failure: (any Error)?
    do {
      try migrateInOneTransaction(migrations, lastKnown: lastKnown, applied: &applied, failure: &failure)
    } catch {
      // A failure SQLite answers by rolling the whole transaction back fails the COMMIT too: the migration's error says more.
      throw failure ?? error
    }
    if let failure { throw failure }
    return applied
  }

  private func migrateInOneTransaction(
    _ migrations: [SQLiteMigration], lastKnown: Int, applied: inout [Int], failure: inout (any Error)?
  ) throws {
    try transaction {
      while let next = try pendingVersion(lastKnown: lastKnown) {
        try execute("SAVEPOINT migration")
        do {
          try migrations[next - 1].apply(self)
          try execute("PRAGMA user_version = \(next)")
          try execute("RELEASE migration")
        } catch {
          // Undoes this migration only; the versions before it commit.
          failure = error
          try execute("ROLLBACK TO migration")
          try execute("RELEASE migration")
          return
        }
        applied.append(next)
      }
    }
  }

  /// The next version to apply, `nil` when the database is current.
  private func pendingVersion(lastKnown: Int) throws -> Int? {
    let current = try userVersion()
    guard current >= 0 else { throw SQLiteError.damagedSchemaVersion(current) }
    guard current <= lastKnown else { throw SQLiteError.newerSchema(version: current, lastKnown: lastKnown) }
    return current < lastKnown ? current + 1 : nil
  }
}
