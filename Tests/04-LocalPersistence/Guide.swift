import CourseFixtures
import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

let guide = StageGuide(
  doc: "Docs/04-LocalPersistence.md",
  tasks: [
    1: "Create the schema",
    2: "Open the first release's file",
    3: "Give back what was saved",
    4: "Save all or nothing",
    5: "Read newest first",
    6: "Keep the disk off the main actor",
  ]
)

/// The 194 real records as domain products, through stage 02's finished DTO mapping.
let realProductsResult = Result {
  try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).map { try $0.toDomain() }
}

/// The 194 real records; stage 02's mapping is finished code here, so this throws only if it was edited.
func realProducts() throws -> [Product] { try realProductsResult.get() }

/// Opens a data source, or stops the test with one issue naming Task 1 (or the
/// unfinished task whose stub threw).
func openDatabase(
  _ path: String = ":memory:", sourceLocation: SourceLocation = #_sourceLocation
) async throws -> SQLiteProductLocalDataSource {
  try await guide.attempt(
    1, "SQLiteProductLocalDataSource(path: \"\(path)\") must open the file and give it your schema first",
    sourceLocation: sourceLocation
  ) { try SQLiteProductLocalDataSource(path: path) }
}

/// Saves through the data source, or stops the test with one issue naming Task 4
/// (or the unfinished task whose stub threw): a `SQLiteError` from `save(_:)` is Task 4's.
func save(
  _ products: [Product], to local: SQLiteProductLocalDataSource, _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  try await guide.attempt(4, what, sourceLocation: sourceLocation) { try await local.save(products) }
}

/// Reads every product through the data source, or stops the test naming Task 5.
func readAll(
  _ local: SQLiteProductLocalDataSource, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [Product] {
  try await guide.attempt(5, what, sourceLocation: sourceLocation) { try await local.products() }
}

/// The table the app's first release shipped (version 1 of the schema), as
/// `Docs/04-LocalPersistence.md` gives it: history, which every version of the
/// store must still open.
let firstReleaseSchema = """
  CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL CHECK (length(title) > 0),
    description TEXT NOT NULL,
    category TEXT NOT NULL,
    price TEXT NOT NULL,
    discount_percentage REAL NOT NULL,
    rating REAL NOT NULL,
    stock INTEGER NOT NULL CHECK (stock >= 0),
    thumbnail TEXT,
    updated_at REAL NOT NULL
  );
  PRAGMA user_version = 1;
  """

/// One row as the first release wrote it: the price as decimal text, the date
/// as seconds since 2001, the thumbnail as its URL's text.
struct FirstReleaseRow: Sendable {
  var id: Int64
  var title = "Kept across the migration"
  var description = "From version 1"
  var category = "legacy"
  var price = "12.50"
  var discountPercentage = 5.0
  var rating = 4.5
  var stock: Int64 = 3
  var thumbnail: String? = "https://cdn.example/legacy.webp"
  var updatedAt = 768_000_000.0

  /// The product this row means: what any version of the store must read from it.
  var product: Product {
    Product(
      id: Int(id), title: title, description: description, category: category,
      price: Decimal(string: price) ?? 0, discountPercentage: discountPercentage, rating: rating,
      stock: Int(stock), brand: nil, thumbnail: thumbnail.flatMap(URL.init(string:)),
      updatedAt: Date(timeIntervalSinceReferenceDate: updatedAt))
  }
}

/// Writes a file at `path` as the first release left it: its table, `user_version` 1 and `rows`.
/// The test's own SQL, so it needs nothing of yours.
func writeFirstReleaseFile(at path: String, rows: [FirstReleaseRow]) throws {
  let database = try SQLiteConnection(path: path)
  try database.execute(firstReleaseSchema)
  let insert = try database.prepare(
    """
    INSERT INTO products (id, title, description, category, price, discount_percentage, rating, stock, thumbnail, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """)
  for row in rows {
    try insert.run([
      .integer(row.id), .text(row.title), .text(row.description), .text(row.category), .text(row.price),
      .real(row.discountPercentage), .real(row.rating), .integer(row.stock),
      row.thumbnail.map(SQLiteValue.text) ?? .null, .real(row.updatedAt),
    ])
  }
}

/// A second connection to a store's file, the test's own: it finds your rows by
/// the text they hold, whatever your tables and columns are called.
struct RawFile {
  let database: SQLiteConnection

  init(_ path: String) throws { database = try SQLiteConnection(path: path) }

  /// Your tables, without SQLite's own.
  func tables() throws -> [String] {
    try database.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).query { $0.text(at: 0) ?? "" }
  }

  /// The columns of `table`, in their order.
  func columns(of table: String) throws -> [String] {
    try database.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid").query([.text(table)]) {
      $0.text(at: 0) ?? ""
    }
  }

  /// Every (table, column) that holds `text`, exactly, in some row.
  func places(holding text: String) throws -> [(table: String, column: String)] {
    var found: [(table: String, column: String)] = []
    for table in try tables() {
      for column in try columns(of: table) {
        let rows = try database.prepare(
          "SELECT 1 FROM \(quoted(table)) WHERE \(quoted(column)) = ? LIMIT 1"
        ).query([.text(text)]) { _ in true }
        if !rows.isEmpty { found.append((table, column)) }
      }
    }
    return found
  }

  /// Whether any row of any table holds `text`, exactly.
  func holds(_ text: String) throws -> Bool { try !places(holding: text).isEmpty }

  /// Makes every column that holds `knownTitle` refuse, with triggers, any row
  /// whose value there is `refusedTitle`: a save fails part-way with SQLite's
  /// own constraint error, and your code needs no hook for it.
  /// - Returns: How many columns the trap covers (0: no column holds the title as text).
  func refuseRows(titled refusedTitle: String, findingColumnsBy knownTitle: String) throws -> Int {
    let places = try places(holding: knownTitle)
    for (index, place) in places.enumerated() {
      for event in ["INSERT", "UPDATE"] {
        try database.execute(
          """
          CREATE TRIGGER test_refuses_\(event.lowercased())_\(index) BEFORE \(event) ON \(quoted(place.table))
          WHEN NEW.\(quoted(place.column)) = '\(refusedTitle)'
          BEGIN SELECT RAISE(ABORT, 'the test refuses this row'); END
          """)
      }
    }
    return places.count
  }

  /// Each table's columns (name, type, NOT NULL, default, key), indexes (keys
  /// and their directions, unique or not) and CHECK constraints, by table name:
  /// what a schema is, whichever route built it.
  func shape() throws -> [String] {
    try tables().map { table in
      let columns = try database.prepare(
        "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid"
      ).query([.text(table)]) { row in
        "\(row.text(at: 0) ?? "") \(row.text(at: 1) ?? "")\(row.int64(at: 2) == 1 ? " NOT NULL" : "")"
          + "\(row.text(at: 3).map { " DEFAULT \($0)" } ?? "")\(row.int64(at: 4) > 0 ? " KEY \(row.int64(at: 4))" : "")"
      }
      let indexes = try database.prepare(
        "SELECT name, \"unique\" FROM pragma_index_list(?) ORDER BY name"
      ).query([.text(table)]) { (name: $0.text(at: 0) ?? "", unique: $0.int64(at: 1) == 1) }
      let keys = try indexes.map { index in
        let keys = try database.prepare(
          "SELECT name, \"desc\" FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno"
        ).query([.text(index.name)]) { "\($0.text(at: 0) ?? "?") \($0.int64(at: 1) == 1 ? "DESC" : "ASC")" }
        return "\(index.unique ? "unique " : "")index (\(keys.joined(separator: ", ")))"
      }
      let checks = try self.checks(of: table)
      return
        "\(table): \(columns.joined(separator: ", "))\(keys.isEmpty ? "" : "; ")\(keys.sorted().joined(separator: "; "))"
        + (checks.isEmpty ? "" : "; CHECK " + checks.joined(separator: ", CHECK "))
    }
  }

  /// The CHECK constraints of `table`, each without white space and in lower
  /// case, sorted. SQLite keeps them only in the table's SQL text (which an
  /// `ALTER TABLE … ADD COLUMN` extends), so a new file and an upgraded one can
  /// differ in them while every pragma agrees.
  func checks(of table: String) throws -> [String] {
    let sql =
      try database.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
      .query([.text(table)]) { $0.text(at: 0) ?? "" }.first ?? ""
    let text = Array(sql.lowercased())
    var found: [String] = []
    var index = 0
    while index + 5 <= text.count {
      let startsWord = index == 0 || !(text[index - 1].isLetter || text[index - 1].isNumber || text[index - 1] == "_")
      guard startsWord, String(text[index..<index + 5]) == "check" else {
        index += 1
        continue
      }
      var open = index + 5
      while open < text.count, text[open].isWhitespace { open += 1 }
      guard open < text.count, text[open] == "(" else {
        index += 5
        continue
      }
      var depth = 0
      var end = open
      repeat {
        if text[end] == "(" { depth += 1 } else if text[end] == ")" { depth -= 1 }
        end += 1
      } while depth > 0 && end < text.count
      found.append(String(text[open..<end].filter { !$0.isWhitespace }))
      index = end
    }
    return found.sorted()
  }

  private func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

/// The title the test's trigger refuses.
let refusedTitle = "Refused by the test"

/// Sets the test's trap on the file at `path`: every column that holds
/// `knownTitle` refuses a row titled `refusedTitle`. Stops the test, naming
/// Task 1, when no column holds the title as text.
func trap(
  _ path: String, knownTitle: String, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> RawFile {
  let (raw, covered) = try await guide.attempt(
    1, "a second connection should set the test's trigger on your tables", sourceLocation: sourceLocation
  ) {
    let raw = try RawFile(path)
    return (raw, try raw.refuseRows(titled: refusedTitle, findingColumnsBy: knownTitle))
  }
  try #require(
    covered > 0,
    guide.task(
      1,
      "the test finds your rows by the text they hold, and no column of \((try? raw.tables()) ?? []) holds the saved title \"\(knownTitle)\": keep a product's title as TEXT, as it is"
    ), sourceLocation: sourceLocation)
  return raw
}

/// The comment for a save that the test's trigger refused part-way but that did
/// not fail with SQLITE_CONSTRAINT: the error was swallowed, or another one came.
func trappedSaveComment(_ outcome: Result<Void, any Error>, refused id: Int) -> Comment {
  let got = outcome.map { _ in "no error" }.described
  let swallowed =
    outcome.failure == nil
    ? ": the test's trigger refused product \(id), so is an error swallowed (try?) in the loop?" : ""
  return guide.task(
    4,
    "save(_:) should throw the SQLiteError (SQLITE_CONSTRAINT) that SQLite raised for product \(id), got \(got)\(swallowed)",
    blaming: outcome.failure)
}

/// Whether `error` is SQLite's constraint failure (a CHECK, NOT NULL or UNIQUE that said no).
func isConstraintFailure(_ error: (any Error)?) -> Bool {
  (error as? SQLiteError)?.code == .constraint
}

/// The order `products()` promises: newest `updatedAt` first, then by id.
func newestFirst(_ products: [Product]) -> [Product] {
  products.sorted { $0.updatedAt != $1.updatedAt ? $0.updatedAt > $1.updatedAt : $0.id < $1.id }
}

/// A database file in the temporary folder, removed with its WAL files and any
/// `.unreadable` copy `openOrReset(path:)` made, when the value goes away.
struct TemporaryDatabase: ~Copyable {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("stage04-\(UUID().uuidString).sqlite").path

  deinit {
    SQLiteConnection.removeDatabase(atPath: path)
    SQLiteConnection.removeDatabase(atPath: path + ".unreadable")
  }
}

extension Product {
  static func sample(
    id: Int, title: String = "Sample", stock: Int = 1, updatedAt: Date = Date(timeIntervalSince1970: 1_746_006_062)
  ) -> Product {
    Product(
      id: id, title: title, description: "", category: "test", price: 1, discountPercentage: 0, rating: 0,
      stock: stock, brand: nil, thumbnail: nil, updatedAt: updatedAt)
  }
}
