import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// The stores the contract runs against: written once, run for each.
enum StoreKind: String, CaseIterable, CustomStringConvertible, Sendable {
  case inMemory
  case sqlite

  var description: String { rawValue }

  func make() throws -> any ProductCacheStore {
    switch self {
    case .inMemory: InMemoryProductCacheStore()
    case .sqlite: try openSQLiteStore()
    }
  }
}

/// Task 2: what every `ProductCacheStore` promises, checked against the in-memory
/// reference and the SQLite store alike (Essential Developer's store specs).
@Suite(.timeLimit(.minutes(1)))
struct CacheStoreContractTests {
  static let fetchedAt = Date(timeIntervalSinceReferenceDate: 788_918_400.123_456)

  @Test(arguments: StoreKind.allCases)
  func anEmptyStoreHasNothingCached(kind: StoreKind) async throws {
    let store = try kind.make()
    let read = await Result { (try await store.cachedList(), try await store.cachedProduct(id: 1)) }
    let found = try? read.get()
    #expect(
      found != nil && found?.0 == nil && found?.1 == nil,
      guide.task(2, "\(kind): a new store has no list and no product 1 (nil, nil), got \(read)", blaming: read))
  }

  @Test(arguments: StoreKind.allCases)
  func aSavedEmptyListIsAnEntryNotNothing(kind: StoreKind) async throws {
    let store = try kind.make()
    let read = await Result {
      try await store.saveList([], fetchedAt: Self.fetchedAt)
      return try await store.cachedList()
    }
    #expect(
      (try? read.get()) == CacheEntry(value: [], fetchedAt: Self.fetchedAt),
      guide.task(
        2, "\(kind): after saving an empty list, cachedList() is an entry with [] and its time, not nil; got \(read)",
        blaming: read))
  }

  @Test(arguments: StoreKind.allCases)
  func keepsTheListsOrderAndItsFetchTimeExactly(kind: StoreKind) async throws {
    let store = try kind.make()
    let unsorted = [firstPage[7], firstPage[0], firstPage[29], firstPage[3]]
    let read = await Result {
      try await store.saveList(unsorted, fetchedAt: Self.fetchedAt)
      return try await store.cachedList()
    }
    let entry = try? read.get()
    #expect(
      Bool(same(entry?.value, unsorted)),
      guide.task(
        2,
        "\(kind): the list comes back in the order it was saved, ids \(unsorted.map(\.id)), got \(read.map { $0?.value.map(\.id) })",
        blaming: read))
    #expect(
      entry?.fetchedAt == Self.fetchedAt,
      guide.task(
        2,
        "\(kind): the fetch time comes back to the last bit, \(Self.fetchedAt.timeIntervalSinceReferenceDate), got \(String(describing: entry?.fetchedAt.timeIntervalSinceReferenceDate))",
        blaming: read))
  }

  @Test(arguments: StoreKind.allCases)
  func savingAListAgainReplacesItAndItsTime(kind: StoreKind) async throws {
    let store = try kind.make()
    let later = Self.fetchedAt.addingTimeInterval(60)
    let read = await Result {
      try await store.saveList(Array(firstPage.prefix(3)), fetchedAt: Self.fetchedAt)
      try await store.saveList([firstPage[2], firstPage[10]], fetchedAt: later)
      return try await store.cachedList()
    }
    #expect(
      Bool(same(try? read.get(), CacheEntry(value: [firstPage[2], firstPage[10]], fetchedAt: later))),
      guide.task(
        2,
        "\(kind): the second list replaces the first: expected ids [\(firstPage[2].id), \(firstPage[10].id)] fetched 60 s later, got \(read.map { $0.map { "\($0.value.map(\.id)) at \($0.fetchedAt)" } })",
        blaming: read))
  }

  @Test(arguments: StoreKind.allCases)
  func aProductThatCameInAListHasTheListsFetchTime(kind: StoreKind) async throws {
    let store = try kind.make()
    let read = await Result {
      try await store.saveList(firstPage, fetchedAt: Self.fetchedAt)
      return try await store.cachedProduct(id: firstPage[4].id)
    }
    #expect(
      Bool(same(try? read.get(), CacheEntry(value: firstPage[4], fetchedAt: Self.fetchedAt))),
      guide.task(
        2,
        "\(kind): saving a list stamps each product: cachedProduct(id: \(firstPage[4].id)) should be it with the list's time, got \(read)",
        blaming: read))
  }

  @Test(arguments: StoreKind.allCases)
  func aProductSavedAloneKeepsItsOwnTimeAndShowsInTheList(kind: StoreKind) async throws {
    let store = try kind.make()
    var changed = firstPage[1]
    changed.title = "Changed since the list"
    let later = Self.fetchedAt.addingTimeInterval(30)
    let read = await Result {
      try await store.saveList(Array(firstPage.prefix(3)), fetchedAt: Self.fetchedAt)
      try await store.saveProduct(changed, fetchedAt: later)
      return (try await store.cachedProduct(id: changed.id), try await store.cachedList())
    }
    let found = try? read.get()
    #expect(
      Bool(same(found?.0, CacheEntry(value: changed, fetchedAt: later))),
      guide.task(
        2, "\(kind): a product saved alone comes back with its own time, got \(read.map { $0.0 })", blaming: read))
    #expect(
      Bool(same(found?.1, CacheEntry(value: [firstPage[0], changed, firstPage[2]], fetchedAt: Self.fetchedAt))),
      guide.task(
        2,
        "\(kind): the list shows the newer product in its place and keeps the list's own time, got \(read.map { $0.1.map { "\($0.value.map(\.title)) at \($0.fetchedAt)" } })",
        blaming: read))
  }
}

/// Task 2, what only a SQLite file shows: ages survive a restart, and migration 3
/// keeps what stage 04 stored.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteCacheFileTests {
  @Test func fetchTimesSurviveARestart() async throws {
    let file = TemporaryDatabase()
    let fetchedAt = Date(timeIntervalSinceReferenceDate: 788_918_400.5)
    let saved = await Result {
      let first = try SQLiteProductLocalDataSource(path: file.path)
      try await first.saveList(Array(firstPage.prefix(5)), fetchedAt: fetchedAt)
      try await first.saveProduct(firstPage[20], fetchedAt: fetchedAt.addingTimeInterval(9))
    }
    try #require((try? saved.get()) != nil, guide.task(2, "saving to a file should work, got \(saved)", blaming: saved))
    let reopened = await Result {
      let second = try SQLiteProductLocalDataSource(path: file.path)
      return (try await second.cachedList(), try await second.cachedProduct(id: firstPage[20].id))
    }
    let found = try? reopened.get()
    #expect(
      Bool(same(found?.0, CacheEntry(value: Array(firstPage.prefix(5)), fetchedAt: fetchedAt)))
        && Bool(same(found?.1, CacheEntry(value: firstPage[20], fetchedAt: fetchedAt.addingTimeInterval(9)))),
      guide.task(
        2,
        "a new data source on the same file should see the list and the product with their fetch times, got \(reopened)",
        blaming: reopened))
  }

  @Test func migration3KeepsStage04sProductsButTheirAgeIsUnknown() async throws {
    let file = TemporaryDatabase()
    let version2 = Result {
      let database = try SQLiteConnection(path: file.path)
      try database.migrate(Array(SQLiteProductLocalDataSource.migrations.prefix(2)))
      try database.prepare(
        """
        INSERT INTO products (id, title, description, category, price, discount_percentage, rating, stock, thumbnail, updated_at, brand)
        VALUES (1, 'Saved by stage 04', '', 'legacy', '12.50', 5, 4.5, 3, NULL, 768000000, NULL)
        """
      ).run()
    }
    try #require(
      (try? version2.get()) != nil,
      guide.task(2, "a version-2 file should be made with stage 04's migrations: \(version2)"))
    let (titles, cached) = try await guide.attempt(
      2, "opening stage 04's version-2 file should run migration 3, and its products should read"
    ) {
      let store = try SQLiteProductLocalDataSource(path: file.path)
      return (try await store.products().map(\.title), try await store.cachedProduct(id: 1))
    }
    #expect(
      titles == ["Saved by stage 04"],
      guide.task(2, "migration 3 must keep the products stage 04 saved, got \(titles)"))
    #expect(
      cached == nil,
      guide.task(
        2,
        "a product saved without a fetch time is not a cache entry (its age is unknown): expected nil, got \(shown(cached as Any))"
      ))
    let version = Result { try SQLiteConnection(path: file.path).userVersion() }
    #expect(
      (try? version.get()) == 3,
      guide.task(2, "the file should record user_version 3 after opening, got \(version)", blaming: version))
  }

  @Test func aListSaveThatFailsKeepsThePreviousList() async throws {
    let store = try openSQLiteStore()
    let fetchedAt = Date(timeIntervalSinceReferenceDate: 788_918_400)
    var invalid = Product.sample(id: 900)
    invalid.stock = -1
    let read = await Result {
      try await store.saveList(Array(firstPage.prefix(3)), fetchedAt: fetchedAt)
      let failed = await Result { try await store.saveList([.sample(id: 899), invalid], fetchedAt: fetchedAt + 60) }
      return (failed.failure, try await store.cachedList(), try await store.cachedProduct(id: 899))
    }
    let found = try? read.get()
    #expect(
      found?.0 != nil && Bool(same(found?.1, CacheEntry(value: Array(firstPage.prefix(3)), fetchedAt: fetchedAt)))
        && found?.2 == nil,
      guide.task(
        2,
        "a list with a product of stock -1 fails as a whole: the previous list, its time, and no product 899 remain; got \(read)",
        blaming: read))
  }
}
