import CatalogServer
import CourseFixtures
import FakeCatalog
import Foundation
import Synchronization

@testable import Solution07

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The demo's network when it runs its own `course serve` on 127.0.0.1.
///
/// Offline is real: the server closes its port, and the app's requests are
/// refused as they would be with no route to the catalog.
final class EmbeddedCatalog: DemoNetwork {
  let server: CatalogServer
  let session: URLSession
  let remote: any ProductSyncRemoteDataSource
  private let log: RequestLog

  /// - Parameters:
  ///   - server: A started server.
  ///   - log: The server's request log, filled by its `log` callback.
  init(server: CatalogServer, log: RequestLog, session: URLSession) {
    self.server = server
    self.log = log
    self.session = session
    self.remote = URLSessionProductRemoteDataSource(baseURL: server.baseURL, session: session, now: { Date() })
  }

  var baseURL: URL { server.baseURL }

  func goOffline() -> DemoEvent { .server(server.perform(.offline(seconds: nil))) }

  func goOnline() -> DemoEvent { .server(server.perform(.online)) }

  /// The server logs a request once its answer is written, a moment after the
  /// client has read it; this waits up to a second for the `expected` lines.
  func requests(expected: Int) async -> [String] {
    for _ in 0..<200 where log.entries.withLock({ $0.count }) < expected {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return log.entries.withLock { entries in
      defer { entries.removeAll() }
      return entries.map(\.line)
    }
  }

  func serverTitle(id: Int) -> String? {
    server.responder.products.first { $0["id"] == .number(Double(id)) }?["title"]?.stringValue
  }

  func repeatWrite(_ entry: OutboxEntry) async throws -> Bool? {
    var request = URLRequest(url: baseURL.appending(path: "products/\(entry.productID)"))
    request.httpMethod = entry.method
    request.httpBody = entry.body
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(entry.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
    let (_, response) = try await session.data(for: request)
    return (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Idempotent-Replayed") == "true"
  }
}

/// The requests a server logged and nobody has read yet.
final class RequestLog: Sendable {
  let entries = Mutex<[RequestLogEntry]>([])

  func append(_ entry: RequestLogEntry) { entries.withLock { $0.append(entry) } }
}

/// The demo's network against a real Catalog API, such as https://dummyjson.com.
///
/// The demo can't take a public service offline, so offline is a switch on the
/// device (`SimulatedFlightMode`), and the server's side can't be shown.
final class RealCatalog: DemoNetwork {
  let baseURL: URL
  private let flightMode: SimulatedFlightMode

  init(baseURL: URL, session: URLSession) {
    self.baseURL = baseURL
    flightMode = SimulatedFlightMode(
      wrapping: URLSessionProductRemoteDataSource(baseURL: baseURL, session: session, now: { Date() }))
  }

  var remote: any ProductSyncRemoteDataSource { flightMode }

  func goOffline() -> DemoEvent {
    flightMode.set(true)
    return .say(
      "Flight mode on this device (simulated: \(baseURL.host ?? "the service") can't be switched off from here).")
  }

  func goOnline() -> DemoEvent {
    flightMode.set(false)
    return .say("Flight mode off.")
  }

  func requests(expected: Int) async -> [String] { [] }

  func serverTitle(id: Int) -> String? { nil }

  func repeatWrite(_ entry: OutboxEntry) async throws -> Bool? { nil }
}
