import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

@Suite(.timeLimit(.minutes(1)))
struct SQLiteProductLocalDataSourceTests {
  @Test func opensAndMigratesAnEmptyDatabase() async throws {
    let local = try await openDatabase()
    let products = try await guide.attempt(5, "a new database should read") { try await local.products() }
    #expect(products.isEmpty, guide.task(5, "a new database holds no products: expected [], got \(products.map(\.id))"))
  }

  @Test func roundTripsAll194RealRecords() async throws {
    let local = try await openDatabase()
    let real = try realProducts()
    try await save(real, to: local, "saving the 194 real products")
    // Each one by id first: a product that comes back different is Task 3's, a wrong list Task 5's.
    let byID = real.sorted { $0.id < $1.id }
    let found = try await guide.attempt(5, "reading each of the 194 products by id") {
      var found: [Product?] = []
      for product in byID { found.append(try await local.product(id: product.id)) }
      return found
    }
    let wrongOne = zip(byID, found).first { $0 != $1 }
    #expect(
      wrongOne == nil,
      guide.task(
        3,
        "each of the 194 products should come back from product(id:) as it was saved; \(wrongOne.map { saved, read in "product \(saved.id) \(read.map { differences(expected: saved, actual: $0) } ?? "is missing")" } ?? ""). Look at what each column holds, what save(_:) binds to it and which column each field is read from"
      )
    )
    let products = try await readAll(local, "reading them back")
    let expected = newestFirst(real)
    guard products != expected, wrongOne == nil else { return }
    if products.sorted(by: { $0.id < $1.id }) == byID {
      Issue.record(
        guide.task(
          5,
          "same products, wrong order: products() should list newest first, then by id; the first ids are \(products.prefix(5).map(\.id)), expected \(expected.prefix(5).map(\.id))"
        ))
      return
    }
    let read = Dictionary(products.map { ($0.id, $0) }) { first, _ in first }
    let wrongRead = byID.first { read[$0.id] != $0 }
    Issue.record(
      guide.task(
        5,
        "product(id:) reads every product right, but products() reads them wrong (\(products.count) products); \(wrongRead.map { product in "product \(product.id): \(read[product.id].map { differences(expected: product, actual: $0) } ?? "missing")" } ?? ""). Read the list the way product(id:) reads one: the same columns, in the same order"
      ))
  }

  @Test func keepsMoneyAndDatesWithoutLoss() async throws {
    let local = try await openDatabase()
    // A Double keeps neither price, and 1970-based seconds lose this date's last bit.
    let date = Date(timeIntervalSinceReferenceDate: 767_698_862.053_123_4)
    try #require(Date(timeIntervalSince1970: date.timeIntervalSince1970) != date)
    var large = Product.sample(id: 1, updatedAt: date)
    large.price = Decimal(string: "99999999999999.99") ?? 0
    var long = Product.sample(id: 2)
    long.price = Decimal(string: "12345678901234567890.123456789") ?? 0
    try await save([large, long], to: local, "saving two products")
    // Stub or not, a read that throws here refused what save(_:) wrote: the round trip's fault.
    let (readLarge, readLong) = try await guide.attempt(3, "reading them by id") {
      (try await local.product(id: 1), try await local.product(id: 2))
    }
    #expect(
      readLarge?.price == large.price && readLong?.price == long.price,
      guide.task(
        3,
        "prices should come back with every digit: expected \(large.price) and \(long.price), got \(readLarge.map { "\($0.price)" } ?? "nil") and \(readLong.map { "\($0.price)" } ?? "nil"). A REAL column or a Double on the way keeps about 16 digits"
      ))
    #expect(
      readLarge?.updatedAt == date,
      guide.task(
        3,
        "updatedAt should come back to the last bit: expected \(date.timeIntervalSinceReferenceDate) s after 2001, got \(readLarge.map { "\($0.updatedAt.timeIntervalSinceReferenceDate)\(dateMixUp(expected: date, actual: $0.updatedAt))" } ?? "nil"). Store timeIntervalSinceReferenceDate, not timeIntervalSince1970"
      ))
  }

  @Test func aPriceThatIsNotMoneyIsRefusedAndNothingIsSaved() async throws {
    _ = try await openDatabase()
    let prices: [(name: String, price: Decimal)] = [("NaN", .nan), ("-1", -1)]
    await guide.expectEvery(
      prices, task: 4,
      "a NaN price would be stored as \"NaN\" and a negative one is no amount of money: save should throw LocalDataSourceError.unsavable(id: 2, …) before any row is written, and leave nothing behind"
    ) { name, price in
      var broken = Product.sample(id: 2)
      broken.price = price
      let outcome = await Result { () async throws -> [Product] in
        let local = try SQLiteProductLocalDataSource(path: ":memory:")
        let saved = await Result { try await local.save([.sample(id: 1), broken, .sample(id: 3)]) }
        guard case .unsavable(let id, _)? = saved.failure as? LocalDataSourceError, id == 2 else {
          throw Refusal(
            text: "a price of \(name) gave \(saved.map { _ in "no error" }.described)", cause: saved.failure)
        }
        return try await local.products()
      }
      switch outcome {
      case .success(let left): return left.isEmpty ? nil : ("a price of \(name) left \(left.map(\.id)) behind", nil)
      case .failure(let refusal as Refusal): return (refusal.text, refusal.cause)
      case .failure(let error): return ("a price of \(name): reading afterwards gave the error \(shown(error))", error)
      }
    }
  }

  @Test func savingTheSameProductsTwiceChangesNothing() async throws {
    let local = try await openDatabase()
    let real = try realProducts()
    try await save(real, to: local, "saving the 194 real products")
    let once = try await readAll(local, "reading them")
    try await save(real, to: local, "saving the same 194 products again")
    let twice = try await readAll(local, "reading them again")
    let unchanged = !once.isEmpty && once == twice
    #expect(
      unchanged,
      guide.task(
        4,
        "saving the same 194 products again must neither duplicate nor change a row (an upsert keyed by id): \(once.count) rows after one save, \(twice.count) after two"
      )
    )
  }

  @Test func savingAnIDAgainReplacesEveryField() async throws {
    let local = try await openDatabase()
    let old = Product(
      id: 1, title: "Old", description: "Old description", category: "old", price: 1, discountPercentage: 5,
      rating: 1, stock: 1, brand: "Old brand", thumbnail: URL(string: "https://cdn.example/old.webp"),
      updatedAt: Date(timeIntervalSinceReferenceDate: 700_000_000))
    let new = Product(
      id: 1, title: "New", description: "New description", category: "new", price: Decimal(string: "2.5") ?? 0,
      discountPercentage: 10, rating: 4.5, stock: 9, brand: nil, thumbnail: nil,
      updatedAt: Date(timeIntervalSinceReferenceDate: 800_000_000))
    try await save([old, .sample(id: 2)], to: local, "saving products 1 and 2")
    try await save([new], to: local, "saving product 1 again with every field changed")
    let (one, two) = try await guide.attempt(5, "reading products 1 and 2 by id") {
      (try await local.product(id: 1), try await local.product(id: 2))
    }
    #expect(
      two != nil,
      guide.task(4, "saving id 1 again should keep product 2, but product(id: 2) is nil"))
    // The same product saved once, into a new store: when that comes back wrong, the fault is Task 3's.
    let once = await Result {
      let fresh = try SQLiteProductLocalDataSource(path: ":memory:")
      try await fresh.save([new])
      return try await fresh.product(id: 1)
    }
    let savedOnceIsRight = (try? once.get()) == new
    #expect(
      one == new,
      guide.task(
        savedOnceIsRight ? 4 : 3,
        "saving id 1 again should update every field but id, brand and thumbnail (now nil) and updatedAt too; \(one.map { differences(expected: new, actual: $0) } ?? "product 1 is missing")\(savedOnceIsRight ? ": saved once into a new store it comes back right, so look at what the second save changes" : "")"
      ))
  }

  @Test func savingAnIDAgainKeepsColumnsItDoesNotList() async throws {
    let file = TemporaryDatabase()
    let local = try await openDatabase(file.path)
    try await save([.sample(id: 1, title: "Old")], to: local, "saving product 1 to a file")
    // A column of a later version on each of your tables, filled in through the test's own connection:
    // save(_:) does not know it, so saving product 1 again must leave it as it is.
    let (raw, noted) = try await guide.attempt(1, "a second connection should add a column test_note to your tables") {
      let raw = try RawFile(file.path)
      var noted = 0
      for table in try raw.tables() {
        try raw.database.execute("ALTER TABLE \"\(table)\" ADD COLUMN test_note TEXT")
        try raw.database.execute("UPDATE \"\(table)\" SET test_note = 'kept'")
        noted += raw.database.changes
      }
      return (raw, noted)
    }
    try await save([.sample(id: 1, title: "New")], to: local, "saving product 1 again")
    let kept = try raw.database.prepare(
      try raw.tables().map { "SELECT count(*) FROM \"\($0)\" WHERE test_note = 'kept'" }.joined(
        separator: " UNION ALL ")
    ).query { Int($0.int64(at: 0)) }.reduce(0, +)
    let title = try await guide.attempt(5, "reading product 1") { try await local.product(id: 1)?.title }
    #expect(
      title == "New" && kept == noted,
      guide.task(
        4,
        "saving id 1 again should update its rows in place: expected title New and the \(noted) row(s) noted 'kept' still noted, got title \(title ?? "nil") and \(kept) row(s) noted. INSERT OR REPLACE, or a DELETE before the INSERT, removes the row and inserts a new one, resetting every column it does not list; use INSERT … ON CONFLICT(id) DO UPDATE SET"
      ))
  }

  @Test func aSaveThatFailsPartWayKeepsThePreviousContent() async throws {
    let file = TemporaryDatabase()
    let local = try await openDatabase(file.path)
    let before = Array(try realProducts().prefix(10))
    try await save(before, to: local, "saving 10 products")
    // The test's own trigger makes SQLite refuse the third product of the batch, whatever your schema.
    let raw = try await trap(file.path, knownTitle: before[0].title)
    var changed = before[0]
    changed.title = "Changed by the failed save"
    let batch = [
      Product.sample(id: 500, title: "Left behind 500"), changed, Product.sample(id: 501, title: refusedTitle),
      Product.sample(id: 502, title: "Left behind 502"),
    ]
    let failed = await Result { try await local.save(batch) }
    #expect(isConstraintFailure(failed.failure), trappedSaveComment(failed, refused: 501))
    // Looked for through the test's own connection, so this checks Task 4 before products() works.
    let left = try ["Left behind 500", changed.title, "Left behind 502"].filter { try raw.holds($0) }
    let original = try raw.holds(before[0].title)
    #expect(
      left.isEmpty && original,
      guide.task(
        4,
        "the failed save must leave nothing behind, neither product 500 nor the changed title of product \(changed.id): \(left.isEmpty ? "" : "the file still holds \(left)")\(original ? "" : "; the original title \"\(before[0].title)\" is gone"). \(failed.failure == nil ? "save(_:) returned normally, so the refusal was swallowed (a try? in the loop?) and the transaction committed what came before and after it" : "a save is all or nothing, so a refusal must take back what came before it too")"
      )
    )
  }

  @Test func aFailedSaveLeavesTheStoreUsable() async throws {
    let file = TemporaryDatabase()
    let local = try await openDatabase(file.path)
    try await save([.sample(id: 9, title: "Known")], to: local, "saving product 9")
    _ = try await trap(file.path, knownTitle: "Known")
    let failed = await Result { try await local.save([.sample(id: 1), .sample(id: 2, title: refusedTitle)]) }
    try #require(isConstraintFailure(failed.failure), trappedSaveComment(failed, refused: 2))
    try await save(
      [.sample(id: 3)], to: local,
      "a save after a failed one should work: the failed one must not leave its transaction open")
    let ids = try await readAll(local, "reading after the good save").map(\.id).sorted()
    #expect(
      ids == [3, 9],
      guide.task(
        4,
        "after a failed save and a good one, expected products [3, 9], got \(ids)\(ids.contains(1) ? ": the failed save left product 1 behind, though a save is all or nothing" : "")"
      ))
  }

  @Test func keepsAnyTextExactly() async throws {
    // A plain save first: when save(_:) fails whatever the text, that is Task 4's to say, once.
    try await save([.sample(id: 1)], to: try await openDatabase(), "saving a plain product")
    let titles = [
      #"She said "hello" and it's fine"#,
      "'; DROP TABLE products; --",
      "Robert'); DELETE FROM products WHERE ('1' = '1",
      "Emoji 🛒🧴✨ and accents: crème brûlée",
      String(repeating: "Long text ", count: 10_000),
    ]
    await guide.expectEvery(
      titles, task: 3,
      "text must round-trip exactly and never run as SQL; bind it with ?, never paste it into the statement"
    ) { title in
      let outcome = await Result {
        let local = try SQLiteProductLocalDataSource(path: ":memory:")
        var product = Product.sample(id: 1, title: title)
        product.description = title
        try await local.save([product, .sample(id: 2)])
        return try await local.products()
      }
      guard case .success(let products) = outcome else {
        // A statement pasted together quotes the whole SQL in its error: a line is enough.
        let said = outcome.described
        return ("\(title.prefix(40)) gave \(said.count > 240 ? said.prefix(239) + "…" : said)", outcome.failure)
      }
      // By id, not position: the order is Task 5's to get right, not this test's.
      let saved = products.first { $0.id == 1 }
      let kept = products.count == 2 && saved?.title == title && saved?.description == title
      return kept
        ? nil : ("\(title.prefix(40)) came back as \(products.map { "\($0.id): \($0.title.prefix(40))" })", nil)
    }
  }

  @Test func readsNewestFirstThenByID() async throws {
    let local = try await openDatabase()
    let older = Date(timeIntervalSince1970: 1_000)
    let newer = Date(timeIntervalSince1970: 2_000)
    try await save(
      [.sample(id: 3, updatedAt: older), .sample(id: 2, updatedAt: newer), .sample(id: 1, updatedAt: older)],
      to: local, "saving three products with two dates")
    let ids = try await readAll(local, "reading them").map(\.id)
    #expect(
      ids == [2, 1, 3],
      guide.task(5, "products() should list newest updatedAt first, then by id: expected [2, 1, 3], got \(ids)"))
  }

  /// SQLite gives rows its ORDER BY calls equal in whatever order its plan
  /// meets them. The test's connection swaps the indexes you made on your
  /// product table for one on the date column alone, as a later release might
  /// add: read through it, equal dates come in reverse id order, so only an
  /// order that says what happens to equal dates passes.
  @Test func equalDatesListByIDWhateverIndexSQLiteReads() async throws {
    let file = TemporaryDatabase()
    let local = try await openDatabase(file.path)
    let same = Date(timeIntervalSinceReferenceDate: 767_000_000.5)
    try await save(
      [
        .sample(id: 1, title: "Tie 1", updatedAt: same), .sample(id: 2, title: "Tie 2", updatedAt: same),
        .sample(id: 3, title: "Tie 3", updatedAt: same),
        .sample(id: 4, title: "Newest", updatedAt: same.addingTimeInterval(100)),
      ], to: local, "saving four products, three of them with the same updatedAt")
    let reversed = try await guide.attempt(
      1, "a second connection should index the column that holds your products' dates"
    ) { try RawFile(file.path).indexDatesAlone(holding: ["Tie 1", "Tie 2", "Tie 3"], date: same) }
    let ids = try await readAll(local, "reading them").map(\.id)
    #expect(
      ids == [4, 1, 2, 3],
      guide.task(
        5,
        "products() should list newest updatedAt first and equal dates by id, whatever index SQLite reads: expected [4, 1, 2, 3], got \(ids)\(reversed ? ". The test's connection gave your table an index on the date column alone: through it SQLite meets equal dates in reverse id order, so the order of equal dates must be part of the read" : "")"
      ))
  }

  @Test func findsOneByIDOrNil() async throws {
    let local = try await openDatabase()
    try await save([.sample(id: 7, title: "Kettle")], to: local, "saving product 7")
    let (found, missing) = try await guide.attempt(5, "finding products 7 and 8") {
      (try await local.product(id: 7), try await local.product(id: 8))
    }
    #expect(
      found?.title == "Kettle" && missing == nil,
      guide.task(
        5,
        "product(id: 7) should be Kettle and product(id: 8) nil, got \(found?.title ?? "nil") and \(missing?.title ?? "nil")"
      ))
  }
}

extension RawFile {
  /// Replaces the indexes you made on the table that holds the titles `ties`
  /// with one on the column that holds their shared `date` (seconds since 2001) alone.
  /// - Returns: Whether SQLite, reading that table newest first by that column,
  ///   now meets `ties` in another order than the one given (false when no
  ///   column holds the date as a number: then the table is left as it is).
  fileprivate func indexDatesAlone(holding ties: [String], date: Date) throws -> Bool {
    guard let title = ties.first, let place = try places(holding: title).first else { return false }
    let table = Self.quoted(place.table)
    let seconds = SQLiteValue.real(date.timeIntervalSinceReferenceDate)
    var dates: String?
    for column in try columns(of: place.table) where dates == nil {
      let found = try database.prepare("SELECT 1 FROM \(table) WHERE \(Self.quoted(column)) = ? LIMIT 1")
        .query([seconds]) { _ in true }
      if !found.isEmpty { dates = Self.quoted(column) }
    }
    guard let dates else { return false }
    let yours = try database.prepare("SELECT name FROM pragma_index_list(?) WHERE origin = 'c'")
      .query([.text(place.table)]) { $0.text(at: 0) ?? "" }
    for index in yours { try database.execute("DROP INDEX \(Self.quoted(index))") }
    try database.execute("CREATE INDEX test_dates_alone ON \(table) (\(dates))")
    let read = try database.prepare("SELECT \(Self.quoted(place.column)) FROM \(table) ORDER BY \(dates) DESC")
      .query { $0.text(at: 0) ?? "" }
    return read.filter(ties.contains) != ties
  }

  private static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

/// A check's own failure inside a table case: what to say, and the error behind it.
private struct Refusal: Error {
  let text: String
  let cause: (any Error)?
}
