import Foundation

/// A product as the screen shows it, decoded straight from the API's JSON.
///
/// Stage 02 replaces this with a domain type and a separate DTO; for now the
/// view and the wire format share one struct, which is part of the problem.
nonisolated struct Product: Decodable, Identifiable, Equatable, Sendable {
  let id: Int
  let title: String
  let price: Double
  let thumbnail: String
}

/// The list page of the Catalog API: `{"products": [...], "total": N, "skip": N, "limit": N}`.
nonisolated struct ProductsResponse: Decodable {
  let products: [Product]
}

/// The Catalog API's error body: `{"message": "Product with id '999' not found"}`.
nonisolated struct APIMessage: Decodable {
  let message: String
}
