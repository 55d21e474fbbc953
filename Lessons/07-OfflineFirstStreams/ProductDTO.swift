import Foundation

/// A product as the Catalog API sends it. It lives in the data layer and never leaves it.
///
/// It declares only the fields the app uses; `JSONDecoder` skips the rest
/// (reviews, dimensions, images, …).
struct ProductDTO: Decodable, Sendable {
  struct Meta: Decodable, Sendable {
    let updatedAt: Date
  }

  let id: Int
  let title: String
  let description: String
  let category: String
  /// Decoded as the JSON number it is; `toDomain()` turns it into money.
  let price: Double
  let discountPercentage: Double
  let rating: Double
  let stock: Int
  let brand: String?
  let thumbnail: String?
  let meta: Meta
}

/// The list endpoint's body: `{"products": [...], "total": N, "skip": N, "limit": N}`.
struct ProductPageDTO: Decodable, Sendable {
  let products: [ProductDTO]
  let total: Int
  let skip: Int
  let limit: Int
}

extension ProductDTO {
  /// Maps the wire shape to the domain type, refusing what the app cannot show.
  ///
  /// - Throws: `RemoteDataSourceError.invalidData` for a price that is not a
  ///   non-negative amount.
  func toDomain() throws -> Product {
    // "\(19.99)" is the shortest text that reads back as the same Double: "19.99".
    // Decimal(19.99) carries the binary error: 19.98999999999999488.
    guard price.isFinite, price >= 0, let money = Decimal(string: "\(price)") else {
      throw RemoteDataSourceError.invalidData("product \(id) has the price \(price)")
    }
    return Product(
      id: id,
      title: title,
      description: description,
      category: category,
      price: money,
      discountPercentage: discountPercentage,
      rating: rating,
      stock: stock,
      brand: brand,
      thumbnail: thumbnail.flatMap(URL.init(string:)),
      updatedAt: meta.updatedAt
    )
  }
}

extension ProductPageDTO {
  /// Maps every product of the page; one invalid product fails the page.
  func toDomain() throws -> ProductPage {
    ProductPage(products: try products.map { try $0.toDomain() }, total: total, skip: skip, limit: limit)
  }
}
