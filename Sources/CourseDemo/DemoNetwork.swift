import Foundation

@testable import Solution07

/// The network the demo breaks: the embedded `course serve`, or a real service behind a simulated switch.
protocol DemoNetwork: Sendable {
  /// Where the app sends its requests.
  var baseURL: URL { get }
  /// The remote the app's repository and sync engine use.
  var remote: any ProductSyncRemoteDataSource { get }
  /// Cuts the network and says how: as the server, or as the device.
  func goOffline() -> DemoEvent
  /// Restores the network and says how.
  func goOnline() -> DemoEvent
  /// The requests the server logged since the last call, once at least `expected` have arrived.
  func requests(expected: Int) async -> [String]
  /// The server's own copy of a product's title, when the demo can see the server.
  func serverTitle(id: Int) -> String?
  /// Sends a write again exactly as the sync engine sent it, and says whether the
  /// server answered from its idempotency record; `nil` when the demo can't tell.
  func repeatWrite(_ entry: OutboxEntry) async throws -> Bool?
}
