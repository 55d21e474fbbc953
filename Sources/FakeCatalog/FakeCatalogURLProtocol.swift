import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Finds the `FakeCatalogAPI` behind a host, so concurrent tests stay apart.
enum FakeCatalogRegistry {
  private struct WeakAPI {
    weak var api: FakeCatalogAPI?
  }

  private static let state = Mutex<(next: Int, apis: [String: WeakAPI])>((0, [:]))

  /// The suffix every fake host ends with; `.test` never resolves on a real network.
  static let hostSuffix = ".test"

  static func makeHost() -> String {
    installSharedSessionTrap
    let number = state.withLock { state in
      state.next += 1
      return state.next
    }
    return "catalog-\(number)\(hostSuffix)"
  }

  static func register(_ api: FakeCatalogAPI, host: String) {
    state.withLock { $0.apis[host] = WeakAPI(api: api) }
  }

  static func unregister(host: String) {
    _ = state.withLock { $0.apis.removeValue(forKey: host) }
  }

  static func api(for url: URL?) -> FakeCatalogAPI? {
    guard let host = url?.host else { return nil }
    return state.withLock { $0.apis[host]?.api }
  }

  static func isFakeHost(_ url: URL?) -> Bool {
    guard let host = url?.host else { return false }
    return host.hasPrefix("catalog-") && host.hasSuffix(hostSuffix)
  }

  /// Registers the trap before any code can create `URLSession.shared`;
  /// swift-corelibs-foundation copies the registered classes when it does.
  private static let installSharedSessionTrap: Void = {
    _ = URLProtocol.registerClass(SharedSessionTrap.self)
  }()
}

/// Reads the whole body of a request, which `URLSession` may hand over as a stream.
extension URLRequest {
  fileprivate func recorded() -> RecordedRequest {
    var body = httpBody
    if body == nil, let stream = httpBodyStream {
      var data = Data()
      var buffer = [UInt8](repeating: 0, count: 4096)
      stream.open()
      while stream.hasBytesAvailable {
        let count = stream.read(&buffer, maxLength: buffer.count)
        guard count > 0 else { break }
        data.append(buffer, count: count)
      }
      stream.close()
      body = data
    }
    let method = httpMethod ?? "GET"
    let url = url ?? URL(fileURLWithPath: "/")
    return RecordedRequest(
      method: method,
      url: url,
      headers: allHTTPHeaderFields ?? [:],
      body: body,
      route: CatalogStore.route(method: method, path: url.path)
    )
  }
}

/// Answers the requests of a `FakeCatalogAPI.session` from the fake API.
///
/// URLSession calls `startLoading` and `stopLoading` on its own queue; the only
/// mutable state, the running task, sits behind a `Mutex`.
final class FakeCatalogURLProtocol: URLProtocol {
  private let work = Mutex<Task<Void, Never>?>(nil)

  override class func canInit(with request: URLRequest) -> Bool {
    FakeCatalogRegistry.isFakeHost(request.url)
  }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    let recorded = request.recorded()
    let this = Unchecked(value: self)
    // The API is looked up inside the task, so this method, which runs on the
    // session's queue, never holds the last reference to it.
    let task = Task {
      guard let api = FakeCatalogRegistry.api(for: recorded.url) else {
        this.value.deliver(.failure(URLError(.cannotFindHost)), for: recorded.url)
        return
      }
      let outcome = await api.handle(recorded)
      guard !Task.isCancelled else { return }
      this.value.deliver(outcome, for: recorded.url)
    }
    work.withLock { $0 = task }
  }

  override func stopLoading() {
    work.withLock { $0.take() }?.cancel()
  }

  private func deliver(_ outcome: FakeCatalogAPI.Outcome, for url: URL) {
    switch outcome {
    case .failure(let error):
      client?.urlProtocol(self, didFailWithError: error)
    case .reply(let reply) where !reply.isHTTP:
      let response = URLResponse(
        url: url, mimeType: "application/json", expectedContentLength: reply.body.count, textEncodingName: nil)
      client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
      client?.urlProtocol(self, didLoad: reply.body)
      client?.urlProtocolDidFinishLoading(self)
    case .reply(let reply):
      guard
        let response = HTTPURLResponse(
          url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: reply.headers)
      else {
        client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
        return
      }
      client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
      client?.urlProtocol(self, didLoad: reply.body)
      client?.urlProtocolDidFinishLoading(self)
    }
  }
}

/// `@unchecked Sendable`: carries the protocol object into the task that answers;
/// URLSession's client accepts calls from any thread, and `stopLoading` cancels the task.
private struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
}

/// Catches requests to a fake host that went through `URLSession.shared`.
///
/// Code that ignores the session it was given would otherwise try the real
/// network; the trap refuses at once and records the request on its API.
final class SharedSessionTrap: URLProtocol {
  override class func canInit(with request: URLRequest) -> Bool {
    FakeCatalogRegistry.isFakeHost(request.url)
  }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    let recorded = request.recorded()
    FakeCatalogRegistry.api(for: recorded.url)?.recordSharedSessionRequest(recorded)
    client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
  }

  override func stopLoading() {}
}
