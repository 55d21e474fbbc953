import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Answers the requests of a `FakeCatalogAPI.session` from the fake API.
///
/// URLSession calls `startLoading` and `stopLoading`, while the answer comes from
/// a task that waits on the API. Once `stopLoading` has run, the client must hear
/// nothing more from this request: a late callback reaches a task URLSession has
/// already finished. And the client is never called while this object holds its
/// lock: a client may call back into it, from the same thread or another.
///
/// How the answer reaches the client:
/// - On Apple platforms, on the thread that called `startLoading`, in the run-loop
///   mode it was called in, as Apple's URL loading system expects of a protocol
///   (its CustomHTTPProtocol sample calls this the client thread). `stopLoading`
///   comes on that thread too, so a delivery and a stop never overlap.
/// - On Linux, swift-corelibs-foundation calls `startLoading` on a dispatch queue
///   that runs no run loop, and its client accepts calls from any thread: the
///   answer is sent from the task's thread, and the `stopped` flag, read under the
///   lock before each callback (the call itself outside it), keeps a stopped
///   request silent. URLSession's `cancel()` there calls `stopLoading()` and then
///   the client's `didFailWithError` itself, from its own queue, after it checked
///   the task was running: an answer finishing meanwhile would end the task twice
///   (a crash in swift-corelibs-foundation's task registry, or a continuation
///   resumed twice), and a response or data arriving just after that ending
///   reaches a task the registry has already dropped (the same crash). So on Linux
///   `client` hands out a gate, `EndOnce`, through which every caller, URLSession
///   included, reaches the real client one call at a time: the first finish or
///   failure passes, and nothing after it. The gate holds its own lock, never the
///   state's, across the call: the real client only queues work and returns.
final class FakeCatalogURLProtocol: URLProtocol {
  private struct State {
    /// Set once by `stopLoading`.
    var stopped = false
    /// The task that answers.
    var work: Task<Void, Never>?
    /// An answer waiting for the client thread (Apple platforms).
    var pending: (outcome: FakeCatalogAPI.Outcome, url: URL)?
    /// Whether the client has been told the request ended, by a finish or a failure (Linux).
    var ended = false
  }

  private let state = Mutex(State())

  #if !canImport(Darwin)
    /// Makes the client's calls one at a time (Linux); see `throughGate`.
    private let clientCalls = NSRecursiveLock()
  #endif

  #if canImport(Darwin)
    /// The thread that called `startLoading`, when it was running its run loop,
    /// and the run-loop mode it ran in. `nonisolated(unsafe)`: set in
    /// `startLoading`, before the task that reads them starts, and never again.
    private nonisolated(unsafe) var clientThread: Thread?
    private nonisolated(unsafe) var clientModes: [String] = [RunLoop.Mode.default.rawValue]
  #endif

  override class func canInit(with request: URLRequest) -> Bool {
    FakeCatalogRegistry.isFakeHost(request.url)
  }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    let recorded = request.recorded()
    let this = Reference(self)
    #if canImport(Darwin)
      // Only a thread whose run loop is running can be sent work; elsewhere the
      // answer goes straight to the client, as on Linux.
      if let mode = RunLoop.current.currentMode {
        clientThread = Thread.current
        clientModes = [mode.rawValue]
      }
    #endif
    // The API is looked up inside the task, so this method, which runs on the
    // session's queue, never holds the last reference to it.
    let task = Task {
      guard let api = FakeCatalogRegistry.api(for: recorded.url) else {
        this.object.answer(.failure(URLError(.cannotFindHost)), for: recorded.url)
        return
      }
      this.object.answer(await api.handle(recorded), for: recorded.url)
    }
    state.withLock { $0.work = task }
  }

  override func stopLoading() {
    let task: Task<Void, Never>? = state.withLock { state in
      state.stopped = true
      state.pending = nil
      defer { state.work = nil }
      return state.work
    }
    task?.cancel()
  }

  /// Hands the answer to the client on the thread the client expects.
  private func answer(_ outcome: FakeCatalogAPI.Outcome, for url: URL) {
    #if canImport(Darwin)
      guard let thread = clientThread else {
        deliver(outcome, for: url)
        return
      }
      state.withLock { $0.pending = (outcome, url) }
      perform(#selector(deliverPending), on: thread, with: nil, waitUntilDone: false, modes: clientModes)
    #else
      deliver(outcome, for: url)
    #endif
  }

  #if canImport(Darwin)
    /// Runs on the client thread: sends the answer `answer` left, unless the request was stopped since.
    @objc private func deliverPending() {
      let pending = state.withLock { state in
        let pending = state.pending
        state.pending = nil
        return pending
      }
      guard let pending else { return }
      deliver(pending.outcome, for: pending.url)
    }
  #endif

  /// Sends `outcome` to the client, unless the request has been stopped.
  ///
  /// Never holds the lock while the client runs.
  func deliver(_ outcome: FakeCatalogAPI.Outcome, for url: URL) {
    // Checked before every callback: a client may stop the request from inside one.
    func send(_ callback: (any URLProtocolClient) -> Void) {
      guard !state.withLock({ $0.stopped }), let client else { return }
      callback(client)
    }
    switch outcome {
    case .failure(let error):
      send { $0.urlProtocol(self, didFailWithError: error) }
    case .reply(let reply):
      let response: URLResponse? =
        reply.isHTTP
        ? HTTPURLResponse(url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: reply.headers)
        : URLResponse(
          url: url, mimeType: "application/json", expectedContentLength: reply.body.count, textEncodingName: nil)
      guard let response else {
        send { $0.urlProtocol(self, didFailWithError: URLError(.badServerResponse)) }
        return
      }
      send { $0.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed) }
      send { $0.urlProtocol(self, didLoad: reply.body) }
      send { $0.urlProtocolDidFinishLoading(self) }
    }
  }

  #if !canImport(Darwin)
    override var client: (any URLProtocolClient)? {
      get { super.client.map { EndOnce(client: $0, owner: self) } }
      set { super.client = newValue }
    }

    /// Runs `call` unless the request has ended; `ending` marks it ended.
    ///
    /// One call at a time, checked and made under `clientCalls`: an ending from
    /// URLSession's queue waits for a response being delivered here, and nothing
    /// delivered after it. Recursive, in case a client calls back on its thread.
    fileprivate func throughGate(ending: Bool, _ call: () -> Void) {
      clientCalls.lock()
      defer { clientCalls.unlock() }
      let ended = state.withLock { state in
        defer { if ending { state.ended = true } }
        return state.ended
      }
      if !ended { call() }
    }

    /// The real client behind a gate: the first finish or failure passes, and
    /// nothing after it, whoever calls (this protocol, or URLSession's `cancel()`).
    ///
    /// `@unchecked Sendable`: it holds only lets; the owner's state is behind its Mutex.
    private final class EndOnce: NSObject, URLProtocolClient, @unchecked Sendable {
      let client: any URLProtocolClient
      let owner: FakeCatalogURLProtocol

      init(client: any URLProtocolClient, owner: FakeCatalogURLProtocol) {
        self.client = client
        self.owner = owner
      }

      func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
        owner.throughGate(ending: true) { client.urlProtocol(`protocol`, didFailWithError: error) }
      }

      func urlProtocolDidFinishLoading(_ protocol: URLProtocol) {
        owner.throughGate(ending: true) { client.urlProtocolDidFinishLoading(`protocol`) }
      }

      func urlProtocol(
        _ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy: URLCache.StoragePolicy
      ) {
        owner.throughGate(ending: false) {
          client.urlProtocol(`protocol`, didReceive: response, cacheStoragePolicy: cacheStoragePolicy)
        }
      }

      func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) {
        owner.throughGate(ending: false) { client.urlProtocol(`protocol`, didLoad: data) }
      }

      func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {
        owner.throughGate(ending: false) {
          client.urlProtocol(`protocol`, wasRedirectedTo: request, redirectResponse: redirectResponse)
        }
      }

      func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {
        owner.throughGate(ending: false) { client.urlProtocol(`protocol`, cachedResponseIsValid: cachedResponse) }
      }

      func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {
        client.urlProtocol(`protocol`, didReceive: challenge)
      }

      func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {
        client.urlProtocol(`protocol`, didCancel: challenge)
      }
    }
  #endif

  /// Carries the protocol object into the task that answers.
  ///
  /// `@unchecked Sendable`: URLProtocol is not `Sendable` on Apple platforms;
  /// the object's own state is guarded by its Mutex, and the client is called
  /// on the thread it expects (see the type's documentation).
  private struct Reference: @unchecked Sendable {
    let object: FakeCatalogURLProtocol
    init(_ object: FakeCatalogURLProtocol) { self.object = object }
  }
}
