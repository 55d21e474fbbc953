import Foundation

// Stage 01 starts here. This file is fine as it is: the bugs live in
// ProductListViewModel.swift. Docs/01-ViewCallsURLSession.md lists them.

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
