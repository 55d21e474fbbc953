import Foundation
import Synchronization

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

// Test doubles, named by role. They live with the tests, never in the app.

/// Serves canned pages by `skip` and records the skips asked for.
final class StubPages: ProductRemoteDataSource {
  private let pages: [Int: ProductPage]
  private let asked = Mutex<[Int]>([])

  init(_ pages: [ProductPage]) {
    self.pages = Dictionary(uniqueKeysWithValues: pages.map { ($0.skip, $0) })
  }

  /// The `skip` of every page asked for, in order.
  var skips: [Int] { asked.withLock { $0 } }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    asked.withLock { $0.append(skip) }
    return pages[skip] ?? ProductPage(products: [], total: 0, skip: skip, limit: limit)
  }

  func product(id: Int) async throws -> Product {
    throw CatalogError.notFound
  }
}

/// Sends every write, then loses the answer of the first `times` of them, as a
/// connection that drops after the request reached the server does.
final class LosingAnswers: ProductSyncRemoteDataSource {
  private let remote: any ProductSyncRemoteDataSource
  private let remaining: Mutex<Int>

  init(_ remote: any ProductSyncRemoteDataSource, times: Int) {
    self.remote = remote
    remaining = Mutex(times)
  }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    try await remote.products(limit: limit, skip: skip)
  }

  func product(id: Int) async throws -> Product {
    try await remote.product(id: id)
  }

  func send(_ entry: OutboxEntry, idempotencyKey: String, baseVersion: String?) async throws -> WriteReceipt {
    let answer = try await remote.send(entry, idempotencyKey: idempotencyKey, baseVersion: baseVersion)
    let lose = remaining.withLock { remaining in
      defer { remaining -= 1 }
      return remaining > 0
    }
    if lose { throw CatalogError.timedOut }
    return answer
  }
}
