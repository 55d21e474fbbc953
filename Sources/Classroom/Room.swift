import CourseSQLite
import Foundation
import Synchronization

/// One workshop's room: who joined, each learner's last snapshot, and the
/// codes that let learners and the instructor in, kept in one SQLite file.
///
/// Every change is committed to the file before the request that made it is
/// answered, so a classroom process killed at any moment comes back, from the
/// same file, with every learner and their last snapshot, and the same join
/// code and instructor token: nobody has to join again. The rate limit alone
/// lives in memory; a restart forgives it.
///
/// Many connections call it at once; one `Mutex` serializes them around the
/// one SQLite connection, and each call is a few microseconds of SQLite.
public final class Room: Sendable {
  /// What a room allows.
  public struct Limits: Sendable, Equatable {
    /// How many learners may join.
    public var maxLearners = 200
    /// The longest nickname, in characters.
    public var maxNameLength = 24
    /// How many snapshots a learner may send in a burst, and how many a second after it.
    public var burst = 5
    public var perSecond = 1.0

    /// The limits `course classroom` uses: 200 learners, 24-character names, 5 posts at once then 1 a second.
    public init() {}
  }

  /// One stage as the page shows it: its number and name, its tasks' titles,
  /// and the course's usual time for one of its tasks.
  public struct Stage: Sendable, Equatable {
    /// `04`.
    public var number: String
    /// `LocalPersistence`.
    public var name: String
    /// Each task's title by its number, as the stage doc's `### Task N: Title` headings give them.
    public var tasks: [Int: String]
    /// The usual time for one task of the stage, in minutes: the stage's estimate
    /// (README's table) divided by its number of tasks; `nil` when the course states none.
    public var minutesPerTask: Double?

    public init(number: String, name: String, tasks: [Int: String] = [:], minutesPerTask: Double? = nil) {
      self.number = number
      self.name = name
      self.tasks = tasks
      self.minutesPerTask = minutesPerTask
    }

    /// Past this many minutes on one failing task, its cell is "worrying": the usual time, rounded.
    public var worryingMinutes: Int? { minutesPerTask.map { max(1, Int($0.rounded())) } }

    /// Past this many minutes on one failing task, the learner is stuck: twice
    /// the usual time, rounded up to 5 minutes (the instructor's "go there now").
    public var stuckMinutes: Int? { minutesPerTask.map { max(5, Int((2 * $0 / 5).rounded(.up)) * 5) } }
  }

  /// The stages the page shows, in order.
  public let stages: [Stage]
  /// Learners give it with each post: `course join URL CODE`.
  public let joinCode: String
  /// The instructor's page and its data need it.
  public let instructorToken: String
  public let limits: Limits
  private let now: @Sendable () -> Date
  private let storage: Mutex<Storage>

  /// The SQLite connection and the rate limit, owned by the mutex.
  private struct Storage {
    let database: SQLiteConnection
    /// Tokens left and when they were counted, by learner id.
    var buckets: [Int64: (tokens: Double, at: Date)] = [:]
  }

  /// Opens the room kept at `path`, or starts a new one there with a fresh join code and token.
  ///
  /// - Parameters:
  ///   - path: The room's SQLite file; `:memory:` keeps it in memory (tests).
  ///   - now: The clock; ages and the rate limit are measured with it.
  /// - Throws: `ClassroomError.storage` when the file cannot be opened or is not a room.
  public init(
    path: String, stages: [Stage], limits: Limits = Limits(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) throws(ClassroomError) {
    self.stages = stages
    self.limits = limits
    self.now = now
    let database: SQLiteConnection
    let codes: (String, String)
    do {
      database = try SQLiteConnection(path: path)
      // With write-ahead logging, NORMAL commits survive the process being
      // killed at any moment (the operating system keeps the log); only a
      // power cut may lose the last posts. It spares an fsync per snapshot.
      try database.execute("PRAGMA synchronous = NORMAL")
      try database.migrate(Self.migrations)
      codes = try Self.codes(in: database)
    } catch {
      throw .storage("\(error)")
    }
    joinCode = codes.0
    instructorToken = codes.1
    storage = Mutex(Storage(database: database))
  }

  static let migrations = [
    SQLiteMigration(
      version: 1,
      sql: """
        CREATE TABLE room (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE learners (
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL UNIQUE COLLATE NOCASE,
          joined REAL NOT NULL,
          seen REAL NOT NULL,
          snapshot TEXT,
          task_since REAL,
          hint_at REAL
        );
        """),
    // The digest of the laptop's machine key, which lets the same laptop take its row back.
    SQLiteMigration(version: 2, sql: "ALTER TABLE learners ADD COLUMN machine TEXT"),
  ]

  /// The room's join code and instructor token, made and stored the first time.
  private static func codes(in database: SQLiteConnection) throws -> (String, String) {
    try database.transaction {
      let read = try database.prepare("SELECT name, value FROM room")
      let stored = Dictionary(uniqueKeysWithValues: try read.query { ($0.text(at: 0) ?? "", $0.text(at: 1) ?? "") })
      if let code = stored["code"], let token = stored["token"] { return (code, token) }
      let code = Secret.joinCode()
      let token = Secret.hex(bytes: 16)
      let write = try database.prepare("INSERT OR REPLACE INTO room (name, value) VALUES (?, ?)")
      try write.run([.text("code"), .text(code)])
      try write.run([.text("token"), .text(token)])
      return (code, token)
    }
  }

  // MARK: Learners

  /// What a join gave: the key the learner's later posts carry, the name as the
  /// room keeps it, and whether the laptop took back the row it had.
  public struct Joined: Sendable, Equatable {
    public var key: String
    public var name: String
    public var rejoined: Bool
  }

  /// Adds a learner, or gives a laptop back its row.
  ///
  /// A laptop proves it is the one that joined under a name with its machine
  /// key, a secret kept in the user's configuration folder, outside any clone:
  /// the room keeps only its SHA-256 digest. Joining again under the same name
  /// with the same key (a second terminal, a fresh clone, the same laptop after
  /// `course leave` failed to reach the room) returns the same learner key and
  /// keeps the row and its last snapshot. Another laptop, or none, under a taken
  /// name is refused.
  ///
  /// - Throws: `wrongCode`, `malformed` for a nickname that breaks the rules,
  ///   `nameTaken`, `roomFull`, or `storage`.
  public func join(code: String?, name rawName: String, machine: String? = nil) throws(ClassroomError) -> Joined {
    try checkCode(code)
    let name = try Self.nickname(rawName, maxLength: limits.maxNameLength)
    let digest = machine.map { SHA256.hex(Array($0.utf8)) }
    let key = Secret.hex(bytes: 16)
    let at = now().timeIntervalSince1970
    let maxLearners = limits.maxLearners
    return try storage.withLock { storage throws(ClassroomError) -> Joined in
      let database = storage.database
      do {
        let taken = try database.prepare("SELECT key, name, machine FROM learners WHERE name = ?").query([.text(name)])
        {
          (key: $0.text(at: 0) ?? "", name: $0.text(at: 1) ?? "", machine: $0.text(at: 2))
        }
        if let row = taken.first {
          guard let digest, let stored = row.machine, Secret.equal(digest, stored) else {
            throw ClassroomError.nameTaken(row.name)
          }
          try database.prepare("UPDATE learners SET seen = ? WHERE key = ?").run([.real(at), .text(row.key)])
          return Joined(key: row.key, name: row.name, rejoined: true)
        }
        let count = try database.prepare("SELECT count(*) FROM learners").query { $0.int64(at: 0) }.first ?? 0
        if count >= maxLearners { throw ClassroomError.roomFull(limit: maxLearners) }
        try database.prepare("INSERT INTO learners (key, name, joined, seen, machine) VALUES (?, ?, ?, ?, ?)")
          .run([.text(key), .text(name), .real(at), .real(at), digest.map { .text($0) } ?? .null])
        return Joined(key: key, name: name, rejoined: false)
      } catch let error as ClassroomError {
        throw error
      } catch {
        throw .storage("\(error)")
      }
    }
  }

  /// The nickname of the learner whose key this is, for the log; `nil` for a key the room does not know.
  public func name(ofLearner key: String?) -> String? {
    guard let key, !key.isEmpty else { return nil }
    return storage.withLock { storage in
      (try? storage.database.prepare("SELECT name FROM learners WHERE key = ?").query([.text(key)]) { $0.text(at: 0) })?
        .first ?? nil
    }
  }

  /// Takes one learner out of the room by their nickname, whatever its case:
  /// the instructor's way to remove a row whose laptop is gone.
  ///
  /// Their laptop's next snapshot is answered 404, and `course join` from it adds them again.
  /// - Returns: the name as the room kept it.
  /// - Throws: `noSuchLearner` when nobody in the room has that name, or `storage`.
  @discardableResult
  public func forget(name: String) throws(ClassroomError) -> String {
    let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines)
    return try storage.withLock { storage throws(ClassroomError) -> String in
      do {
        let rows = try storage.database.prepare("SELECT id, name FROM learners WHERE name = ?")
          .query([.text(wanted)]) { ($0.int64(at: 0), $0.text(at: 1) ?? "") }
        guard let row = rows.first else { throw ClassroomError.noSuchLearner(wanted) }
        try storage.database.prepare("DELETE FROM learners WHERE id = ?").run([.integer(row.0)])
        storage.buckets[row.0] = nil
        return row.1
      } catch let error as ClassroomError {
        throw error
      } catch {
        throw .storage("\(error)")
      }
    }
  }

  /// Records a learner's snapshot, which replaces their last one.
  ///
  /// A malformed body changes nothing; neither does a post refused for its code,
  /// its learner or its rate.
  /// - Throws: `wrongCode`, `unknownLearner`, `tooOften`, `tooLarge`, `malformed`, or `storage`.
  public func post(code: String?, learner key: String?, body: Data) throws(ClassroomError) {
    try checkCode(code)
    let snapshot = try Snapshot.decode(body)
    let at = now()
    let limits = limits
    try storage.withLock { storage throws(ClassroomError) in
      let database = storage.database
      let row: (id: Int64, snapshot: Snapshot?, taskSince: Double?, hintAt: Double?)
      do {
        guard
          let found = try database.prepare("SELECT id, snapshot, task_since, hint_at FROM learners WHERE key = ?")
            .query(
              [.text(key ?? "")],
              row: { statement in
                (
                  statement.int64(at: 0), statement.text(at: 1).flatMap { try? Snapshot.decode(Data($0.utf8)) },
                  statement.isNull(at: 2) ? nil : statement.double(at: 2),
                  statement.isNull(at: 3) ? nil : statement.double(at: 3)
                )
              }
            ).first
        else { throw ClassroomError.unknownLearner }
        row = found
      } catch let error as ClassroomError {
        throw error
      } catch {
        throw .storage("\(error)")
      }
      try Self.spend(&storage.buckets, learner: row.id, at: at, limits: limits)
      let taskSince = at.timeIntervalSince1970 - Double(snapshot.secondsOnTask)
      let tookHint =
        snapshot.event == .hint
        || (row.snapshot.map { $0.stage == snapshot.stage && snapshot.hints > $0.hints } ?? false)
      let hintAt = tookHint ? at.timeIntervalSince1970 : row.hintAt
      do {
        try database.prepare("UPDATE learners SET seen = ?, snapshot = ?, task_since = ?, hint_at = ? WHERE id = ?")
          .run([
            .real(at.timeIntervalSince1970), .text(String(decoding: snapshot.encoded(), as: UTF8.self)),
            .real(taskSince), hintAt.map { .real($0) } ?? .null, .integer(row.id),
          ])
      } catch {
        throw .storage("\(error)")
      }
    }
  }

  /// Takes a learner out of the room, with their snapshots.
  ///
  /// - Throws: `wrongCode`, `unknownLearner`, or `storage`.
  public func leave(code: String?, learner key: String?) throws(ClassroomError) {
    try checkCode(code)
    try storage.withLock { storage throws(ClassroomError) in
      do {
        let ids = try storage.database.prepare("SELECT id FROM learners WHERE key = ?")
          .query([.text(key ?? "")]) { $0.int64(at: 0) }
        guard let id = ids.first else { throw ClassroomError.unknownLearner }
        try storage.database.prepare("DELETE FROM learners WHERE id = ?").run([.integer(id)])
        storage.buckets[id] = nil
      } catch let error as ClassroomError {
        throw error
      } catch {
        throw .storage("\(error)")
      }
    }
  }

  /// Every learner as stored, in the order they joined.
  public func learners() throws(ClassroomError) -> [Learner] {
    try storage.withLock { storage throws(ClassroomError) in
      do {
        return try storage.database.prepare(
          "SELECT name, joined, seen, snapshot, task_since, hint_at FROM learners ORDER BY id"
        ).query { statement in
          Learner(
            name: statement.text(at: 0) ?? "",
            joined: Date(timeIntervalSince1970: statement.double(at: 1)),
            seen: Date(timeIntervalSince1970: statement.double(at: 2)),
            snapshot: statement.text(at: 3).flatMap { try? Snapshot.decode(Data($0.utf8)) },
            taskSince: statement.isNull(at: 4) ? nil : Date(timeIntervalSince1970: statement.double(at: 4)),
            hintAt: statement.isNull(at: 5) ? nil : Date(timeIntervalSince1970: statement.double(at: 5)))
        }
      } catch {
        throw .storage("\(error)")
      }
    }
  }

  /// The room as the instructor's page shows it, at this moment.
  ///
  /// - Parameters:
  ///   - stuckAfter: Minutes on one failing task that make any learner stuck;
  ///     `nil` uses each stage's own figure (`Stage.stuckMinutes`), or 15 minutes where it has none.
  ///   - hintFor: How long a hint marks the learner.
  public func view(stuckAfter: Duration? = nil, hintFor: Duration) throws(ClassroomError) -> RoomView {
    RoomView(
      learners: try learners(), stages: stages, now: now(), stuckAfter: stuckAfter, hintFor: hintFor)
  }

  /// One learner, as the room keeps them.
  public struct Learner: Sendable, Equatable {
    public var name: String
    public var joined: Date
    /// When their last snapshot (or their join) arrived.
    public var seen: Date
    public var snapshot: Snapshot?
    /// Since when they have been on their snapshot's task, by the room's clock.
    public var taskSince: Date?
    /// When they last took a hint.
    public var hintAt: Date?
  }

  // MARK: Rules

  /// Checks the join code in constant time.
  public func checkCode(_ code: String?) throws(ClassroomError) {
    guard let code, Secret.equal(code, joinCode) else { throw .wrongCode }
  }

  /// Checks the instructor token in constant time.
  public func checkToken(_ token: String?) throws(ClassroomError) {
    guard let token, Secret.equal(token, instructorToken) else { throw .wrongToken }
  }

  /// A nickname as the room keeps it: trimmed, 1 to `maxLength` characters, no
  /// control characters, and no format characters (Unicode's Cf: the bidi
  /// overrides and isolates such as U+202E, which make a name display reversed,
  /// zero-width joiners and spaces, which make two names look alike).
  static func nickname(_ text: String, maxLength: Int) throws(ClassroomError) -> String {
    let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { throw .malformed("name is empty") }
    guard name.count <= maxLength else { throw .malformed("name is longer than \(maxLength) characters") }
    guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.value == 0x7F })
    else { throw .malformed("name holds a control character") }
    if let format = name.unicodeScalars.first(where: { $0.properties.generalCategory == .format }) {
      let code = String(format.value, radix: 16, uppercase: true)
      throw .malformed(
        "name holds an invisible formatting character (U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code)), "
          + "such as one that reverses text; use letters, digits, spaces and punctuation")
    }
    return name
  }

  /// Takes one token from the learner's bucket, or says when the next one comes.
  private static func spend(
    _ buckets: inout [Int64: (tokens: Double, at: Date)], learner: Int64, at: Date, limits: Limits
  ) throws(ClassroomError) {
    let capacity = Double(limits.burst)
    let last = buckets[learner] ?? (capacity, at)
    let tokens = min(capacity, last.tokens + max(0, at.timeIntervalSince(last.at)) * limits.perSecond)
    guard tokens >= 1 else {
      buckets[learner] = (tokens, at)
      throw .tooOften(seconds: max(1, Int(((1 - tokens) / limits.perSecond).rounded(.up))))
    }
    buckets[learner] = (tokens - 1, at)
  }
}
