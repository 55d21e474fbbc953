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
class CatalogRequestRecorder: URLProtocol {
  /// Every URL requested through `makeSession()`'s sessions, oldest first.
  /// Each subclass keeps its own list. The ones that share a list run one after
  /// the other (a test and its own skip condition) and read only what they
  /// added; code that runs at the same time as them uses another subclass.
  class var requestedURLs: [URL] { log.urls }

  /// Where this class records; a subclass returns its own.
  class var log: RequestLog { .catalog }

  /// A session whose every request reaches this recorder and nothing else.
  class func makeSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [self]
    return URLSession(configuration: configuration)
  }

  override class func canInit(with request: URLRequest) -> Bool { true }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let url = request.url else {
      client?.urlProtocol(self, didFailWithError: URLError(.badURL))
      return
    }
    type(of: self).log.append(url)
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

/// The URLs one recorder class has seen.
final class RequestLog: Sendable {
  /// `CatalogRequestRecorder`'s.
  static let catalog = RequestLog()
  /// `WiringProbeRecorder`'s.
  static let wiringProbe = RequestLog()

  private let requested = Mutex<[URL]>([])

  /// Every URL recorded, oldest first.
  var urls: [URL] { requested.withLock { $0 } }

  func append(_ url: URL) {
    requested.withLock { $0.append(url) }
  }
}

/// The recorder `liveWiringRequestsTheCatalogThroughTheGivenSession` uses to see
/// where the live wiring sends a request, whatever the host, while
/// `liveWiringDefaultsToTheRealCatalog` may be using `CatalogRequestRecorder`.
final class WiringProbeRecorder: CatalogRequestRecorder {
  override class var log: RequestLog { .wiringProbe }
}
