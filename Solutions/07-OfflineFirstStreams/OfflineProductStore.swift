import CourseSQLite
import Foundation

/// The source of truth of stage 07: the products on the device, the changes
/// waiting to reach the catalog (the outbox), and how far the catalog was paged.
///
/// Every change commits in one transaction and then publishes the new list to
/// the observers (`commit(_:)`), so a screen shows what the database holds,
/// whoever changed it: a refresh, a page, the user, or the sync engine.
/// It opens the same database file as stage 04's `SQLiteProductLocalDataSource`
/// and adds migrations 5 to 7 to its history, and 8 of its own.
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
    // This design's own: temporary ids never handed out twice, starting below
    // any id the file holds. A file from before keeps its counter (OR IGNORE).
    SQLiteMigration(
      version: 8,
      sql: """
        INSERT OR IGNORE INTO store_counters (name, value) VALUES
          ('temporary_id', min(0,
            coalesce((SELECT min(id) FROM products), 0),
            coalesce((SELECT min(product_id) FROM outbox), 0)));
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
    if changes.current == nil { changes.publish(try products()) }
    return changes.subscribe()
  }

  /// Runs `body` in one transaction; once it commits, observers get the new list.
  ///
  /// When `body` throws, nothing it wrote stays and observers hear nothing.
  func commit<Result>(_ body: () throws -> Result) throws -> Result {
    // The list is read inside the transaction: a read that fails rolls the
    // change back, so nothing throws after COMMIT.
    let (result, list) = try database.transaction { (try body(), try products()) }
    changes.publish(list)
    return result
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

  // MARK: Revisions: what a page fetched earlier must not undo (finished), and temporary ids (Task 4)

  /// The store's revision now: take it before fetching a page, and give it to `savePage(_:fetchedAt:)`.
  func revision() throws -> Int {
    try counter("revision")
  }

  private func counter(_ name: String) throws -> Int {
    try database.prepare("SELECT value FROM store_counters WHERE name = ?").query([.text(name)]) {
      Int($0.int64(at: 0))
    }.first ?? 0
  }

  /// Notes that the device's copy of these products changed now (a user's edit, a sent entry, a conflict's outcome).
  private func touch(_ ids: [Int]) throws {
    try database.execute("UPDATE store_counters SET value = value + 1 WHERE name = 'revision'")
    let revision = try counter("revision")
    let statement = try database.prepare(
      """
      INSERT INTO product_revisions (product_id, revision) VALUES (?, ?)
      ON CONFLICT(product_id) DO UPDATE SET revision = excluded.revision
      """)
    for id in ids { try statement.run([.integer(Int64(id)), .integer(Int64(revision))]) }
  }

  /// The next temporary id for a product added on the device: negative, and never handed out twice.
  func nextTemporaryID() throws -> Int {
    try database.execute("UPDATE store_counters SET value = value - 1 WHERE name = 'temporary_id'")
    return try counter("temporary_id")
  }

  // MARK: Pages from the catalog (Tasks 2 to 4)

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
  /// The page was fetched some time ago, so it may be older than the device's copy:
  /// - a product with a change waiting in the outbox keeps the user's version (or
  ///   stays deleted): the catalog's copy comes back after the change is sent;
  /// - a product the device changed after `revision` (a sent entry stored the
  ///   catalog's answer, a conflict was settled) keeps the newer copy.
  ///
  /// A product new to the device is stored, even when an add still waiting might
  /// be it (applied by the catalog, its answer lost): only the add's answer, kept
  /// by the catalog under its idempotency key, says which id it got, and
  /// `complete(_:receipt:)` then merges the two. A title says nothing: another
  /// person may add a product of the same name.
  ///
  /// Products are upserted by id, so a product that moved between pages is stored once.
  /// Later pages stay: a refresh of page one never shortens the list, and the next
  /// page starts where the longest load ended.
  /// - Parameter revision: `revision()` as it was before the page was fetched.
  /// - Throws: `LocalDataSourceError.unsavable` for a product the boundary refuses;
  ///   nothing of the page is stored then.
  func savePage(_ page: ProductPage, fetchedAt revision: Int) throws {
    try commit {
      let waiting = Set(
        try database.prepare("SELECT product_id FROM outbox WHERE set_aside_reason IS NULL").query {
          Int($0.int64(at: 0))
        })
      let changedSince = Set(
        try database.prepare("SELECT product_id FROM product_revisions WHERE revision > ?").query([
          .integer(Int64(revision))
        ]) { Int($0.int64(at: 0)) })
      for product in page.products where !waiting.contains(product.id) && !changedSince.contains(product.id) {
        try upsert(product)
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
    try commit {
      let base = try baseVersion(for: change)
      let stored: Product?
      switch change {
      case .add(let product):
        var added = product.withID(try nextTemporaryID())
        (added.updatedAt, added.version) = (editedAt, nil)
        try upsert(added)
        stored = added
      case .update(var product):
        // An edit changes the device's copy, not the catalog's version of it.
        (product.updatedAt, product.version) = (editedAt, try storedProduct(id: product.id)?.version)
        try upsert(product)
        stored = product
      case .delete(let id):
        try database.prepare("DELETE FROM products WHERE id = ?").run([.integer(Int64(id))])
        stored = nil
      }
      try enqueue(
        change.kind, productID: stored?.id ?? change.productID, stored: stored, editedAt: editedAt, base: base)
      return stored
    }
  }

  // MARK: Task 4: the record step's parts

  /// The version an edit starts from: the catalog's copy as the device holds it,
  /// read before the edit changes it. `nil` for an add, and for an edit behind
  /// another waiting edit of the same product: that one's answer gives it its
  /// base (`complete(_:receipt:)`). The device's own `updatedAt` stamp never is one.
  func baseVersion(for change: ProductChange) throws -> String? {
    guard change.kind != .add, try !hasPendingEntry(productID: change.productID) else {
      return nil
    }
    return try storedProduct(id: change.productID)?.version
  }

  /// Inserts the outbox row of a change (a new key, its body from the product as
  /// stored, none for a delete) and notes that the device's copy changed.
  func enqueue(_ kind: OutboxEntry.Kind, productID: Int, stored: Product?, editedAt: Date, base: String?) throws {
    try database.prepare(
      """
      INSERT INTO outbox (idempotency_key, kind, product_id, body, edited_at, base_version)
      VALUES (?, ?, ?, ?, ?, ?)
      """
    ).run([
      .text(makeKey()), .text(kind.rawValue), .integer(Int64(productID)),
      try stored.map { .blob(try ProductWriteBody.data(for: $0)) } ?? .null,
      .real(editedAt.timeIntervalSinceReferenceDate), base.map { .text($0) } ?? .null,
    ])
    try touch([productID])
  }

  // MARK: The outbox, as the sync engine reads it (finished), and what its answers settle (Tasks 5 and 6)

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

  /// Whether a change of the product waits to be sent: one query, however long the outbox.
  private func hasPendingEntry(productID: Int) throws -> Bool {
    try database.prepare(
      "SELECT EXISTS (SELECT 1 FROM outbox WHERE product_id = ? AND set_aside_reason IS NULL)"
    ).query([.integer(Int64(productID))]) { $0.int64(at: 0) != 0 }.first ?? false
  }

  /// The device's copy of one product, or `nil`.
  private func storedProduct(id: Int) throws -> Product? {
    try database.prepare("SELECT \(Self.productColumns) FROM products WHERE id = ?")
      .query([.integer(Int64(id))], row: Self.product).first
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
  /// - An added product takes the id the catalog gave it, whichever route that
  ///   id arrived by first: a copy a page already stored under it is the same
  ///   product, and gives way. The entries after it that name its temporary id name the new one.
  /// - When no other change of the product waits, the catalog's copy is stored,
  ///   so device and catalog agree; otherwise the user's later version stays.
  /// - The waiting changes of the product that had no base version get the
  ///   answer's (they were made on top of this one).
  ///
  /// A receipt with no copy (a delete's, or an answer that holds no product the
  /// app accepts) leaves the device's own copy, and a copy the boundary refuses is not stored.
  func complete(_ entry: OutboxEntry, receipt: WriteReceipt) throws {
    try commit {
      try database.prepare("DELETE FROM outbox WHERE sequence = ?").run([.integer(Int64(entry.sequence))])
      var id = entry.productID
      if entry.kind == .add, receipt.id != id {
        let newID = receipt.id
        let ids: [SQLiteValue] = [.integer(Int64(newID)), .integer(Int64(id))]
        try database.prepare("DELETE FROM products WHERE id = ?").run([.integer(Int64(newID))])
        try database.prepare("UPDATE products SET id = ? WHERE id = ?").run(ids)
        try database.prepare("UPDATE outbox SET product_id = ? WHERE product_id = ?").run(ids)
        try touch([id])
        id = newID
      }
      if try !hasPendingEntry(productID: id), entry.kind != .delete, let copy = receipt.product?.withID(id),
        (try? Self.storableRow(copy)) != nil
      {
        try upsert(copy)
      }
      try database.prepare(
        "UPDATE outbox SET base_version = ? WHERE product_id = ? AND set_aside_reason IS NULL AND base_version IS NULL"
      ).run([receipt.product?.version.map(SQLiteValue.text) ?? .null, .integer(Int64(id))])
      try touch([id])
    }
  }

  /// Keeps an entry the catalog refused for good, with the reason, out of the way of the entries after it.
  func setAside(_ entry: OutboxEntry, reason: String) throws {
    try database.prepare("UPDATE outbox SET set_aside_reason = ? WHERE sequence = ?")
      .run([.text(reason), .integer(Int64(entry.sequence))])
  }

  /// Drops an entry: the catalog won a conflict. Its copy replaces the user's,
  /// unless a later change of the product waits; that one starts from the same
  /// stale version, so it meets the conflict too and the policy decides again.
  func acceptServerCopy(_ product: Product, for entry: OutboxEntry) throws {
    try commit {
      try database.prepare("DELETE FROM outbox WHERE sequence = ?").run([.integer(Int64(entry.sequence))])
      if try !hasPendingEntry(productID: entry.productID) {
        try upsert(product)
      } else {
        try database.prepare(
          "UPDATE outbox SET base_version = ? WHERE product_id = ? AND set_aside_reason IS NULL AND base_version IS NULL"
        ).run([entry.baseVersion.map { .text($0) } ?? .null, .integer(Int64(entry.productID))])
      }
      try touch([entry.productID])
    }
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
