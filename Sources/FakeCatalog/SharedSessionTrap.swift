import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Catches requests to a fake host that went through `URLSession.shared`.
///
/// Code that ignores the session it was given would otherwise try the real
/// network; the trap refuses at once with `URLError(.cannotConnectToHost)` and
/// records the request on its API, so a test can say which session was used.
///
/// ## When it must be registered
///
/// `URLSession.shared` never asks a session configuration for the trap; it
/// finds it only among the classes registered with `URLProtocol.registerClass`.
/// On Linux (swift-corelibs-foundation) that list is read in a way that fixes
/// the order for good:
/// - `URLSession.shared` copies the registered classes once, when it is first
///   used, and never looks again: a class registered later is never consulted;
/// - the first `URLSession` of any kind registers Foundation's own HTTP
///   protocol, and the copy is consulted in registration order, so a trap
///   registered after it comes too late to see an `https` request.
///
/// So the trap is registered before the process makes its first session:
/// `install()` runs first thing in `FakeCatalogAPI.init`, the first use of
/// anything in FakeCatalog that can send a request, before that API makes its
/// own session. Code that makes a `URLSession`, shared or not, before the test
/// has made any `FakeCatalogAPI` gets there first, and its requests to a fake
/// host then fail with "cannot find host" instead of being recorded here.
/// Apple's Foundation reads the registered classes at each request, newest first,
/// so there the order does not matter.
///
/// ## What it cannot catch on Apple platforms
///
/// swift-corelibs-foundation consults the registered classes for every session,
/// so on Linux the trap also catches a session the code made itself
/// (`URLSession(configuration: .default)`), and records it here as if it were
/// `URLSession.shared`. Apple's Foundation consults them for `URLSession.shared`
/// (and `NSURLConnection`) only: there such a request goes to the real DNS and
/// fails with `URLError(.cannotFindHost)` (`.test` never resolves), and neither
/// `FakeCatalogAPI.requests` nor `sharedSessionRequests` sees it. A test that
/// finds both empty after the code sent a request knows it went through a
/// session of the code's own, on either platform.
final class SharedSessionTrap: URLProtocol {
  /// Registers the trap once per process; every later call does nothing.
  static func install() {
    _ = registration
  }

  private static let registration: Void = {
    _ = URLProtocol.registerClass(SharedSessionTrap.self)
  }()

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
