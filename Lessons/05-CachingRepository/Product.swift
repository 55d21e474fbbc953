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
}

/// One page of the catalog, as the list endpoint pages it.
nonisolated struct ProductPage: Sendable, Hashable {
  var products: [Product]
  /// How many products the catalog holds in all.
  var total: Int
  var skip: Int
  var limit: Int
}
