import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Stage 07: the outbox's writes, over the same request path and error mapping as the reads.
nonisolated extension URLSessionProductRemoteDataSource: ProductSyncRemoteDataSource {
  /// Any answer, read only as far as it can be: a 2xx is applied whatever its body.
  ///
  /// A 2xx that can't be read (not JSON, or an add's answer without an id) is
  /// `.connectionLost`: sent again with the same key, the catalog answers with what it kept.
  private struct Answer: Decodable {
    let id: Int?
  }

  /// `@concurrent`, as the reads are: the answer is decoded off the caller's actor.
  @concurrent func send(_ entry: OutboxEntry, idempotencyKey: String, baseVersion: String?) async throws -> WriteReceipt
  {
    let path = entry.kind == .add ? "/products/add" : "/products/\(entry.productID)"
    let method: Endpoint.Method =
      switch entry.kind {
      case .add: .post
      case .update: .put
      case .delete: .delete
      }
    var headers = ["Idempotency-Key": idempotencyKey]
    // The version goes back as it came: quoted, as an entity tag is.
    if let baseVersion { headers["If-Match"] = "\"\(baseVersion)\"" }
    let endpoint = Endpoint(path: path, method: method, body: entry.body, headers: headers)
    return try await mappingErrors {
      let (data, http) = try await answer(to: endpoint)
      // An HTML page is a captive portal's, not the catalog's: the write did
      // not arrive (sent again later with the same key). Any other 2xx did.
      let mediaType = http.value(forHTTPHeaderField: "Content-Type")?.lowercased() ?? ""
      if data.first == UInt8(ascii: "<") || mediaType.hasPrefix("text/html") { throw CatalogError.offline }
      if entry.kind == .delete { return WriteReceipt(id: entry.productID, product: nil) }
      // The catalog applied the write: a body that is not a valid product is
      // still a receipt. Its id, if it can be read, still names an added product.
      if var product = try? decoder.decode(ProductDTO.self, from: data).toDomain() {
        if entry.kind == .add { try Self.checkCatalogID(product.id) }
        // The version is what the catalog said it is: the ETag's text, as sent.
        product.version = Self.entityTag(http.value(forHTTPHeaderField: "ETag")) ?? product.version
        return WriteReceipt(id: product.id, product: product)
      }
      // A body that is not JSON (cut short, or another format), or an add's answer
      // that names no id, did not arrive whole: the write was applied, but what it
      // became (an add's id, an update's version) is only in the answer. The entry
      // stays first in line, and sent again with the same key it gets the
      // catalog's kept answer: the key, not the title, says which product it is.
      guard let answer = try? decoder.decode(Answer.self, from: data) else {
        throw CatalogError.connectionLost
      }
      guard entry.kind == .add else { return WriteReceipt(id: entry.productID, product: nil) }
      guard let id = answer.id else { throw CatalogError.connectionLost }
      try Self.checkCatalogID(id)
      return WriteReceipt(id: id, product: nil)
    }
  }

  /// The text of an `ETag` header's entity tag: `"abc"` and `W/"abc"` are `abc`;
  /// `nil` for no header or one that is not an entity tag.
  static func entityTag(_ header: String?) -> String? {
    guard var text = header?.trimmingCharacters(in: .whitespaces) else { return nil }
    if text.hasPrefix("W/") { text.removeFirst(2) }
    guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return nil }
    return String(text.dropFirst().dropLast())
  }
}
