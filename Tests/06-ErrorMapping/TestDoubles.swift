import CourseClock
import Foundation
import StageTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

// Test doubles, named by role. They live with the tests, never in the app. The
// view model's spy, SpyProductRepository, is the one you wrote in stage 03; it
// sits in the stage's folder because one test folder serves lesson and solution.

/// Counts events and lets a test wait until a number of them has happened,
/// without sleeping: a waiter returns as soon as the count is reached, or when
/// its task is cancelled.
final class CountSignal: Sendable {
  private struct State {
    var count = 0
    var lastID: UInt64 = 0
    var waiters: [UInt64: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    var cancelledEarly: Set<UInt64> = []
  }

  private let state = Mutex(State())

  var count: Int { state.withLock { $0.count } }

  func increment() {
    let ready = state.withLock { state in
      state.count += 1
      let ready = state.waiters.filter { $0.value.count <= state.count }
      for id in ready.keys { state.waiters[id] = nil }
      return ready.values.map(\.continuation)
    }
    for continuation in ready { continuation.resume() }
  }

  /// Returns once `count` events have happened, or early when the task is cancelled.
  func wait(atLeast count: Int) async {
    let id = state.withLock { state in
      state.lastID += 1
      return state.lastID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state in
          if state.cancelledEarly.remove(id) != nil || state.count >= count { return true }
          state.waiters[id] = (count, continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        guard let waiter = state.waiters.removeValue(forKey: id) else {
          state.cancelledEarly.insert(id)
          return nil as CheckedContinuation<Void, Never>?
        }
        return waiter.continuation
      }
      waiter?.resume()
    }
  }
}

/// Spy on the network: answers each call from a script (the last answer
/// repeats) and counts the attempts.
final class SpyRemoteDataSource: ProductRemoteDataSource {
  private let script: Mutex<[Result<[Product], CatalogError>]>
  /// One event per call.
  let attempts = CountSignal()

  /// - Parameter answers: One answer per call; the last one repeats.
  init(_ answers: [Result<[Product], CatalogError>]) {
    precondition(!answers.isEmpty, "a spy needs at least one answer")
    script = Mutex(answers)
  }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    ProductPage(products: try next().get(), total: 194, skip: skip, limit: limit)
  }

  func product(id: Int) async throws -> Product {
    guard let product = try next().get().first(where: { $0.id == id }) else { throw CatalogError.notFound }
    return product
  }

  private func next() -> Result<[Product], CatalogError> {
    attempts.increment()
    return script.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
  }
}

/// A jitter source that answers a fixed sequence of fractions, then repeats the last.
final class ScriptedRandom: Sendable {
  private let fractions: Mutex<[Double]>

  init(_ fractions: [Double]) {
    precondition(!fractions.isEmpty, "a scripted random source needs a fraction")
    self.fractions = Mutex(fractions)
  }

  var source: @Sendable () -> Double {
    { self.fractions.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] } }
  }
}

/// A repository that answers its first call and holds every later one until its
/// task is cancelled, for the view model's cancellation test.
actor HoldingProductRepository {
  private let answer: RepositoryAnswer<[Product]>
  private var calls = 0
  /// What a held call sleeps on; a test waits for its sleeper to know the call is in flight.
  nonisolated let held = TestClock()

  init(answer: RepositoryAnswer<[Product]>) {
    self.answer = answer
  }

  func products(policy: CachePolicy) async throws -> RepositoryAnswer<[Product]> {
    calls += 1
    if calls > 1 {
      // Nobody advances this clock: the call ends only by cancellation.
      try await held.sleep(for: .seconds(1))
    }
    return answer
  }

  func product(id: Int, policy: CachePolicy) async throws -> RepositoryAnswer<Product> {
    throw CatalogError.notFound
  }
}

/// Spy on the boundary: a mapper that records what the remote source asks it and
/// answers with errors no table of the stage gives, so a test can tell its answers
/// from those of the composition root's mapper.
final class SpyErrorMapper: CatalogErrorMapping {
  /// One question the source asked.
  enum Question: Sendable, Equatable {
    case status(Int, retryAfter: String?, now: Date)
    case body(contentType: String?)
    /// `catalogError(from:now:)`, handed `error`: the `CatalogError` it is, or `nil` for another type.
    case boundary(error: CatalogError?, now: Date)
  }

  /// What `map(status:retryAfter:now:)` answers for a status that is not 2xx.
  static let statusAnswer = CatalogError.rejected(status: 999)
  /// What `checkBody(_:contentType:)` answers for any body.
  static let bodyAnswer = CatalogError.invalidData("the spy's body check")
  /// What `catalogError(from:now:)` answers for any error.
  static let boundaryAnswer = CatalogError.server(status: 999)

  private let recorded = Mutex<[Question]>([])

  /// Every question so far, in order.
  var questions: [Question] { recorded.withLock { $0 } }

  func map(status: Int, retryAfter: String?, now: Date) -> CatalogError? {
    recorded.withLock { $0.append(.status(status, retryAfter: retryAfter, now: now)) }
    return (200..<300).contains(status) ? nil : Self.statusAnswer
  }

  func checkBody(_ body: Data, contentType: String?) -> CatalogError? {
    recorded.withLock { $0.append(.body(contentType: contentType)) }
    return Self.bodyAnswer
  }

  func catalogError(from error: any Error, now: Date) throws -> CatalogError {
    recorded.withLock { $0.append(.boundary(error: error as? CatalogError, now: now)) }
    return Self.boundaryAnswer
  }
}

/// Answers every request of its session with one canned HTTP answer (a status,
/// headers and a body), for the HTTP tables, which need headers and bodies the
/// fake API does not make. Each answer has a host of its own, so tests that run
/// at once never share one.
final class CannedHTTPAnswer: URLProtocol {
  struct Answer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
  }

  private static let answers = Mutex<[String: Answer]>([:])

  /// Reads the first page through the finished remote source, over a session
  /// whose every request gets `answer`, with `testNow` as the source's wall clock.
  ///
  /// - Parameter mapper: The source's mapper; `nil` leaves the source's default,
  ///   the composition root's, as the app gets it.
  static func products(answering answer: Answer, mapper: (any CatalogErrorMapping)? = nil) async -> Result<
    ProductPage, any Error
  > {
    let host = "canned-\(UUID().uuidString.lowercased()).test"
    guard let baseURL = URL(string: "https://\(host)") else { preconditionFailure("\(host) is a valid host") }
    answers.withLock { $0[host] = answer }
    defer { answers.withLock { $0[host] = nil } }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [CannedHTTPAnswer.self]
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let remote =
      if let mapper {
        URLSessionProductRemoteDataSource(baseURL: baseURL, session: session, now: testNow, mapper: mapper)
      } else {
        URLSessionProductRemoteDataSource(baseURL: baseURL, session: session, now: testNow)
      }
    return await Result { try await remote.products(limit: 30, skip: 0) }
  }

  override class func canInit(with request: URLRequest) -> Bool { true }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let url = request.url, let answer = Self.answers.withLock({ $0[url.host ?? ""] }),
      let response = HTTPURLResponse(
        url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: answer.headers)
    else {
      client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
      return
    }
    client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    client?.urlProtocol(self, didLoad: answer.body)
    client?.urlProtocolDidFinishLoading(self)
  }

  override func stopLoading() {}
}

// The conformance is declared apart from the actor: Swift 6.3 can reject an actor that
// conforms to a `nonisolated` protocol in its own declaration (Docs/Setup.md, "Today's Xcode").
extension HoldingProductRepository: ProductRepository {}
