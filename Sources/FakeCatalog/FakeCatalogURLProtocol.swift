import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Answers the requests of a `FakeCatalogAPI.session` from the fake API.
///
/// URLSession calls `startLoading` and `stopLoading` on its own queue, while
/// the answer comes from a task that waits on the API. Once `stopLoading` has
/// run, the client must hear nothing more from this request: a late callback
/// reaches a task URLSession has already finished. So one lock guards the
/// `stopped` flag and is held for the whole of a delivery: `stopLoading` either
/// runs before the delivery, which then sends nothing, or waits until it is over.
final class FakeCatalogURLProtocol: URLProtocol {
  /// Recursive, so a client that stops the request from inside one of its own
  /// callbacks, on the delivering thread, stops it instead of deadlocking.
  private let lock = NSRecursiveLock()
  /// Set once by `stopLoading`; guarded by `lock`.
  private var stopped = false
  /// The task that answers; guarded by `lock`.
  private var work: Task<Void, Never>?

  override class func canInit(with request: URLRequest) -> Bool {
    FakeCatalogRegistry.isFakeHost(request.url)
  }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    let recorded = request.recorded()
    let this = Reference(self)
    // The API is looked up inside the task, so this method, which runs on the
    // session's queue, never holds the last reference to it.
    let task = Task {
      guard let api = FakeCatalogRegistry.api(for: recorded.url) else {
        this.object.deliver(.failure(URLError(.cannotFindHost)), for: recorded.url)
        return
      }
      this.object.deliver(await api.handle(recorded), for: recorded.url)
    }
    lock.withLock { work = task }
  }

  override func stopLoading() {
    let task: Task<Void, Never>? = lock.withLock {
      stopped = true
      defer { work = nil }
      return work
    }
    task?.cancel()
  }

  /// Sends `outcome` to the client, unless the request has been stopped.
  func deliver(_ outcome: FakeCatalogAPI.Outcome, for url: URL) {
    lock.lock()
    defer { lock.unlock() }
    // Checked before every callback: a client may stop the request from inside one.
    func send(_ callback: (any URLProtocolClient) -> Void) {
      guard !stopped, let client else { return }
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

  /// Carries the protocol object into the task that answers.
  ///
  /// `@unchecked Sendable`: URLProtocol is not `Sendable` on Apple platforms;
  /// the object's own state is guarded by its lock, and URLSession's client
  /// accepts calls from any thread.
  private struct Reference: @unchecked Sendable {
    let object: FakeCatalogURLProtocol
    init(_ object: FakeCatalogURLProtocol) { self.object = object }
  }
}
