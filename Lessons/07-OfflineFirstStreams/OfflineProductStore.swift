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
/// and adds migration 4 to its history.
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

  /// Stage 07's migrations, after stage 05's.
  static let migrations: [SQLiteMigration] = [
    SQLiteMigration(
      version: 4,
      sql: """
        CREATE TABLE outbox (
          sequence INTEGER PRIMARY KEY AUTOINCREMENT,
          idempotency_key TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL CHECK (kind IN ('add', 'update', 'delete')),
          product_id INTEGER NOT NULL,
          body BLOB,
          edited_at REAL NOT NULL,
          set_aside_reason TEXT
        );
        CREATE TABLE paging (
          name TEXT PRIMARY KEY,
          next_skip INTEGER NOT NULL,
          total INTEGER NOT NULL
        );
        """)
  ]

  /// Every product, newest `updatedAt` first, then by id: the list observers see.
  func products() throws -> [Product] {
    try database.prepare("SELECT \(ProductRow.columns) FROM products ORDER BY updated_at DESC, id")
      .query { ProductRow(statement: $0) }
      .map { try $0.toDomain() }
  }

  // MARK: Task 2: observe the store

  /// The product list now, and then after every committed change.
  func observe() throws -> AsyncStream<[Product]> {
    // TODO: Task 2. Publish the stored list when `changes` has none yet, then subscribe.
    throw NotDoneYet(
      "Task 2", in: "Docs/07-OfflineFirstStreams.md",
      "publish products() to changes if it has no value, then return changes.subscribe()")
  }

  /// Runs `body` in one transaction; once it commits, observers get the new list.
  ///
  /// When `body` throws, nothing it wrote stays and observers hear nothing.
  func commit<Result>(_ body: () throws -> Result) throws -> Result {
    // TODO: Task 2. Once the transaction commits, publish the new list to `changes`.
    try database.transaction(body)
  }

  // MARK: Pages from the catalog (finished)

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
  /// A product with a change waiting in the outbox keeps the user's version (or
  /// stays deleted): the catalog's copy comes back with the next page or refresh
  /// after the change is sent. Products are upserted by id, so a product that
  /// moved between pages is stored once. Later pages stay: a refresh of page one
  /// never shortens the list, and the next page starts where the longest load ended.
  func savePage(_ page: ProductPage) throws {
    try commit {
      let upsert = try database.prepare(SQLiteProductLocalDataSource.upsert)
      let waiting = Set(
        try database.prepare("SELECT product_id FROM outbox WHERE set_aside_reason IS NULL").query {
          Int($0.int64(at: 0))
        })
      for product in page.products where !waiting.contains(product.id) {
        try upsert.run(ProductRow(product).values)
      }
      try database.prepare(
        """
        INSERT INTO paging (name, next_skip, total) VALUES (?, ?, ?)
        ON CONFLICT(name) DO UPDATE SET next_skip = max(next_skip, excluded.next_skip), total = excluded.total
        """
      ).run([.text(Self.catalog), .integer(Int64(page.skip + page.products.count)), .integer(Int64(page.total))])
    }
  }

  // MARK: Task 4: write locally with an outbox

  /// Applies the user's change to the products and adds it to the outbox, in one transaction.
  ///
  /// - Parameter editedAt: When the user made the change.
  /// - Returns: The product as stored (an added one with its temporary negative id), or `nil` for a delete.
  @discardableResult
  func record(_ change: ProductChange, editedAt: Date) throws -> Product? {
    // TODO: Task 4. In one commit { }: change the products table (an add takes the next
    // temporary negative id), then insert the outbox row with a key from makeKey().
    throw NotDoneYet(
      "Task 4", in: "Docs/07-OfflineFirstStreams.md", "write the product change and its outbox row in one commit { }")
  }

  // MARK: The outbox, as the sync engine reads it (finished)

  private static let outboxColumns = "sequence, idempotency_key, kind, product_id, body, edited_at, set_aside_reason"

  private static func entry(_ row: SQLiteStatement) -> OutboxEntry {
    OutboxEntry(
      sequence: Int(row.int64(at: 0)),
      idempotencyKey: row.text(at: 1) ?? "",
      kind: OutboxEntry.Kind(rawValue: row.text(at: 2) ?? "") ?? .update,
      productID: Int(row.int64(at: 3)),
      body: row.isNull(at: 4) ? nil : row.blob(at: 4) ?? Data(),
      editedAt: Date(timeIntervalSinceReferenceDate: row.double(at: 5)),
      state: row.text(at: 6).map { .setAside(reason: $0) } ?? .pending)
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

  /// Removes a sent entry. An added product takes the id the catalog gave it,
  /// and the entries after it that name its temporary id name the new one.
  func complete(_ entry: OutboxEntry, answer: Product?) throws {
    try commit {
      try database.prepare("DELETE FROM outbox WHERE sequence = ?").run([.integer(Int64(entry.sequence))])
      guard entry.kind == .add, let answer else { return }
      let ids: [SQLiteValue] = [.integer(Int64(answer.id)), .integer(Int64(entry.productID))]
      try database.prepare("UPDATE products SET id = ? WHERE id = ?").run(ids)
      try database.prepare("UPDATE outbox SET product_id = ? WHERE product_id = ?").run(ids)
    }
  }

  /// Keeps an entry the catalog refused for good, with the reason, out of the way of the entries after it.
  func setAside(_ entry: OutboxEntry, reason: String) throws {
    try database.prepare("UPDATE outbox SET set_aside_reason = ? WHERE sequence = ?")
      .run([.text(reason), .integer(Int64(entry.sequence))])
  }

  /// Drops an entry and stores the catalog's copy instead of the user's: the catalog won a conflict.
  func acceptServerCopy(_ product: Product, for entry: OutboxEntry) throws {
    try commit {
      try database.prepare("DELETE FROM outbox WHERE sequence = ?").run([.integer(Int64(entry.sequence))])
      try database.prepare(SQLiteProductLocalDataSource.upsert).run(ProductRow(product).values)
    }
  }
}

extension ProductChange {
  /// The id the change is about; a new product's own id, which the store replaces.
  var productID: Int {
    switch self {
    case .add(let product), .update(let product): product.id
    case .delete(let id): id
    }
  }
}

extension Product {
  /// The same product with another id.
  func withID(_ id: Int) -> Product {
    Product(
      id: id, title: title, description: description, category: category, price: price,
      discountPercentage: discountPercentage, rating: rating, stock: stock, brand: brand, thumbnail: thumbnail,
      updatedAt: updatedAt)
  }
}
