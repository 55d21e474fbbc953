import Foundation

/// A change the user made on the device.
nonisolated enum ProductChange: Sendable, Hashable {
  /// A new product; the store gives it a temporary negative id until the catalog assigns one.
  case add(Product)
  /// New values for a product that exists.
  case update(Product)
  /// The product with this id goes away.
  case delete(id: Int)
}

/// One row of the outbox: a change waiting to reach the catalog.
nonisolated struct OutboxEntry: Sendable, Hashable {
  enum Kind: String, Sendable {
    case add, update, delete
  }

  /// Where the entry waits.
  enum State: Sendable, Hashable {
    /// It will be sent, after every entry before it.
    case pending
    /// The catalog refused it for good; `reason` says why. It is never sent again by itself.
    case setAside(reason: String)
  }

  /// The order the changes were made in: the order they are sent in.
  var sequence: Int
  /// Sent as the `Idempotency-Key` header on every attempt, so the catalog applies the change once.
  var idempotencyKey: String
  var kind: Kind
  /// The product's id; a temporary negative one for a product added on the device.
  var productID: Int
  /// The JSON body to send, as it was written when the change was made; `nil` for a delete.
  var body: Data?
  /// When the user made the change (the injected `now`), for a screen or a log; no conflict is decided by it.
  var editedAt: Date
  var state: State
  /// The catalog's version of the product the edit started from, sent as
  /// `If-Match` so the catalog can tell that its copy changed since (412);
  /// `nil` sends no `If-Match` (an add has no version). What an edit behind
  /// another waiting edit of the same product holds until that one is answered
  /// is yours (Docs/07, Task 5).
  var baseVersion: String? = nil

  /// The HTTP method the entry is sent with.
  var method: String {
    switch kind {
    case .add: "POST"
    case .update: "PUT"
    case .delete: "DELETE"
    }
  }
}

/// What the catalog answered to a write it applied (a 2xx).
nonisolated struct WriteReceipt: Sendable, Hashable {
  /// The product's id at the catalog: the id it gave an added product. An
  /// add's 2xx that does not say it is no receipt: the remote source throws
  /// `.connectionLost`, and the entry, sent again with its key, gets the catalog's kept answer.
  var id: Int
  /// The catalog's copy after the write, its `version` the answer's `ETag`;
  /// `nil` for a delete, or when the answer holds no product the app accepts
  /// (the write was applied all the same).
  var product: Product?
}

/// A product as a write's JSON body: the Catalog API's field names, without the id.
nonisolated struct ProductWriteBody: Encodable {
  struct Meta: Encodable {
    let updatedAt: String
  }

  let title: String
  let description: String
  let category: String
  let price: Decimal
  let discountPercentage: Double
  let rating: Double
  let stock: Int
  let brand: String?
  let thumbnail: String?
  let meta: Meta

  init(_ product: Product) {
    title = product.title
    description = product.description
    category = product.category
    price = product.price
    discountPercentage = product.discountPercentage
    rating = product.rating
    stock = product.stock
    brand = product.brand
    thumbnail = product.thumbnail?.absoluteString
    meta = Meta(updatedAt: Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(product.updatedAt))
  }

  /// The body's bytes; sorted keys, so the same product always gives the same bytes.
  static func data(for product: Product) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(ProductWriteBody(product))
  }
}
