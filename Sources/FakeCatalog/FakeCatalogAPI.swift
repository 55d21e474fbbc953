import CourseClock
import CourseFixtures
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An in-process Catalog API that follows the DummyJSON products contract.
///
/// Each instance has its own host (`https://catalog-N.test`) and its own
/// `URLSession`, so tests that run in parallel never see each other's requests
/// or faults. Nothing leaves the process: the session answers through a
/// `URLProtocol`.
///
/// ```swift
/// let api = FakeCatalogAPI()
/// api.inject(.status(500, message: "Database unavailable"), on: .list, times: 1)
/// let (data, response) = try await api.session.data(from: api.baseURL.appending(path: "products"))
/// #expect(api.requests.count == 1)
/// ```
public final class FakeCatalogAPI: Sendable {
  /// The base URL to give the code under test, such as `https://catalog-3.test`.
  public let baseURL: URL
  /// A session whose requests to `baseURL` reach this API and nothing else.
  public let session: URLSession
  /// The clock that `Fault.latency` waits on.
  public let clock: TestClock

  /// Decides every answer; this type only carries them through `session`.
  let responder: CatalogResponder
  private let sharedSessionLog = Mutex<[RecordedRequest]>([])

  /// Makes an API serving `products` and `articles`.
  ///
  /// - Parameters:
  ///   - products: The records it starts with; the 194 real records by default.
  ///   - articles: The articles behind `GET /articles`; the twelve of `ArticleFixtures` by default.
  ///   - clock: What its latency waits on.
  ///   - now: The server's wall clock, for the `Date` header of every answer;
  ///     a test passes its own `now` so that dates in headers line up with it.
  public init(
    products: [JSONValue] = ProductFixtures.records, articles: [JSONValue] = ArticleFixtures.records,
    clock: TestClock = TestClock(), now: @escaping @Sendable () -> Date = { Date() }
  ) {
    // Before this API, or anything else, makes a session; see SharedSessionTrap.
    SharedSessionTrap.install()
    let host = FakeCatalogRegistry.makeHost()
    guard let baseURL = URL(string: "https://\(host)") else {
      preconditionFailure("\(host) is not a valid host name")
    }
    self.baseURL = baseURL
    self.clock = clock
    self.responder = CatalogResponder(
      products: products, articles: articles, now: now, sleep: { try await clock.sleep(for: $0) })
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [FakeCatalogURLProtocol.self]
    self.session = URLSession(configuration: configuration)
    FakeCatalogRegistry.register(self, host: host)
  }

  deinit {
    if let host = baseURL.host { FakeCatalogRegistry.unregister(host: host) }
    // The session is not invalidated: a learner's code that outlives its test (a
    // load that ignores cancellation) may still start a request on it, and an
    // invalidated session traps, which takes the whole suite down. With the host
    // unregistered, such a late request fails with "cannot find host" instead.
  }

  // MARK: What the API holds and has seen

  /// The records the API serves now, writes included.
  public var products: [JSONValue] { responder.products }

  /// The articles it serves now. Setting them is another client's edit: the
  /// next `GET /articles` answers with them, newest first by `updated_at`.
  public var articles: [JSONValue] {
    get { responder.articles }
    set { responder.articles = newValue }
  }

  /// Every request that reached the API through `session`, in arrival order.
  public var requests: [RecordedRequest] { responder.requests }

  /// The habits of a real server it keeps (all, by default): versions, server
  /// ids and stamps, 409 for a key in flight, dated answers. `.kind` turns them off.
  public var habits: ServerHabits {
    get { responder.habits }
    set { responder.habits = newValue }
  }

  /// Requests for this API's host that went through `URLSession.shared` instead
  /// of `session`. They are refused with `URLError(.cannotConnectToHost)` and
  /// recorded here so a test can say which session the code used.
  public var sharedSessionRequests: [RecordedRequest] { sharedSessionLog.withLock { $0 } }

  // MARK: Faults

  /// Makes requests misbehave.
  ///
  /// - Parameters:
  ///   - fault: What goes wrong.
  ///   - route: The route it applies to; `nil` for every route.
  ///   - times: How many matching requests it affects; `nil` until `clearFaults()`.
  public func inject(_ fault: Fault, on route: Route? = nil, times: Int? = nil) {
    responder.inject(fault, on: route, times: times)
  }

  /// Removes every injected fault; requests are answered normally again.
  public func clearFaults() {
    responder.clearFaults()
  }

  // MARK: Answering

  /// What the URL protocol does with a request.
  enum Outcome: Sendable {
    case reply(Reply)
    case failure(URLError)

    /// The in-process rendering of the responder's decision.
    init(_ outcome: CatalogOutcome) {
      switch outcome {
      case .reply(let reply): self = .reply(reply)
      case .truncated(var reply, let keeping):
        reply.body = reply.body.prefix(keeping)
        self = .reply(reply)
      case .notHTTP(var reply):
        reply.isHTTP = false
        self = .reply(reply)
      case .offline: self = .failure(URLError(.notConnectedToInternet))
      case .lost: self = .failure(URLError(.networkConnectionLost))
      case .timeout: self = .failure(URLError(.timedOut))
      case .cancelled: self = .failure(URLError(.cancelled))
      }
    }
  }

  /// Records the request, applies the faults aimed at it, and answers.
  func handle(_ request: RecordedRequest) async -> Outcome {
    Outcome(await responder.respond(to: request))
  }

  /// Records a request that arrived through `URLSession.shared`.
  func recordSharedSessionRequest(_ request: RecordedRequest) {
    sharedSessionLog.withLock { $0.append(request) }
  }
}
