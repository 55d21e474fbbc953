import CourseFixtures
import Dispatch
import FakeCatalog
import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The fake Catalog API as a real HTTP/1.1 server on 127.0.0.1, for `course serve`
/// and for tests that need a real socket.
///
/// Every answer comes from a `CatalogResponder`, the same code that answers
/// `FakeCatalogAPI.session` in process; this type only carries requests and
/// answers over TCP. Another app can ride on the same sockets, parsing and
/// limits (`Configuration.application`, `course classroom`), and listen on an
/// address other than 127.0.0.1 (`Configuration.address`). One thread accepts connections; each connection gets a
/// thread of its own, which serves its requests one after another (keep-alive)
/// until the client closes it, it stays idle for `idleTimeout`, or a request is
/// refused. A request must arrive whole, head and body, within `requestTimeout`
/// of its first byte, however slowly it trickles in. At most `maxConnections`
/// are open at once: when a new one comes and the server is full, the one that
/// has waited longest without being answered (idle first, then one still
/// sending its request) is closed to make room, and when every one is being
/// answered, the new one gets 503 at once. So no number of slow or idle clients
/// keeps a normal request out.
///
/// ```swift
/// let server = CatalogServer(.init(port: 0))
/// try server.start()
/// defer { server.stop() }
/// server.responder.inject(.status(503), times: 1)
/// let (data, _) = try await URLSession.shared.data(from: server.baseURL.appending(path: "products"))
/// ```
public final class CatalogServer: Sendable {
  /// How the server starts.
  public struct Configuration: Sendable {
    /// The port; 0 picks a free one (read it from `port` after `start()`).
    public var port: UInt16
    /// The IPv4 address it listens on: 127.0.0.1, this machine only, unless told
    /// otherwise (`0.0.0.0` is every interface, such as a classroom's network).
    public var address: String
    /// What answers the requests: the Catalog API unless told otherwise.
    public var application: Application
    /// How long every answer waits.
    public var latency: Duration
    /// The probability that a request fails with 500, from 0 to 1.
    public var failRate: Double
    /// Start with connections refused.
    public var offline: Bool
    /// The records served.
    public var products: [JSONValue]
    /// Request size limits.
    public var limits: HTTPLimits
    /// How long a connection may wait for its next request, or for the rest of one, before it is closed.
    public var idleTimeout: Duration
    /// How long a request, head and body, may take to arrive from its first byte; then the connection is closed.
    public var requestTimeout: Duration
    /// How long a stalled answer waits for the client to give up before the server closes it.
    public var stallLimit: Duration
    /// How many connections may be open at once; past it the longest-waiting unanswered one
    /// is closed for the new one, or, when all are being answered, the new one gets 503.
    public var maxConnections: Int
    /// Hears each request, once it is over.
    public var log: @Sendable (RequestLogEntry) -> Void
    /// Hears what the server does by itself, such as coming back online after `offline 30`.
    public var notice: @Sendable (String) -> Void

    public init(
      port: UInt16 = 8080, latency: Duration = .zero, failRate: Double = 0, offline: Bool = false,
      products: [JSONValue] = ProductFixtures.records, limits: HTTPLimits = HTTPLimits(),
      idleTimeout: Duration = .seconds(15), requestTimeout: Duration = .seconds(10),
      stallLimit: Duration = .seconds(120), maxConnections: Int = 512,
      log: @escaping @Sendable (RequestLogEntry) -> Void = { _ in },
      notice: @escaping @Sendable (String) -> Void = { _ in },
      address: String = "127.0.0.1", application: Application = .catalog
    ) {
      self.port = port
      self.address = address
      self.application = application
      self.latency = latency
      self.failRate = failRate
      self.offline = offline
      self.products = products
      self.limits = limits
      self.idleTimeout = idleTimeout
      self.requestTimeout = requestTimeout
      self.stallLimit = stallLimit
      self.maxConnections = maxConnections
      self.log = log
      self.notice = notice
    }
  }

  /// What answers the requests a server reads.
  public enum Application: Sendable {
    /// The fake Catalog API, with its faults and `/__admin`: `course serve`.
    case catalog
    /// Another app on the same sockets, parsing and limits, such as `course
    /// classroom`: gets each whole request, head and body, and returns its reply.
    /// Latency, fail-rate, injected faults and `/__admin` do not apply to it.
    /// Called on the connection's own thread, from many connections at once.
    case custom(@Sendable (HTTPRequestHead, Data) -> Reply)
  }

  /// What an open connection is doing, for `offline` and for the connection cap.
  enum Phase: Equatable {
    /// Waiting for its next request (or its first) since then.
    case idle(since: ContinuousClock.Instant)
    /// Reading a request whose first bytes came then.
    case reading(since: ContinuousClock.Instant)
    /// Answering a request.
    case answering
  }

  struct State {
    var port: UInt16
    var latency: Duration
    var failRate: Double
    var offline: Bool
    /// Bumped by every change of `offline`, so a timed `offline 30` does not undo a later one.
    var offlineGeneration = 0
    var running = false
    var stopping = false
    /// Open connections by descriptor, and what each is doing.
    var connections: [Int32: Phase] = [:]
    /// Callers waiting for the accept thread to apply `offline`.
    var listenerWaiters: [DispatchSemaphore] = []
    var listenError: CatalogServerError?
  }

  /// Decides every answer; inject faults here.
  public let responder: CatalogResponder
  let configuration: Configuration
  let state: Mutex<State>
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let acceptExited = DispatchSemaphore(value: 0)

  /// Makes a server; nothing listens until `start()`.
  public init(_ configuration: Configuration = Configuration()) {
    precondition((0...1).contains(configuration.failRate), "failRate is a probability from 0 to 1")
    self.configuration = configuration
    self.responder = CatalogResponder(
      products: configuration.products, keepsRequests: false, sleep: { try await Task.sleep(for: $0) })
    self.state = Mutex(
      State(
        port: configuration.port, latency: configuration.latency, failRate: configuration.failRate,
        offline: configuration.offline))
    var pipeEnds: [Int32] = [0, 0]
    let made = pipe(&pipeEnds)
    precondition(made == 0, "pipe(2) failed: \(Socket.lastError())")
    wakeRead = pipeEnds[0]
    wakeWrite = pipeEnds[1]
  }

  deinit {
    close(wakeRead)
    close(wakeWrite)
  }

  // MARK: Starting and stopping

  /// The port it listens on, known once `start()` has returned.
  public var port: UInt16 { state.withLock { $0.port } }

  /// `http://127.0.0.1:PORT`, or the address it listens on when that is one
  /// machine's (not `0.0.0.0`).
  public var baseURL: URL {
    let host = configuration.address == "0.0.0.0" ? "127.0.0.1" : configuration.address
    guard let url = URL(string: "http://\(host):\(port)") else {
      preconditionFailure("http://\(host):\(port) is a valid URL")
    }
    return url
  }

  /// Binds its address and starts accepting connections (none, when configured offline).
  ///
  /// - Throws: `CatalogServerError.cannotListen` when the port is taken or the address is not this machine's.
  public func start() throws(CatalogServerError) {
    let listener = try Socket.listen(port: configuration.port, address: configuration.address)
    let offline = state.withLock { state in
      precondition(!state.running && !state.stopping, "start() is called once")
      state.port = listener.localPort
      state.running = true
      return state.offline
    }
    let handOver = Handover(offline ? nil : listener)
    let thread = Thread { [self] in acceptLoop(handOver) }
    thread.name = "CatalogServer accept"
    thread.start()
  }

  /// Stops accepting, closes every connection, and returns once the port is closed.
  ///
  /// Calling it again does nothing.
  public func stop() {
    let wasRunning = state.withLock { state in
      defer {
        state.running = false
        state.stopping = true
      }
      for descriptor in state.connections.keys { Socket.shutdown(descriptor: descriptor) }
      return state.running
    }
    guard wasRunning else { return }
    wake()
    acceptExited.wait()
  }

  /// Whether a server could listen on `port` at `address` now: `course doctor` asks.
  public static func canListen(port: UInt16, address: String = "127.0.0.1") -> Bool {
    (try? Socket.listen(port: port, address: address)) != nil
  }

  /// Runs `body` with a started server, and stops it afterwards, even when `body` throws.
  ///
  /// - Parameter configuration: How the server starts; port 0 (a free port) by default.
  public static func withRunning(
    _ configuration: Configuration = Configuration(port: 0),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (CatalogServer) async throws -> Void
  ) async throws {
    let server = CatalogServer(configuration)
    try server.start()
    defer { server.stop() }
    try await body(server)
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  // MARK: The accept thread

  /// Takes the listener out of `handOver`, so that setting `listener` to `nil` closes it.
  private func acceptLoop(_ handOver: Handover<Socket>) {
    var listener = handOver.take()
    while true {
      let (stopping, offline, waiters, port) = state.withLock { state in
        defer { state.listenerWaiters.removeAll() }
        return (state.stopping, state.offline, state.listenerWaiters, state.port)
      }
      if stopping {
        listener = nil
        for waiter in waiters { waiter.signal() }
        break
      }
      if offline && listener != nil {
        listener = nil
        // Idle keep-alive connections close now; busy ones after their answer.
        state.withLock { state in
          for (descriptor, phase) in state.connections {
            if case .idle = phase { Socket.shutdown(descriptor: descriptor) }
          }
        }
      } else if !offline && listener == nil {
        do {
          listener = try Socket.listen(port: port, address: configuration.address)
        } catch {
          state.withLock {
            $0.listenError = error
            $0.offline = true
          }
        }
      }
      for waiter in waiters { waiter.signal() }
      var entries = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
      if let listener { entries.append(pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)) }
      guard poll(&entries, nfds_t(entries.count), -1) >= 0 || errno == EINTR else { continue }
      if entries[0].revents != 0 {
        var drain = [UInt8](repeating: 0, count: 64)
        _ = read(wakeRead, &drain, drain.count)
      }
      if entries.count > 1, entries[1].revents != 0, let client = listener?.accept() {
        serve(client)
      }
    }
    acceptExited.signal()
  }

  private func serve(_ client: Socket) {
    let descriptor = client.descriptor
    let admitted = state.withLock { state -> Bool? in
      guard !state.stopping, !state.offline else { return nil }
      if state.connections.count >= configuration.maxConnections {
        guard let waiting = Self.longestWaiting(state.connections) else { return false }
        // Out of the registry at once, so the new one fits; its thread sees that and ends.
        state.connections.removeValue(forKey: waiting)
        Socket.shutdown(descriptor: waiting)
      }
      state.connections[descriptor] = .idle(since: .now)
      return true
    }
    guard let admitted else { return }
    guard admitted else {
      // Every connection is being answered: say so at once rather than leave the client waiting.
      var reply = Reply.message("Too many connections; try again in a moment", status: 503)
      reply.headers["Retry-After"] = "1"
      client.send(HTTPResponse.head(of: reply, keepAlive: false) + reply.body)
      return
    }
    let handOver = Handover(client)
    let thread = Thread { [self] in
      guard let socket = handOver.take() else { return }
      // The socket closes after it has left the registry, so `stop()` never shuts down a reused descriptor.
      withExtendedLifetime(socket) {
        Connection(server: self, socket: socket).run()
        _ = state.withLock { $0.connections.removeValue(forKey: descriptor) }
      }
    }
    thread.name = "CatalogServer connection"
    thread.start()
  }

  // MARK: Used by connections

  /// The connection that has waited longest without an answer: the oldest idle
  /// one, else the one that began its request earliest; `nil` when all are answering.
  static func longestWaiting(_ connections: [Int32: Phase]) -> Int32? {
    var idle: (Int32, ContinuousClock.Instant)?
    var reading: (Int32, ContinuousClock.Instant)?
    for (descriptor, phase) in connections {
      switch phase {
      case .idle(let since): if idle.map({ since < $0.1 }) ?? true { idle = (descriptor, since) }
      case .reading(let since): if reading.map({ since < $0.1 }) ?? true { reading = (descriptor, since) }
      case .answering: break
      }
    }
    return (idle ?? reading)?.0
  }

  /// Records what a connection is doing; `false` means it must close now: the
  /// server is offline or stopping, or it closed the connection to make room.
  func setPhase(_ descriptor: Int32, _ phase: Phase) -> Bool {
    state.withLock { state in
      guard state.connections[descriptor] != nil else { return false }
      state.connections[descriptor] = phase
      return !state.offline && !state.stopping
    }
  }

  var isStopping: Bool { state.withLock { $0.stopping } }

  /// The responder's answer, with any latency waited out on the connection's own
  /// thread, so answering never needs a thread of Swift's cooperative pool.
  func respond(to request: RecordedRequest) -> CatalogOutcome {
    let ambient: [Fault] = state.withLock { state in
      var faults: [Fault] = []
      if state.latency > .zero { faults.append(.latency(state.latency)) }
      if state.failRate > 0 && Double.random(in: 0..<1) < state.failRate {
        faults.append(.status(500, message: "Injected failure (fail-rate \(state.failRate))"))
      }
      return faults
    }
    let decision = responder.decide(request, adding: ambient)
    let deadline = ContinuousClock.now + decision.delay
    while ContinuousClock.now < deadline {
      guard !isStopping else {
        responder.abandon(decision)
        return .cancelled
      }
      Thread.sleep(forTimeInterval: min(0.05, Double((deadline - ContinuousClock.now) / .milliseconds(1)) / 1000))
    }
    return responder.outcome(of: decision)
  }

  // MARK: Offline and online

  /// Refuses or accepts connections, and returns once the listener has changed.
  ///
  /// - Returns: The error when listening again failed (the server then stays offline).
  @discardableResult
  func setOffline(_ offline: Bool) -> CatalogServerError? {
    let done = DispatchSemaphore(value: 0)
    let running = state.withLock { state in
      state.offline = offline
      state.offlineGeneration += 1
      state.listenError = nil
      guard state.running else { return false }
      state.listenerWaiters.append(done)
      return true
    }
    guard running else { return nil }
    wake()
    done.wait()
    return state.withLock { $0.listenError }
  }

  /// Comes back online after `seconds`, unless `offline` changed in between.
  func scheduleOnline(after seconds: Int) {
    let generation = state.withLock { $0.offlineGeneration }
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { [self] in
      guard state.withLock({ $0.offlineGeneration == generation && $0.running }) else { return }
      if let error = setOffline(false) {
        configuration.notice("Could not come back online: \(error)")
      } else {
        configuration.notice("Back online after \(seconds) s.")
      }
    }
  }
}

/// Hands a value to the thread that will own it.
///
/// `@unchecked Sendable`: the value is taken exactly once, by the new thread,
/// and the thread that made the handover never touches it again.
private final class Handover<Value>: @unchecked Sendable {
  private var value: Value?
  init(_ value: Value?) { self.value = value }
  func take() -> Value? {
    defer { value = nil }
    return value
  }
}
