import Synchronization

@testable import Solution07

/// The catalog behind a switch on the device, for a service the demo can't take offline.
///
/// While the switch is on, every request fails as a refused connection does
/// (`CatalogError.offline`) without leaving the device.
final class SimulatedFlightMode: ProductSyncRemoteDataSource {
  private let wrapped: any ProductSyncRemoteDataSource
  private let isOn = Mutex(false)

  init(wrapping wrapped: any ProductSyncRemoteDataSource) {
    self.wrapped = wrapped
  }

  /// Turns flight mode on (`true`) or off.
  func set(_ on: Bool) { isOn.withLock { $0 = on } }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    try check()
    return try await wrapped.products(limit: limit, skip: skip)
  }

  func product(id: Int) async throws -> Product {
    try check()
    return try await wrapped.product(id: id)
  }

  func send(_ entry: OutboxEntry, idempotencyKey: String, baseVersion: String?) async throws -> WriteReceipt {
    try check()
    return try await wrapped.send(entry, idempotencyKey: idempotencyKey, baseVersion: baseVersion)
  }

  private func check() throws {
    if isOn.withLock({ $0 }) { throw CatalogError.offline }
  }
}
