import CourseClock
import CourseFixtures
import Dispatch
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

  private struct State {
    var store: CatalogStore
    var faults: [FaultRule] = []
    var requests: [RecordedRequest] = []
    var sharedSessionRequests: [RecordedRequest] = []

    /// The faults that apply to one request, using up counted ones: every
    /// latency aimed at it, and the first other fault, which decides the answer.
    mutating func takeFaults(for route: Route?) -> [Fault] {
      var taken: [Fault] = []
      var decided = false
      for index in faults.indices where faults[index].route == nil || faults[index].route == route {
        let fault = faults[index].fault
        if case .latency = fault {
        } else if decided {
          continue
        } else {
          decided = true
        }
        taken.append(fault)
        if let remaining = faults[index].remaining { faults[index].remaining = remaining - 1 }
      }
      faults.removeAll { $0.remaining == 0 }
      return taken
    }
  }

  private let state: Mutex<State>

  /// Makes an API serving `products`.
  ///
  /// - Parameters:
  ///   - products: The records to serve; the 194 real records by default.
  ///   - clock: The clock that injected latency waits on.
  public init(products: [JSONValue] = ProductFixtures.records, clock: TestClock = TestClock()) {
    // Before this API, or anything else, makes a session; see SharedSessionTrap.
    SharedSessionTrap.install()
    let host = FakeCatalogRegistry.makeHost()
    guard let baseURL = URL(string: "https://\(host)") else {
      preconditionFailure("\(host) is not a valid host name")
    }
    self.baseURL = baseURL
    self.clock = clock
    self.state = Mutex(State(store: CatalogStore(products: products)))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [FakeCatalogURLProtocol.self]
    self.session = URLSession(configuration: configuration)
    FakeCatalogRegistry.register(self, host: host)
  }

  deinit {
    if let host = baseURL.host { FakeCatalogRegistry.unregister(host: host) }
    // The last reference can go away on the session's own queue (inside the URL
    // protocol); invalidating there would wait on that queue and trap. Hop off it.
    let session = session
    DispatchQueue.global().async { session.finishTasksAndInvalidate() }
  }

  // MARK: What the API holds and has seen

  /// The records the API serves now, writes included.
  public var products: [JSONValue] { state.withLock { $0.store.products } }

  /// Every request that reached the API through `session`, in arrival order.
  public var requests: [RecordedRequest] { state.withLock { $0.requests } }

  /// Requests for this API's host that went through `URLSession.shared` instead
  /// of `session`. They are refused with `URLError(.cannotConnectToHost)` and
  /// recorded here so a test can say which session the code used.
  public var sharedSessionRequests: [RecordedRequest] {
    state.withLock { $0.sharedSessionRequests }
  }

  // MARK: Faults

  /// Makes requests misbehave.
  ///
  /// - Parameters:
  ///   - fault: What goes wrong.
  ///   - route: The route it applies to; `nil` for every route.
  ///   - times: How many matching requests it affects; `nil` until `clearFaults()`.
  public func inject(_ fault: Fault, on route: Route? = nil, times: Int? = nil) {
    precondition(times.map { $0 > 0 } ?? true, "inject(times:) needs a positive count")
    state.withLock { $0.faults.append(FaultRule(fault: fault, route: route, remaining: times)) }
  }

  /// Removes every injected fault; requests are answered normally again.
  public func clearFaults() {
    state.withLock { $0.faults.removeAll() }
  }

  // MARK: Answering

  /// What the URL protocol does with a request.
  enum Outcome: Sendable {
    case reply(Reply)
    case failure(URLError)
  }

  /// Records the request, applies the faults aimed at it, and answers.
  func handle(_ request: RecordedRequest) async -> Outcome {
    let faults: [Fault] = state.withLock { state in
      state.requests.append(request)
      return state.takeFaults(for: request.route)
    }
    let delay = faults.reduce(Duration.zero) { total, fault in
      if case .latency(let duration) = fault { return total + duration }
      return total
    }
    if delay > .zero {
      do {
        try await clock.sleep(for: delay)
      } catch {
        return .failure(URLError(.cancelled))
      }
    }
    let decisive = faults.first { if case .latency = $0 { false } else { true } }
    switch decisive {
    case .offline?: return .failure(URLError(.notConnectedToInternet))
    case .timeout?: return .failure(URLError(.timedOut))
    case .status(let status, let message, let headers)?:
      var reply = Reply.message(message, status: status)
      reply.headers.merge(headers) { _, new in new }
      return .reply(reply)
    case .malformedBody?:
      return .reply(Reply(status: 200, body: Data(#"{"products": [{"id": 1,"#.utf8)))
    case .nonJSONBody?:
      return .reply(
        Reply(
          status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
          body: Data("<html><body><h1>Wi-Fi login required</h1></body></html>".utf8)))
    case .body(let text)?:
      return .reply(Reply(status: 200, body: Data(text.utf8)))
    case .statusWithBody(let status, let text)?:
      return .reply(Reply(status: status, body: Data(text.utf8)))
    case .nonHTTPResponse?:
      var reply = state.withLock { $0.store.reply(to: request) }
      reply.isHTTP = false
      return .reply(reply)
    case .truncatedBody?:
      var reply = state.withLock { $0.store.reply(to: request) }
      reply.body = reply.body.prefix(reply.body.count / 2)
      return .reply(reply)
    case .latency?, nil:
      return .reply(state.withLock { $0.store.reply(to: request) })
    }
  }

  /// Records a request that arrived through `URLSession.shared`.
  func recordSharedSessionRequest(_ request: RecordedRequest) {
    state.withLock { $0.sharedSessionRequests.append(request) }
  }
}
