import Foundation

/// A product as the app understands it: the domain type every layer above the
/// data layer uses. It knows nothing of JSON, URLs or SQL.
nonisolated struct Product: Sendable, Hashable, Identifiable {
  let id: Int
  var title: String
  var description: String
  var category: String
  /// Money, so `Decimal`: 9.99 stays exactly 9.99.
  var price: Decimal
  var discountPercentage: Double
  var rating: Double
  var stock: Int
  /// Missing on 92 of the 194 real records.
  var brand: String?
  var thumbnail: URL?
  var updatedAt: Date
  /// The catalog's version of this copy, as the catalog wrote it: a page's
  /// `meta.updatedAt`, or a write's `ETag`. Sent back as `If-Match`, never
  /// rebuilt from `updatedAt`. `nil` for a product the catalog has not seen yet.
  var version: String? = nil
}

/// One page of the catalog, as the list endpoint pages it.
nonisolated struct ProductPage: Sendable, Hashable {
  var products: [Product]
  /// How many products the catalog holds in all.
  var total: Int
  var skip: Int
  var limit: Int
}
