import Foundation
import Testing

@testable import Solution05

struct CacheAnswerTests {
  /// A store holding `products`, fetched `age` seconds before noon.
  func store(holding products: [Product], age: TimeInterval) async throws -> InMemoryProductCacheStore {
    let store = InMemoryProductCacheStore()
    await store.saveList(products, fetchedAt: noon.addingTimeInterval(-age))
    return store
  }

  @Test func cacheFirstAnswersAFreshListWithoutTheNetwork() async throws {
    let remote = SpyRemote(.success([product(9)]))
    let repository = CachingProductRepository(
      remote: remote, store: try await store(holding: [product(1)], age: 60), now: { noon })
    let answer = try await repository.products(policy: .cacheFirst)
    #expect(answer.value == [product(1)])
    #expect(answer.origin == .disk)
    #expect(remote.calls == 0)
  }

  @Test func networkFirstFallsBackToTheCachedListMarkedStale() async throws {
    let repository = CachingProductRepository(
      remote: SpyRemote(.failure(RemoteDataSourceError.offline)),
      store: try await store(holding: [product(1)], age: 60), now: { noon })
    let answer = try await repository.products(policy: .networkFirst)
    #expect(answer.value == [product(1)])
    #expect(answer.isStale)
  }

  @Test func aFailedCacheWriteDoesNotHideTheNetworksAnswer() async throws {
    let repository = CachingProductRepository(
      remote: SpyRemote(.success([product(2)])), store: RefusingStore(), now: { noon })
    let answer = try await repository.products(policy: .networkFirst)
    #expect(answer.value == [product(2)])
    #expect(answer.origin == .network)
  }
}
