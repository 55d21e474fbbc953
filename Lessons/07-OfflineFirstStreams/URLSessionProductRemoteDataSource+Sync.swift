import Foundation

/// Stage 07: the outbox's writes, over the same request path and error mapping as the reads.
extension URLSessionProductRemoteDataSource: ProductSyncRemoteDataSource {
  /// Any JSON object; a delete's answer is read only for its status.
  private struct Ignored: Decodable {}

  func send(_ entry: OutboxEntry, idempotencyKey: String) async throws -> Product? {
    let path = entry.kind == .add ? "/products/add" : "/products/\(entry.productID)"
    let method: Endpoint.Method =
      switch entry.kind {
      case .add: .post
      case .update: .put
      case .delete: .delete
      }
    let endpoint = Endpoint(
      path: path, method: method, body: entry.body, headers: ["Idempotency-Key": idempotencyKey])
    return try await mappingErrors {
      if entry.kind == .delete {
        _ = try await send(endpoint, as: Ignored.self)
        return nil
      }
      return try await send(endpoint, as: ProductDTO.self).toDomain()
    }
  }
}
