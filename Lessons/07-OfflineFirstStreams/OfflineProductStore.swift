import CourseSQLite
import Foundation
import LessonSupport

/// The source of truth of stage 07: the products on the device, the changes
/// waiting to reach the catalog (the outbox), and how far the catalog was paged.
///
/// Every change commits in one transaction and then publishes the new list to
/// the observers (`commit(_:)`), so a screen shows what the database holds,
/// whoever changed it: a refresh, a page, the user, or the sync engine.
/// It opens the same database file as stage 04's `SQLiteProductLocalDataSource`
/// and adds migrations 5 to 7 to its history. A table or column your design
/// needs goes in a migration of your own, after them.
actor OfflineProductStore {
  let database: SQLiteConnection
  /// The product list as observers see it.
  let changes = ProductBroadcast<[Product]>()
  private let makeKey: @Sendable () -> String

  /// Opens (or creates) the database at `path`, or `":memory:"`, and brings its schema up to date.
  ///
  /// - Parameter makeKey: Makes each outbox entry's idempotency key; a random UUID in the app.
  /// - Throws: `SQLiteError`.
  init(path: String, makeKey: @escaping @Sendable () -> String = { UUID().uuidString }) throws {
    let database = try SQLiteConnection(path: path)
    try database.migrate(SQLiteProductLocalDataSource.migrations + Self.migrations)
    self.database = database
    self.makeKey = makeKey
  }

  /// Stage 07's migrations, after stage 06's four.
  ///
  /// Migration 5's tables are created only if missing: a file of this stage's
  /// first release recorded them as version 4, which is now stage 06's fix of the cache's foreign key.
  static let migrations: [SQLiteMigration] = [
    SQLiteMigration(
      version: 5,
      sql: """
        CREATE TABLE IF NOT EXISTS outbox (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT,
          idempotency_key TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL CHECK (kind IN ('add', 'update', 'delete')),
          product_id INTEGER NOT NULL,
          body BLOB,
          edited_at REAL NOT NULL,
          set_aside_reason TEXT
        );
        CREATE TABLE IF NOT EXISTS paging (
          name TEXT PRIMARY KEY,
          next_skip INTEGER NOT NULL,
          total INTEGER NOT NULL
        );
        """),
    // Against a real server: each edit's base version, and the revision a page is checked against.
    SQLiteMigration(
      version: 6,
      sql: """
        ALTER TABLE outbox ADD COLUMN base_version TEXT;
        CREATE TABLE store_counters (
          name TEXT PRIMARY KEY,
          value INTEGER NOT NULL
        );
        INSERT INTO store_counters (name, value) VALUES ('revision', 0);
        CREATE TABLE product_revisions (
          product_id INTEGER PRIMARY KEY,
          revision INTEGER NOT NULL
        );
        """),
    // The catalog's version of each product, as it wrote it, for If-Match. A
    // row from before has only its date: written back in the catalog's own
    // spelling (SQLite rounds it to the millisecond the catalog sent), it is
    // right for what a page stored; if not, the catalog answers 412, a conflict
    // the policy settles, and never a write over a copy the device did not see.
    SQLiteMigration(
      version: 7,
      sql: """
        ALTER TABLE products ADD COLUMN version TEXT;
        UPDATE products SET version = strftime('%Y-%m-%dT%H:%M:%fZ', updated_at + 978307200, 'unixepoch');
        """),
  ]

  /// Every product, newest `updatedAt` first, then by id: the list observers see.
  func products() throws -> [Product] {
    try database.prepare("SELECT \(Self.productColumns) FROM products ORDER BY updated_at DESC, id")
      .query(row: Self.product)
  }

  /// A product's columns: stage 04's row, then the catalog's version.
  static let productColumns = "\(ProductRow.columns), version"

  /// The product in the current row of a statement that selected `productColumns`.
  static func product(_ statement: SQLiteStatement) throws -> Product {
    var product = try ProductRow(statement: statement).toDomain()
    product.version = statement.text(at: 11)
    return product
  }

  // MARK: Task 2: observe the store

  /// The product list now, and then after every committed change.
  func observe() throws -> AsyncStream<[Product]> {
    // TODO: Task 2. The stored list at once, then every committed change (Docs/07, Task 2).
    throw NotDoneYet("Task 2", in: "Docs/07-OfflineFirstStreams.md", "stream the stored list and every change")
  }

  /// Runs `body` in one transaction; once it commits, observers get the new list.
  ///
  /// When `body` throws, nothing it wrote stays and observers hear nothing.
  func commit<Result>(_ body: () throws -> Result) throws -> Result {
    // TODO: Task 2. Observers hear of every change that commits, and of none that rolls back (Docs/07, Task 2).
    try database.transaction(body)
  }

  // MARK: One boundary for every write (finished)

  /// The row for `product`, or the reason the store refuses it: every write
  /// (the user's, a page's, the catalog's answer) passes here before it is stored.
  ///
  /// Stage 04's price check, and what else would not read back or would not
  /// reach the catalog: a blank title, a NUL in text, a number that is not finite, a negative stock.
  static func storableRow(_ product: Product) throws -> ProductRow {
    func refuse(_ reason: String) -> LocalDataSourceError { .unsavable(id: product.id, reason: reason) }
    let texts =
      [("title", product.title), ("description", product.description), ("category", product.category)]
      + (product.brand.map { [("brand", $0)] } ?? [])
    if let (field, _) = texts.first(where: { $0.1.utf8.contains(0) }) {
      throw refuse("\(field) holds a NUL character")
    }
    guard !product.title.allSatisfy(\.isWhitespace) else { throw refuse("title is blank") }
    guard product.rating.isFinite, product.discountPercentage.isFinite else {
      throw refuse("rating \(product.rating) or discount \(product.discountPercentage) is not a finite number")
    }
    guard product.stock >= 0 else { throw refuse("stock \(product.stock) is negative") }
    return try SQLiteProductLocalDataSource.savableRow(product)
  }

  /// Stores `product` by id, its `version` too, through the boundary: every write of a product goes here.
  func upsert(_ product: Product) throws {
    try database.prepare(SQLiteProductLocalDataSource.upsert).run(Self.storableRow(product).values)
    try database.prepare("UPDATE products SET version = ? WHERE id = ?")
      .run([product.version.map(SQLiteValue.text) ?? .null, .integer(Int64(product.id))])
  }

  // MARK: Revisions: what a page fetched earlier must not undo (finished)

  /// The store's revision now: take it before fetching a page, and give it to `savePage(_:fetchedAt:)`.
  func revision() throws -> Int {
    try counter("revision")
  }

  private func counter(_ name: String) throws -> Int {
    try database.prepare("SELECT value FROM store_counters WHERE name = ?").query([.text(name)]) {
      Int($0.int64(at: 0))
    }.first ?? 0
  }

  /// Notes that the device's copy of these products changed now, whatever changed it: each id's row
  /// in `product_revisions` takes the store's new revision, which a page fetched earlier must not undo.
  func touch(_ ids: [Int]) throws {
    try database.execute("UPDATE store_counters SET value = value + 1 WHERE name = 'revision'")
    let revision = try counter("revision")
    let statement = try database.prepare(
      """
      INSERT INTO product_revisions (product_id, revision) VALUES (?, ?)
      ON CONFLICT(product_id) DO UPDATE SET revision = excluded.revision
      """)
    for id in ids { try statement.run([.integer(Int64(id)), .integer(Int64(revision))]) }
  }

  // MARK: Pages from the catalog

  /// The name the catalog's paging state is stored under.
  static let catalog = "catalog"

  /// Where the next page starts, and the catalog's size once a page said it.
  func paging() throws -> (nextSkip: Int, total: Int?) {
    let rows = try database.prepare("SELECT next_skip, total FROM paging WHERE name = ?")
      .query([.text(Self.catalog)]) { (Int($0.int64(at: 0)), Int($0.int64(at: 1))) }
    guard let (nextSkip, total) = rows.first else { return (0, nil) }
    return (nextSkip, total)
  }

  /// Writes a page of the catalog through the store, in one transaction.
  ///
  /// - Parameter revision: `revision()` as it was before the page was fetched.
  /// - Throws: `LocalDataSourceError.unsavable` for a product the boundary refuses;
  ///   nothing of the page is stored then.
  func savePage(_ page: ProductPage, fetchedAt revision: Int) throws {
    // TODO: Tasks 2 to 4. A page reaches the store and its observers in one
    // transaction, remembers where the next one starts, and never undoes what
    // the person did on this device (Docs/07: Tasks 2, 3 and 4).
    throw NotDoneYet("Task 2", in: "Docs/07-OfflineFirstStreams.md", "store a page of the catalog")
  }

  // MARK: Task 4: write locally with an outbox

  /// Applies the user's change to the products and adds it to the outbox, in one transaction.
  ///
  /// - Parameter editedAt: When the user made the change.
  /// - Returns: The product as stored (an added one with its temporary negative id), or `nil` for a delete.
  @discardableResult
  func record(_ change: ProductChange, editedAt: Date) throws -> Product? {
    // TODO: Task 4. The change and its outbox entry land together, or neither does (Docs/07, Task 4).
    throw NotDoneYet("Task 4", in: "Docs/07-OfflineFirstStreams.md", "store the change and queue it in the outbox")
  }

  // MARK: The outbox, as the sync engine reads it (finished)

  private static let outboxColumns =
    "sequence, idempotency_key, kind, product_id, body, edited_at, set_aside_reason, base_version"

  private static func entry(_ row: SQLiteStatement) -> OutboxEntry {
    OutboxEntry(
      sequence: Int(row.int64(at: 0)),
      idempotencyKey: row.text(at: 1) ?? "",
      kind: OutboxEntry.Kind(rawValue: row.text(at: 2) ?? "") ?? .update,
      productID: Int(row.int64(at: 3)),
      body: row.isNull(at: 4) ? nil : row.blob(at: 4) ?? Data(),
      editedAt: Date(timeIntervalSinceReferenceDate: row.double(at: 5)),
      state: row.text(at: 6).map { .setAside(reason: $0) } ?? .pending,
      baseVersion: row.text(at: 7))
  }

  /// The first pending entry, the oldest change not yet sent, or `nil` when none waits.
  func nextPending() throws -> OutboxEntry? {
    try database.prepare(
      "SELECT \(Self.outboxColumns) FROM outbox WHERE set_aside_reason IS NULL ORDER BY sequence LIMIT 1"
    ).query(row: Self.entry).first
  }

  /// Every entry, pending and set aside, in order.
  func outbox() throws -> [OutboxEntry] {
    try database.prepare("SELECT \(Self.outboxColumns) FROM outbox ORDER BY sequence").query(row: Self.entry)
  }

  /// How many entries wait to be sent.
  func pendingCount() throws -> Int {
    try database.prepare("SELECT count(*) FROM outbox WHERE set_aside_reason IS NULL").query {
      Int($0.int64(at: 0))
    }.first ?? 0
  }

  /// Removes a sent entry and stores what the catalog answered.
  ///
  /// A receipt with no copy (a delete's, or an answer that holds no product the
  /// app accepts) leaves the device's own copy, and a copy the boundary refuses is not stored.
  func complete(_ entry: OutboxEntry, receipt: WriteReceipt) throws {
    // TODO: Task 5. The catalog's answer settles the entry: the product it names
    // and the entries behind it agree with the catalog from now on (Docs/07, Task 5).
    throw NotDoneYet("Task 5", in: "Docs/07-OfflineFirstStreams.md", "store what the catalog answered to a sent entry")
  }

  /// Keeps an entry the catalog refused for good, with the reason, out of the way of the entries after it.
  func setAside(_ entry: OutboxEntry, reason: String) throws {
    try database.prepare("UPDATE outbox SET set_aside_reason = ? WHERE sequence = ?")
      .run([.text(reason), .integer(Int64(entry.sequence))])
  }

  /// Drops an entry: the catalog won a conflict. Its copy replaces the user's,
  /// unless a later change of the product waits: that one started from the same
  /// stale version, so it meets the conflict too and the policy decides again.
  func acceptServerCopy(_ product: Product, for entry: OutboxEntry) throws {
    // TODO: Task 6. When the catalog wins, the device takes its copy, and no waiting change is lost (Docs/07, Task 6).
    throw NotDoneYet(
      "Task 6", in: "Docs/07-OfflineFirstStreams.md", "make the catalog's copy the device's when it wins a conflict")
  }
}

nonisolated extension ProductChange {
  /// The kind of outbox entry the change makes.
  var kind: OutboxEntry.Kind {
    switch self {
    case .add: .add
    case .update: .update
    case .delete: .delete
    }
  }

  /// The id the change is about; a new product's own id, which the store replaces.
  var productID: Int {
    switch self {
    case .add(let product), .update(let product): product.id
    case .delete(let id): id
    }
  }
}

nonisolated extension Product {
  /// The same product with another id.
  func withID(_ id: Int) -> Product {
    Product(
      id: id, title: title, description: description, category: category, price: price,
      discountPercentage: discountPercentage, rating: rating, stock: stock, brand: brand, thumbnail: thumbnail,
      updatedAt: updatedAt, version: version)
  }
}
