import Dispatch
import Synchronization

/// Records the SQL that any connection to one database file runs on the main actor.
///
/// A debugging aid in the spirit of Core Data's concurrency debugging
/// (`-com.apple.CoreData.ConcurrencyDebug 1`): an app's main actor draws the
/// screen and should never wait on the disk. A watch says when it did, without
/// stopping anything. Tests use it to check that a store does its work off the
/// main actor, whatever shape the store has.
///
/// ```swift
/// let watch = SQLiteMainActorWatch(path: databasePath)
/// await model.load()
/// #expect(watch.statementsOnMainActor.isEmpty)
/// ```
///
/// Only statements compiled or run after the watch starts count: `prepare(_:)`
/// and `execute(_:)` of every `SQLiteConnection` opened with the same path.
/// The watch stops when it goes away.
public final class SQLiteMainActorWatch: Sendable {
  /// The database file watched, as connections were opened with it.
  public let path: String
  private let id: Int

  /// Starts watching the database at `path`.
  public init(path: String) {
    self.path = path
    id = Self.registry.withLock { registry in
      registry.lastID += 1
      registry.watches[registry.lastID] = Record(path: path)
      return registry.lastID
    }
    Self.watching.add(1, ordering: .releasing)
  }

  deinit {
    Self.registry.withLock { registry in _ = registry.watches.removeValue(forKey: id) }
    Self.watching.subtract(1, ordering: .releasing)
  }

  /// Every statement run on the database since the watch started, on any thread.
  public var statementCount: Int { Self.registry.withLock { $0.watches[id]?.count ?? 0 } }

  /// The SQL of each statement run on the main actor since the watch started, in order.
  public var statementsOnMainActor: [String] { Self.registry.withLock { $0.watches[id]?.onMainActor ?? [] } }

  // MARK: What every connection reports

  private struct Record {
    let path: String
    var count = 0
    var onMainActor: [String] = []
  }

  private struct Registry {
    var lastID = 0
    var watches: [Int: Record] = [:]
  }

  private static let registry = Mutex(Registry())
  /// How many watches exist: connections skip the registry's lock while there are none.
  private static let watching = Atomic(0)

  /// Called by a connection for each statement it compiles or runs.
  static func note(_ sql: String, path: String) {
    guard watching.load(ordering: .acquiring) > 0 else { return }
    let onMainActor = MainActorCheck.isOnMainActor
    registry.withLock { registry in
      for (id, record) in registry.watches where record.path == path {
        registry.watches[id]?.count += 1
        if onMainActor { registry.watches[id]?.onMainActor.append(sql) }
      }
    }
  }
}

/// Tells whether the caller runs on the main actor, without trapping when it does not.
///
/// The main actor runs its work on the main dispatch queue, on Apple platforms
/// and on Linux alike, so the queue's specific value answers.
/// `MainActor.assertIsolated()` would stop the process instead.
public enum MainActorCheck {
  /// Whether the code that asks runs on the main actor.
  public static var isOnMainActor: Bool { DispatchQueue.getSpecific(key: key) == true }

  // nonisolated(unsafe): a DispatchSpecificKey is an identity with no state of its own; it is set once, here.
  nonisolated(unsafe) private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()
}
