import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `URLProtocol` that answers every request of its session in-process, with
/// an empty product page, and records the URL it was asked for.
///
/// It shows where code sends requests when no base URL is given, such as
/// `AppDependencies.live()` with its default, without reaching the internet:
/// its session claims every host, `https://dummyjson.com` included.
final class CatalogRequestRecorder: URLProtocol {
  /// Every URL requested through `makeSession()`'s sessions, oldest first.
  /// One test uses it, reading only what it added; a second test running at the
  /// same time would need its own recorder type.
  static var requestedURLs: [URL] { requested.withLock { $0 } }

  private static let requested = Mutex<[URL]>([])

  /// A session whose every request reaches this recorder and nothing else.
  static func makeSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [CatalogRequestRecorder.self]
    return URLSession(configuration: configuration)
  }

  override class func canInit(with request: URLRequest) -> Bool { true }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let url = request.url else {
      client?.urlProtocol(self, didFailWithError: URLError(.badURL))
      return
    }
    Self.requested.withLock { $0.append(url) }
    let body = Data(#"{"products": [], "total": 0, "skip": 0, "limit": 30}"#.utf8)
    guard
      let response = HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
    else {
      client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
      return
    }
    client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    client?.urlProtocol(self, didLoad: body)
    client?.urlProtocolDidFinishLoading(self)
  }

  override func stopLoading() {}
}
