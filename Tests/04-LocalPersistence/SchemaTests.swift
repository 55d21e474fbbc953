import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

/// Tasks 1 and 2 through SQL alone: these pass as soon as the migrations do,
/// before the data source can save or read.
@Suite(.timeLimit(.minutes(1)))
struct SchemaTests {
  /// One column as `PRAGMA table_info` describes it.
  struct Column: Equatable, CustomStringConvertible {
    var name: String
    var type: String
    var notNull: Bool
    var primaryKey: Bool

    var description: String {
      "\(name) \(type)" + (primaryKey ? " PRIMARY KEY" : "") + (notNull ? " NOT NULL" : "")
    }
  }

  /// The products table as the doc specifies version 1, in order.
  static let version1: [Column] = [
    Column(name: "id", type: "INTEGER", notNull: false, primaryKey: true),
    Column(name: "title", type: "TEXT", notNull: true, primaryKey: false),
    Column(name: "description", type: "TEXT", notNull: true, primaryKey: false),
    Column(name: "category", type: "TEXT", notNull: true, primaryKey: false),
    Column(name: "price", type: "TEXT", notNull: true, primaryKey: false),
    Column(name: "discount_percentage", type: "REAL", notNull: true, primaryKey: false),
    Column(name: "rating", type: "REAL", notNull: true, primaryKey: false),
    Column(name: "stock", type: "INTEGER", notNull: true, primaryKey: false),
    Column(name: "thumbnail", type: "TEXT", notNull: false, primaryKey: false),
    Column(name: "updated_at", type: "REAL", notNull: true, primaryKey: false),
  ]

  /// A `:memory:` database migrated to `version` one migration at a time, or
  /// the test stops naming the first migration that failed.
  func database(at version: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> SQLiteConnection
  {
    let database = try SQLiteConnection(path: ":memory:")
    for step in 1...version {
      _ = try await guide.attempt(
        step, "migration \(step) should run on a database at version \(step - 1)", sourceLocation: sourceLocation
      ) { try database.migrate(Array(SQLiteProductLocalDataSource.migrations.prefix(step))) }
    }
    return database
  }

  func columns(of database: SQLiteConnection) throws -> [Column] {
    try database.prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info('products')").query {
      Column(
        name: $0.text(at: 0) ?? "", type: $0.text(at: 1) ?? "", notNull: $0.int64(at: 2) == 1,
        primaryKey: $0.int64(at: 3) == 1)
    }
  }

  /// What differs between two column lists, by name: missing, extra, or declared differently.
  func columnDifferences(expected: [Column], actual: [Column]) -> String {
    var problems: [String] = []
    for column in expected {
      guard let found = actual.first(where: { $0.name == column.name }) else {
        problems.append("missing \(column)")
        continue
      }
      if found != column { problems.append("\(found.name) is \"\(found)\", expected \"\(column)\"") }
    }
    for column in actual where !expected.contains(where: { $0.name == column.name }) {
      problems.append("unexpected column \(column)")
    }
    if problems.isEmpty && actual.map(\.name) != expected.map(\.name) {
      problems.append("the columns are in the order \(actual.map(\.name)), expected \(expected.map(\.name))")
    }
    return problems.joined(separator: "; ")
  }

  @Test func version1CreatesTheTableAsSpecified() async throws {
    let database = try await database(at: 1)
    let found = try columns(of: database)
    #expect(
      found == Self.version1,
      guide.task(
        1,
        "migration 1 should create products exactly as the doc's table says: \(columnDifferences(expected: Self.version1, actual: found))"
      )
    )
  }

  @Test func version1RefusesABlankTitleAndANegativeStock() async throws {
    let database = try await database(at: 1)
    let insert = """
      INSERT INTO products (id, title, description, category, price, discount_percentage, rating, stock, thumbnail, updated_at)
      VALUES (?, ?, '', 'test', '1', 0, 0, ?, NULL, 0)
      """
    _ = try await guide.attempt(1, "a version-1 row with a title and stock 3 should insert") {
      try database.prepare(insert).run([1, "Lamp", 3])
    }
    let rows: [(what: String, values: [SQLiteValue])] = [
      ("an empty title", [2, "", 3]), ("a stock of -1", [3, "Kettle", -1]), ("a NULL title", [4, nil, 3]),
    ]
    await guide.expectEvery(
      rows, task: 1, "the table's constraints should refuse each bad row with a constraint failure (SQLITE_CONSTRAINT)"
    ) { what, values in
      let outcome = Result { try database.prepare(insert).run(values) }
      return isConstraintFailure(outcome.failure)
        ? nil : ("\(what) gave \(outcome.map { _ in "a new row" }.described)", nil)
    }
  }

  @Test func version2AddsANullableBrandAndTheListsIndex() async throws {
    let database = try await database(at: 2)
    let found = try columns(of: database)
    let expected = Self.version1 + [Column(name: "brand", type: "TEXT", notNull: false, primaryKey: false)]
    // A wrong version-1 column is Task 1's, and its own test says so: here only what migration 2 adds counts.
    let firstColumnsRight = Array(found.prefix(Self.version1.count)) == Self.version1
    #expect(
      found == expected || !firstColumnsRight && found.last == expected.last && found.count == expected.count,
      guide.task(
        2,
        "migration 2 should add brand TEXT, nullable, after the version-1 columns: \(columnDifferences(expected: expected, actual: found))"
      )
    )
    let indexes = try database.prepare("SELECT name FROM pragma_index_list('products') WHERE origin = 'c'").query {
      $0.text(at: 0) ?? ""
    }
    let keys = try indexes.map { index in
      try database.prepare("SELECT name, \"desc\" FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno").query(
        [.text(index)]
      ) { "\($0.text(at: 0) ?? "?") \($0.int64(at: 1) == 1 ? "DESC" : "ASC")" }
    }
    let foundIndexes =
      keys.isEmpty ? "no index" : keys.map { "an index on (\($0.joined(separator: ", ")))" }.joined(separator: " and ")
    let direction = keys.contains(["updated_at ASC", "id ASC"]) ? ": updated_at must be DESC" : ""
    #expect(
      keys.contains(["updated_at DESC", "id ASC"]),
      guide.task(
        2,
        "migration 2 should create an index on (updated_at DESC, id ASC), the list's order; found \(foundIndexes)\(direction)"
      )
    )
  }

  @Test func migratesAVersion1FileAndKeepsItsData() async throws {
    let file = TemporaryDatabase()
    _ = try await guide.attempt(1, "a version-1 file with one row should be made by migration 1 and an INSERT") {
      let database = try SQLiteConnection(path: file.path)
      try database.migrate(Array(SQLiteProductLocalDataSource.migrations.prefix(1)))
      try database.prepare(
        """
        INSERT INTO products (id, title, description, category, price, discount_percentage, rating, stock, thumbnail, updated_at)
        VALUES (1, 'Kept across the migration', 'From version 1', 'legacy', '12.50', 5, 4.5, 3, NULL, 768000000)
        """
      ).run()
    }
    let (title, brandIsNull, version) = try await guide.attempt(
      2, "opening that file and migrating it to version 2 should keep its row"
    ) {
      let database = try SQLiteConnection(path: file.path)
      try database.migrate(SQLiteProductLocalDataSource.migrations)
      let row = try database.prepare("SELECT title, brand IS NULL FROM products WHERE id = 1").query {
        ($0.text(at: 0) ?? "", $0.int64(at: 1) == 1)
      }
      return (row.first?.0, row.first?.1, try database.userVersion())
    }
    #expect(
      title == "Kept across the migration" && brandIsNull == true && version == 2,
      guide.task(
        2,
        "the version-1 row should survive with brand NULL and the file should record user_version 2; got title \(title ?? "none"), brand NULL \(brandIsNull.map { "\($0)" } ?? "?"), user_version \(version)"
      )
    )
  }

  @Test func migratesOnlyOnce() async throws {
    let file = TemporaryDatabase()
    let applied = try await guide.attempt(2, "migrating a new file, then opening and migrating it again") {
      _ = try SQLiteConnection(path: file.path).migrate(SQLiteProductLocalDataSource.migrations)
      return try SQLiteConnection(path: file.path).migrate(SQLiteProductLocalDataSource.migrations)
    }
    #expect(
      applied.isEmpty,
      guide.task(2, "a database at version 2 should need no migration when it opens again, but \(applied) ran again")
    )
  }
}
