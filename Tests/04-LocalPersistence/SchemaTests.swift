import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

/// Tasks 1 and 2 through `init(path:)`: what a new file refuses, and a file the
/// first release wrote, opened by this version of the store. The schema is
/// yours; the first release's is history, and `Guide.swift` writes it.
@Suite(.timeLimit(.minutes(1)))
struct SchemaTests {
  @Test func refusesAnEmptyTitleAndANegativeStock() async throws {
    try await save([.sample(id: 1)], to: try await openDatabase(), "saving a plain product")
    let bad: [(what: String, product: Product)] = [
      ("an empty title", .sample(id: 2, title: "")), ("a stock of -1", .sample(id: 2, stock: -1)),
    ]
    var kept: [String] = []  // Nothing refused the product: Task 1's.
    var swallowed: [String] = []  // Refused, since it is not there, but no error came out: Task 4's.
    var cause: (any Error)?
    for (what, product) in bad {
      let local = try await openDatabase()
      let saved = await Result { try await local.save([product]) }
      let read = await Result { try await local.product(id: 2) }
      let refused =
        isConstraintFailure(saved.failure)
        || { if case .unsavable(2, _)? = saved.failure as? LocalDataSourceError { true } else { false } }()
      switch read {
      case .failure(let error):
        cause = cause ?? error
        kept.append("\(what): reading afterwards gave the error \(shown(error))")
      case .success(let product?) where refused:
        kept.append("\(what) was refused, but product(id: 2) still reads \(product.title)")
      case .success(let product?):
        kept.append("\(what) was saved, and reads back as \"\(product.title)\" with stock \(product.stock)")
      case .success(nil) where refused: continue
      case .success(nil):
        if let error = saved.failure {
          cause = cause ?? error
          kept.append("\(what) gave \(shown(error)), neither a constraint error nor .unsavable")
        } else {
          swallowed.append(what)
        }
      }
    }
    #expect(
      kept.isEmpty,
      guide.task(
        1,
        "the store should refuse each product that is no product, with SQLite's constraint error (a CHECK) or LocalDataSourceError.unsavable(id: 2, …), and keep nothing of it; \(kept.joined(separator: "; "))",
        blaming: cause))
    #expect(
      swallowed.isEmpty,
      guide.task(
        4,
        "save(_:) returned normally for \(swallowed.joined(separator: " and ")), yet the product was not stored: something refused it and the error was swallowed (try?); let it reach the caller"
      ))
  }

  @Test func opensTheFirstReleasesFileWithItsRows() async throws {
    let file = TemporaryDatabase()
    let row = FirstReleaseRow(id: 1)
    try writeFirstReleaseFile(at: file.path, rows: [row])
    let local = try await guide.attempt(2, "SQLiteProductLocalDataSource(path:) should open a first-release file") {
      try SQLiteProductLocalDataSource(path: file.path)
    }
    let read = try await guide.attempt(2, "reading the first release's product 1 from the upgraded file") {
      try await local.product(id: 1)
    }
    // The same product saved into a new store: when that comes back wrong, the fault is Task 3's.
    let savedNew = await Result {
      let fresh = try SQLiteProductLocalDataSource(path: ":memory:")
      try await fresh.save([row.product])
      return try await fresh.product(id: 1)
    }
    let newIsRight = (try? savedNew.get()) == row.product
    #expect(
      read == row.product,
      guide.task(
        newIsRight ? 2 : 3,
        "the first release's row should read as the product it stored (price 12.5, brand nil, the date \(row.updatedAt) s after 2001); \(read.map { differences(expected: row.product, actual: $0) } ?? "product 1 is missing")\(newIsRight ? ". Saved into a new file the same product comes back right, so look at what your migration does to the old rows, and whether each column is read as the first release wrote it" : "")"
      )
    )
  }

  @Test func aNewFileAndAnUpgradedFileHaveTheSameSchema() async throws {
    let fresh = TemporaryDatabase()
    let upgraded = TemporaryDatabase()
    try writeFirstReleaseFile(at: upgraded.path, rows: [FirstReleaseRow(id: 1)])
    _ = try await openDatabase(fresh.path)
    _ = try await guide.attempt(2, "SQLiteProductLocalDataSource(path:) should open a first-release file") {
      try SQLiteProductLocalDataSource(path: upgraded.path)
    }
    let freshShape = try RawFile(fresh.path).shape()
    let upgradedShape = try RawFile(upgraded.path).shape()
    let differing = zip(freshShape, upgradedShape).filter { $0 != $1 }.map { "new \($0.0) / upgraded \($0.1)" }
    #expect(
      freshShape == upgradedShape,
      guide.task(
        2,
        "a new install and a phone that updates from the first release should end with one schema: \(differing.isEmpty ? "new \(freshShape), upgraded \(upgradedShape)" : differing.joined(separator: "; ")). whichever route each takes (the first release's table and what came after it, or today's schema made at once), columns, indexes and CHECK constraints must end the same"
      )
    )
  }

  @Test func reopensAnUpgradedFileWithoutMigratingAgain() async throws {
    let file = TemporaryDatabase()
    try writeFirstReleaseFile(at: file.path, rows: [FirstReleaseRow(id: 1)])
    _ = try await guide.attempt(
      2, "SQLiteProductLocalDataSource(path:) should open a first-release file, and save(_:) store product 2 in it"
    ) {
      try await SQLiteProductLocalDataSource(path: file.path).save([.sample(id: 2, title: "Saved after")])
    }
    let reopened = try await guide.attempt(
      2, "opening the upgraded file a second time should not migrate it again (\"duplicate column name\")"
    ) { try SQLiteProductLocalDataSource(path: file.path) }
    let ids = try await guide.attempt(2, "reading the upgraded file after reopening it") {
      try await reopened.products().map(\.id).sorted()
    }
    #expect(
      ids == [1, 2],
      guide.task(2, "the upgraded file should keep the first release's product 1 and the saved 2, got \(ids)"))
  }
}
