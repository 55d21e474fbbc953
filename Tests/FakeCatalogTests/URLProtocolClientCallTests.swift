import Dispatch
import Foundation
import Synchronization
import Testing

@testable import FakeCatalog

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The URL protocol calls its client as Apple's URL loading system asks: never
/// while it holds its own lock, so a client that calls back into it, from any
/// thread, never waits on it.
struct URLProtocolClientCallTests {
  /// A client that, on the response, stops the request from another thread and
  /// waits up to a second for that to return.
  final class StoppingClient: NSObject, URLProtocolClient, @unchecked Sendable {
    /// `@unchecked Sendable`: `loader` is set before the protocol delivers; the rest is behind the Mutex.
    var loader: FakeCatalogURLProtocol?
    private let log = Mutex<[String]>([])
    var events: [String] { log.withLock { $0 } }

    func urlProtocol(
      _ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy: URLCache.StoragePolicy
    ) {
      let stopped = DispatchSemaphore(value: 0)
      let loader = Loader(object: loader)
      Thread {
        loader.object?.stopLoading()
        stopped.signal()
      }.start()
      let returned = stopped.wait(timeout: .now() + 1) == .success
      log.withLock { $0.append(returned ? "response, stop returned" : "response, stop blocked") }
    }
    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) { log.withLock { $0.append("data") } }
    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) { log.withLock { $0.append("finish") } }
    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
      log.withLock { $0.append("failure") }
    }
    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {}
    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {}
    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {}
    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {}

    /// `@unchecked Sendable`: carries the protocol to the stopping thread, which only calls `stopLoading`.
    struct Loader: @unchecked Sendable {
      let object: FakeCatalogURLProtocol?
    }
  }

  @Test func aStopFromAnotherThreadDuringACallbackNeverWaitsOnTheProtocol() throws {
    let url = try #require(URL(string: "https://catalog-0.test/products/1"))
    let client = StoppingClient()
    let loader = FakeCatalogURLProtocol(request: URLRequest(url: url), cachedResponse: nil, client: client)
    client.loader = loader
    loader.deliver(.reply(Reply(status: 200, body: Data("{}".utf8))), for: url)
    #expect(
      client.events == ["response, stop returned"],
      "the client was called with the protocol's lock held, or heard more after the stop: \(client.events)")
  }
}
