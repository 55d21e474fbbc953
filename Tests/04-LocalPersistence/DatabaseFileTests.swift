import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

/// What only a file shows: data that outlives the connection, a migrated file
/// that the data source reads, and a file that is not a database at all.
@Suite(.timeLimit(.minutes(1)))
struct DatabaseFileTests {
  @Test func keepsProductsAcrossClosingAndReopening() async throws {
    let file = TemporaryDatabase()
    let five = Array(try realProducts().prefix(5))
    _ = try await guide.attempt(4, "saving 5 products to a new file") {
      try await openDatabase(file.path).save(five)
    }
    let reopened = try await guide.attempt(5, "reading them through a new data source on the same file") {
      try await openDatabase(file.path).products()
    }
    let expected = newestFirst(five)
    let wrong = zip(expected, reopened).first { $0 != $1 }
    // A product that differs, read again by id: right there, the list read is at fault (Task 5), else the round trip (Task 3).
    let byID = await wrong.asyncMap { saved, _ in try? await openDatabase(file.path).product(id: saved.id) }
    let sameSet = reopened.sorted { $0.id < $1.id } == five.sorted { $0.id < $1.id }
    let listAtFault = sameSet || byID == wrong.map(\.0)
    #expect(
      reopened == expected,
      guide.task(
        listAtFault ? 5 : 3,
        "a new data source on the same file should read the 5 saved products newest first, ids \(expected.map(\.id)), got \(reopened.map(\.id))\(wrong.map { "; product \($0.0.id) differs: \(differences(expected: $0.0, actual: $0.1))" } ?? "")"
      )
    )
  }

  @Test func aMigratedVersion1FileSavesAndReadsBrands() async throws {
    let file = TemporaryDatabase()
    let row = FirstReleaseRow(id: 1)
    try writeFirstReleaseFile(at: file.path, rows: [row])
    let local = try await guide.attempt(2, "SQLiteProductLocalDataSource(path:) should open a first-release file") {
      try SQLiteProductLocalDataSource(path: file.path)
    }
    var branded = Product.sample(id: 2)
    branded.brand = "New in version 2"
    let old = try await guide.attempt(2, "reading the version-1 row from the upgraded file") {
      try await local.product(id: 1)
    }
    _ = try await guide.attempt(2, "saving a branded product into the upgraded file") {
      try await local.save([branded])
    }
    let brand = try await guide.attempt(2, "reading the branded product from the upgraded file") {
      try await local.product(id: 2)?.brand
    }
    #expect(
      old?.title == row.title && old?.price == Decimal(string: "12.5") && old?.brand == nil,
      guide.task(
        2,
        "the version-1 row should read back with price 12.5 and brand nil, got \(old.map { "\($0.title), \($0.price), brand \($0.brand ?? "nil")" } ?? "nil")"
      )
    )
    #expect(
      brand == "New in version 2",
      guide.task(2, "a brand saved into an upgraded file should read back, got \(brand ?? "nil")"))
  }

  @Test func openOrResetMovesAnUnreadableFileAsideAndStartsEmpty() async throws {
    let file = TemporaryDatabase()
    var generator = SystemRandomNumberGenerator()
    let junk = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
    try junk.write(to: URL(fileURLWithPath: file.path))
    let local = try await guide.attempt(1, "openOrReset(path:) on a file of random bytes should open an empty store") {
      try SQLiteProductLocalDataSource.openOrReset(path: file.path)
    }
    let products = try await guide.attempt(5, "the new store should read") { try await local.products() }
    let aside = FileManager.default.contents(atPath: file.path + ".unreadable")
    #expect(products.isEmpty, guide.task(5, "a reset store should hold no products, got \(products.map(\.id))"))
    #expect(
      aside == junk,
      guide.task(
        1,
        "openOrReset(path:) is finished code: the unreadable file should wait at path + \".unreadable\" with its bytes, got \(aside.map { "\($0.count) other bytes" } ?? "no file")"
      )
    )
  }

  @Test func openOrResetKeepsAReadableDatabase() async throws {
    let file = TemporaryDatabase()
    _ = try await guide.attempt(4, "saving product 7 to a new file") {
      try await openDatabase(file.path).save([.sample(id: 7, title: "Kettle")])
    }
    let kept = try await guide.attempt(5, "reopening the file with openOrReset(path:) and reading product 7") {
      try await SQLiteProductLocalDataSource.openOrReset(path: file.path).product(id: 7)
    }
    #expect(
      kept?.title == "Kettle" && !FileManager.default.fileExists(atPath: file.path + ".unreadable"),
      guide.task(5, "a healthy database must be opened as it is, got product 7 \(kept?.title ?? "nil")")
    )
  }

  @Test func aFileOfRandomBytesIsAClearErrorNotACrash() throws {
    let file = TemporaryDatabase()
    var generator = SystemRandomNumberGenerator()
    try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
      to: URL(fileURLWithPath: file.path))
    let opened = Result { try SQLiteProductLocalDataSource(path: file.path) }
    let error = opened.failure as? SQLiteError
    #expect(
      error?.code == .notADatabase && error?.message.contains("not a database") == true,
      guide.task(
        1,
        "opening random bytes should throw SQLiteError .notADatabase (\"file is not a database\"), got \(opened.described)"
      )
    )
  }
}

extension Optional {
  /// `map` for an async transform.
  fileprivate func asyncMap<T>(_ transform: (Wrapped) async -> T?) async -> T? {
    guard let self else { return nil }
    return await transform(self)
  }
}
