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
  @Test func refusesABlankTitleAndANegativeStock() async throws {
    try await save([.sample(id: 1)], to: try await openDatabase(), "saving a plain product")
    let bad: [(what: String, product: Product)] = [
      ("an empty title", .sample(id: 2, title: "")), ("a stock of -1", .sample(id: 2, stock: -1)),
    ]
    await guide.expectEvery(
      bad, task: 1,
      "the store should refuse each product that is no product, with SQLite's constraint error (a CHECK) or LocalDataSourceError.unsavable(id: 2, …), and keep nothing of it"
    ) { what, product in
      let outcome = await Result { () async throws -> Product? in
        let local = try SQLiteProductLocalDataSource(path: ":memory:")
        let saved = await Result { try await local.save([product]) }
        let refused =
          isConstraintFailure(saved.failure)
          || { if case .unsavable(2, _)? = saved.failure as? LocalDataSourceError { true } else { false } }()
        guard refused else {
          throw Refusal(text: "\(what) gave \(saved.map { _ in "no error" }.described)", cause: saved.failure)
        }
        return try await local.product(id: 2)
      }
      switch outcome {
      case .success(nil): return nil
      case .success(let kept?): return ("\(what) was refused, but product(id: 2) still reads \(kept.title)", nil)
      case .failure(let refusal as Refusal): return (refusal.text, refusal.cause)
      case .failure(let error): return ("\(what): reading afterwards gave the error \(shown(error))", error)
      }
    }
  }

  @Test func opensTheFirstReleasesFileWithItsRows() async throws {
    let file = TemporaryDatabase()
    let row = FirstReleaseRow(id: 1)
    try writeFirstReleaseFile(at: file.path, rows: [row])
    let local = try await guide.attempt(2, "SQLiteProductLocalDataSource(path:) should open a first-release file") {
      try SQLiteProductLocalDataSource(path: file.path)
    }
    let read = try await guide.attempt(5, "reading the first release's product 1") { try await local.product(id: 1) }
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
        "the first release's row should read as the product it stored (price 12.5, brand nil, the date \(row.updatedAt) s after 2001); \(read.map { differences(expected: row.product, actual: $0) } ?? "product 1 is missing")\(newIsRight ? ". Saved into a new file the same product comes back right, so look at what your migration does to the old rows" : "")"
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
        "a new install and a phone that updates from the first release should end with one schema: \(differing.isEmpty ? "new \(freshShape), upgraded \(upgradedShape)" : differing.joined(separator: "; ")). Migration 1 is the first release's table as it shipped; what changes comes after it"
      )
    )
  }

  @Test func reopensAnUpgradedFileWithoutMigratingAgain() async throws {
    let file = TemporaryDatabase()
    try writeFirstReleaseFile(at: file.path, rows: [FirstReleaseRow(id: 1)])
    _ = try await guide.attempt(2, "SQLiteProductLocalDataSource(path:) should open a first-release file") {
      try await SQLiteProductLocalDataSource(path: file.path).save([.sample(id: 2, title: "Saved after")])
    }
    let reopened = try await guide.attempt(
      2, "opening the upgraded file a second time should not migrate it again (\"duplicate column name\")"
    ) { try SQLiteProductLocalDataSource(path: file.path) }
    let ids = try await readAll(reopened, "reading the upgraded file after reopening it").map(\.id).sorted()
    #expect(
      ids == [1, 2],
      guide.task(2, "the upgraded file should keep the first release's product 1 and the saved 2, got \(ids)"))
  }
}

/// A check's own failure inside a table case: what to say, and the error behind it.
private struct Refusal: Error {
  let text: String
  let cause: (any Error)?
}
