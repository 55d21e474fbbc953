import CourseFixtures
import Foundation
import Synchronization

/// Turns a request into the Catalog API's answer, whatever carries it.
///
/// The one place that holds the records, the injected faults and the requests
/// seen, and decides what each request gets. `FakeCatalogAPI` renders its
/// decisions through a `URLProtocol`; `course serve` renders them on a socket.
///
/// ```swift
/// let responder = CatalogResponder(sleep: { try await Task.sleep(for: $0) })
/// responder.inject(.status(503), on: .list, times: 1)
/// let outcome = await responder.respond(to: request)
/// ```
public final class CatalogResponder: Sendable {
  private struct State {
    var store: CatalogStore
    var faults: [FaultRule] = []
    var requests: [RecordedRequest] = []
    /// The `Idempotency-Key`s of the writes decided but not yet answered.
    var keysInFlight: Set<String> = []

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
  private let sleep: @Sendable (Duration) async throws -> Void
  private let keepsRequests: Bool
  /// The server's wall clock, for the `Date` header of every answer.
  private let now: @Sendable () -> Date

  /// Makes a responder serving `products` and `articles`.
  ///
  /// - Parameters:
  ///   - products: The records to serve; the 194 real records by default.
  ///   - articles: The articles behind `GET /articles`; the twelve of `ArticleFixtures` by default.
  ///   - keepsRequests: Whether `requests` records every request; a long-running
  ///     server passes `false` so its memory does not grow with its traffic.
  ///   - sleep: Waits out injected latency: a `TestClock` in tests, the real clock in a server.
  public init(
    products: [JSONValue] = ProductFixtures.records, articles: [JSONValue] = ArticleFixtures.records,
    keepsRequests: Bool = true, now: @escaping @Sendable () -> Date = { Date() },
    sleep: @escaping @Sendable (Duration) async throws -> Void
  ) {
    self.now = now
    self.state = Mutex(State(store: CatalogStore(products: products, articles: articles)))
    self.keepsRequests = keepsRequests
    self.sleep = sleep
  }

  // MARK: What it holds and has seen

  /// The records served now, writes included.
  public var products: [JSONValue] { state.withLock { $0.store.products } }

  /// The articles served now. Setting them is another client's edit: the next
  /// `GET /articles` answers with them, newest first by `updated_at`.
  public var articles: [JSONValue] {
    get { state.withLock { $0.store.articles } }
    set { state.withLock { $0.store.articles = newValue } }
  }

  /// Every request answered, in arrival order; empty when `keepsRequests` is `false`.
  public var requests: [RecordedRequest] { state.withLock { $0.requests } }

  /// The faults still in force, oldest first.
  public var faults: [FaultRule] { state.withLock { $0.faults } }

  /// The habits of a real server it keeps; all of them unless a test or `habits kind` says otherwise.
  public var habits: ServerHabits {
    get { state.withLock { $0.store.habits } }
    set { state.withLock { $0.store.habits = newValue } }
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

  /// What a request will get, decided before any waiting.
  public struct Decision: Sendable {
    /// How long to wait before answering: every latency aimed at the request, added up.
    public let delay: Duration
    /// The fault that decides the answer, if any.
    let decisive: Fault?
    let request: RecordedRequest
    /// The key this decision holds in flight until its outcome, if any.
    let heldKey: String?
    /// The answer, made when the request arrived: a read sees the records as they
    /// were then, and a write is applied then, however late its answer leaves.
    let answer: CatalogOutcome
  }

  /// Records the request, applies the faults aimed at it, and decides the answer.
  ///
  /// - Parameters:
  ///   - request: The request as it arrived.
  ///   - ambient: Faults the transport adds for this request only, after the
  ///     injected ones: a server's standing latency or a failure it drew at random.
  /// - Returns: What the transport should do.
  public func respond(to request: RecordedRequest, adding ambient: [Fault] = []) async -> CatalogOutcome {
    let decision = decide(request, adding: ambient)
    if decision.delay > .zero {
      do {
        try await sleep(decision.delay)
      } catch {
        abandon(decision)
        return .cancelled
      }
    }
    return outcome(of: decision)
  }

  /// The first half of `respond(to:adding:)`, for a transport that waits out
  /// `delay` itself, such as a server thread that may block: records the
  /// request and uses up the faults aimed at it.
  public func decide(_ request: RecordedRequest, adding ambient: [Fault] = []) -> Decision {
    let key = request.method == "GET" || request.method == "HEAD" ? nil : request.header("Idempotency-Key")
    let (faults, heldKey): ([Fault], String?) = state.withLock { state in
      if keepsRequests { state.requests.append(request) }
      // The IETF Idempotency-Key draft: a request whose key is still being
      // answered gets 409, and is neither applied nor remembered.
      if let key, state.store.habits.contains(.keysInFlight), state.keysInFlight.contains(key) {
        let busy = Fault.status(
          409, message: "A request with Idempotency-Key '\(key)' is still being answered; try again later")
        return ([busy], nil)
      }
      if let key { state.keysInFlight.insert(key) }
      return (state.takeFaults(for: request.route) + ambient, key)
    }
    let delay = faults.reduce(Duration.zero) { total, fault in
      if case .latency(let duration) = fault { return total + duration }
      return total
    }
    let decisive = faults.first { if case .latency = $0 { false } else { true } }
    return Decision(
      delay: delay, decisive: decisive, request: request, heldKey: heldKey,
      answer: answer(request, decisive: decisive))
  }

  /// Lets go of a decision that will never get its outcome (the connection was stopped).
  public func abandon(_ decision: Decision) {
    guard let key = decision.heldKey else { return }
    _ = state.withLock { $0.keysInFlight.remove(key) }
  }

  public func outcome(of decision: Decision) -> CatalogOutcome {
    defer { abandon(decision) }
    switch decision.answer {
    case .reply(var reply):
      // A fault may bring a Date header of its own, for a server whose clock is off.
      if reply.headers["Date"] == nil, habits.contains(.datedAnswers) { reply.headers["Date"] = Self.httpDate(now()) }
      return .reply(reply)
    case let other: return other
    }
  }

  /// An HTTP date, as the `Date` header carries it: `Tue, 01 Dec 2026 19:31:35 GMT`.
  static func httpDate(_ date: Date) -> String {
    httpDateFormatter.withLock { $0.string(from: date) }
  }

  /// Made once: a formatter costs more to make than the rest of a small answer.
  private static let httpDateFormatter: Mutex<DateFormatter> = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return Mutex(formatter)
  }()

  private func answer(_ request: RecordedRequest, decisive: Fault?) -> CatalogOutcome {
    switch decisive {
    case .answerLost?:
      _ = storeReply(to: request)
      return .lost
    case .answerCut?:
      var reply = storeReply(to: request)
      reply.body = reply.body.prefix(reply.body.count / 2)
      return .reply(reply)
    case .answerNotJSON?:
      var reply = storeReply(to: request)
      reply.headers["Content-Type"] = "text/plain; charset=utf-8"
      reply.body = Data("Done".utf8)
      return .reply(reply)
    case .offline?: return .offline
    case .timeout?: return .timeout
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
      return .notHTTP(storeReply(to: request))
    case .truncatedBody?:
      let reply = storeReply(to: request)
      return .truncated(reply, keeping: reply.body.count / 2)
    case .latency?, nil:
      return .reply(storeReply(to: request))
    }
  }

  /// The store's answer. A read is answered from a copy of the store taken under
  /// the lock (the records are copied on write, so the copy is cheap) and encoded
  /// outside it, so concurrent reads do not queue behind each other's JSON encoding.
  private func storeReply(to request: RecordedRequest) -> Reply {
    guard request.method == "GET" || request.method == "HEAD" else {
      return state.withLock { $0.store.reply(to: request) }
    }
    var snapshot = state.withLock { $0.store }
    return snapshot.reply(to: request)
  }
}
