/// One thing the demo says, in the order it happens.
///
/// The demo never formats for a terminal: `course demo` paints these, and the
/// tests read the milestones instead of the wording.
public enum DemoEvent: Sendable, Equatable {
  /// A step's title: `Step 2: Go offline`.
  case heading(String)
  /// A sentence of narration.
  case say(String)
  /// A row of the product list as the screen shows it.
  case row(String)
  /// The sync engine's status, as `SyncStatus` prints it: `syncing(pending: 1)`.
  case syncStatus(String)
  /// What the server did: a request it logged, or the answer to a control command.
  case server(String)
  /// Something the audience should know about the setup, such as simulated writes.
  case note(String)
  /// A checkpoint the tests read.
  case milestone(DemoMilestone)
}

/// The checkpoints of the demo, with the values that prove each one.
public enum DemoMilestone: Sendable, Equatable {
  /// The first page is in the store and on the screen.
  case loaded(shown: Int, total: Int)
  /// Offline, a refresh failed with `error` and the screen still shows `shown` products, marked stale.
  case staleWhileOffline(shown: Int, error: String)
  /// An edit made offline is on the screen at once and waits in the outbox.
  case editedOffline(productID: Int, title: String, pending: Int, idempotencyKey: String)
  /// Back online, the statuses the engine published, and what was left in the outbox.
  case synced(statuses: [String], pending: Int)
  /// The embedded server's view: how many times the write reached it, whether a
  /// repeat with the same key was answered from its idempotency record, and its copy's title.
  case serverApplied(writes: Int, replayedOnRepeat: Bool, title: String)
  /// A refresh after the sync: the title the catalog sends back.
  case refreshedAfterSync(title: String)
  /// The end of the script.
  case finished
}
