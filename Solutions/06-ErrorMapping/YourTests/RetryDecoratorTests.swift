import CourseClock
import Foundation
import Synchronization
import Testing

@testable import Solution06

/// Stub and spy: answers each call with the next answer of its script (the last
/// repeats), and counts the calls.
final class ScriptedRemote: ProductRemoteDataSource {
  private let script: Mutex<(answers: [Result<ProductPage, CatalogError>], calls: Int)>

  init(_ answers: [Result<ProductPage, CatalogError>]) { script = Mutex((answers, 0)) }

  var calls: Int { script.withLock { $0.calls } }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    let answer = script.withLock { script in
      script.calls += 1
      return script.answers.count > 1 ? script.answers.removeFirst() : script.answers[0]
    }
    return try answer.get()
  }

  func product(id: Int) async throws -> Product { throw CatalogError.notFound }
}

struct RetryDecoratorTests {
  static let page = ProductPage(products: [], total: 0, skip: 0, limit: 30)

  /// The decorator under the app's standard policy, with waits of zero (`random` 0) on a test clock.
  func retrying(_ remote: ScriptedRemote) -> RetryingProductRemoteDataSource {
    RetryingProductRemoteDataSource(wrapping: remote, policy: .standard, clock: TestClock(), random: { 0 })
  }

  @Test func aServerErrorIsRetriedUntilThePageComes() async throws {
    let remote = ScriptedRemote([.failure(.server(status: 503)), .success(Self.page)])
    let page = try await retrying(remote).products(limit: 30, skip: 0)
    #expect(page == Self.page)
    #expect(remote.calls == 2)
  }

  @Test func notFoundIsNotRetried() async {
    let remote = ScriptedRemote([.failure(.notFound)])
    await #expect(throws: CatalogError.notFound) { try await retrying(remote).products(limit: 30, skip: 0) }
    #expect(remote.calls == 1)
  }

  @Test func aServerThatKeepsFailingIsAskedThreeTimesInAll() async {
    let remote = ScriptedRemote([.failure(.server(status: 503))])
    await #expect(throws: CatalogError.server(status: 503)) { try await retrying(remote).products(limit: 30, skip: 0) }
    #expect(remote.calls == 3)
  }
}
