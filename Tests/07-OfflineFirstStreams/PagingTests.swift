import CourseFixtures
import FakeCatalog
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// Task 3: the network pages into the store; observers see the longer list.
@Suite(.timeLimit(.minutes(1)))
struct PagingTests {
  @Test func eachPageStartsWhereTheStoreEnds() async throws {
    guard await requireTask1(for: 3) else { return }
    let harness = try Harness()
    guard await requireObserveStartsWithTheStoredList(harness, for: 3),
      let stream = await attempt(2, "a stream", for: 3, { try await harness.repository.observe() })
    else { return }
    let reader = StreamReader(stream)
    defer { reader.cancel() }
    _ = await reader.waitFor(count: 1)
    guard await attempt(3, "a first page", { try await harness.repository.loadNextPage() }) != nil,
      await attempt(3, "a second page", { try await harness.repository.loadNextPage() }) != nil
    else { return }
    let seen = await reader.waitFor(count: 3) ? Array(reader.values.dropFirst()) : []
    let (one, two) = (seen.first, seen.dropFirst().first)
    let skips = harness.api.requests.map { $0.query("skip") ?? "none" }
    #expect(
      one?.count == 30 && two?.count == 60 && skips == ["0", "30"],
      guide.task(
        3,
        "expected 30 then 60 products from requests with skip 0 and 30, got \(titles(one)), \(titles(two)) and skips \(skips)"
      ))
  }

  @Test func aProductThatMovedBetweenPagesIsStoredOnce() async throws {
    let products = Array(realProducts.prefix(5))
    let remote = StubPages([
      ProductPage(products: Array(products[0..<3]), total: 5, skip: 0, limit: 3),
      // Product 3 moved down while the user scrolled: it comes again on page two.
      ProductPage(products: Array(products[2..<5]), total: 5, skip: 3, limit: 3),
    ])
    let store = try OfflineProductStore(path: ":memory:")
    let repository = OfflineFirstProductRepository(store: store, remote: remote, now: testNow)
    guard await attempt(3, "two pages", { try await repository.loadNextPage() }) != nil,
      await attempt(3, "two pages", { try await repository.loadNextPage() }) != nil
    else { return }
    let ids = try await store.products().map(\.id).sorted()
    #expect(ids == [1, 2, 3, 4, 5], guide.task(3, "expected products 1 to 5, each once, got ids \(ids)"))
  }

  @Test func theEndIsKnownFromTotal() async throws {
    let harness = try Harness(products: Array(ProductFixtures.records.prefix(45)))
    var answers: [Bool] = []
    for _ in 1...3 {
      guard let more = await attempt(3, "a page", { try await harness.repository.loadNextPage() }) else { return }
      answers.append(more)
    }
    let stored = try await harness.store.products().count
    #expect(
      answers == [true, true, false] && harness.api.requests.count == 2 && stored == 45,
      guide.task(
        3,
        "expected true, true, then false without a request once 45 of 45 are stored, got \(answers) after \(harness.api.requests.count) requests, \(stored) stored"
      ))
  }

  @Test func aRefreshOfPageOneKeepsTheLaterPages() async throws {
    let harness = try Harness()
    for _ in 1...2 {
      guard await attempt(3, "a page", { try await harness.repository.loadNextPage() }) != nil else { return }
    }
    guard await attempt(2, "a refresh", for: 3, { try await harness.repository.refresh() }) != nil,
      await attempt(3, "a third page", { try await harness.repository.loadNextPage() }) != nil
    else { return }
    let stored = try await harness.store.products().count
    let skips = harness.api.requests.map { $0.query("skip") ?? "none" }
    #expect(
      stored == 90 && skips == ["0", "30", "0", "60"],
      guide.task(
        3,
        "expected a refresh to keep the 60 loaded products and the next page to start at 60, got \(stored) stored after skips \(skips)"
      ))
  }
}
