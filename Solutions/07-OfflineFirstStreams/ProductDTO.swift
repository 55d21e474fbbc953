import Foundation

/// A product as the Catalog API sends it. It lives in the data layer and never leaves it.
///
/// It declares only the fields the app uses; `JSONDecoder` skips the rest
/// (reviews, dimensions, images, …). Every field keeps the wire's type, so
/// decoding accepts anything of the right shape; `toDomain()` decides what is valid.
nonisolated struct ProductDTO: Decodable, Sendable {
  struct Meta: Decodable, Sendable {
    /// ISO 8601 text, such as `2025-04-30T09:41:02.053Z`; `toDomain()` reads it.
    let updatedAt: String
  }

  let id: Int
  let title: String
  let description: String
  let category: String
  /// The JSON number's own digits: `JSONDecoder` reads a `Decimal` from the text,
  /// never through `Double`, so 99999999999999.99 stays exactly that.
  let price: Decimal
  let discountPercentage: Double
  let rating: Double
  let stock: Int
  let brand: String?
  let thumbnail: String?
  let meta: Meta
}

/// The list endpoint's body: `{"products": [...], "total": N, "skip": N, "limit": N}`.
nonisolated struct ProductPageDTO: Decodable, Sendable {
  let products: [ProductDTO]
  let total: Int
  let skip: Int
  let limit: Int
}

nonisolated extension ProductDTO {
  /// Maps the wire shape to the domain type, refusing what the app cannot show.
  ///
  /// - Throws: `RemoteDataSourceError.invalidData` naming the product and the
  ///   field it refused: a blank title, a NUL in its text, a price that is not a finite amount of
  ///   at least 0, a negative stock, a discount outside 0–100, a rating outside
  ///   0–5, or an `updatedAt` that is not a real moment.
  func toDomain() throws -> Product {
    guard !title.allSatisfy(\.isWhitespace) else { throw refusal("title", "\"\(title)\" is blank") }
    // A NUL is valid JSON (\u0000) but no product's text: SQLite and C strings end at it.
    for (field, text) in [
      ("title", title), ("description", description), ("category", category), ("brand", brand ?? ""),
    ]
    where text.unicodeScalars.contains("\u{0}") {
      throw refusal(field, "holds a NUL character")
    }
    guard price.isFinite, price >= 0 else { throw refusal("price", "\(price) is not an amount of money") }
    guard stock >= 0 else { throw refusal("stock", "\(stock) is negative") }
    guard (0...100).contains(discountPercentage) else {
      throw refusal("discountPercentage", "\(discountPercentage) is outside 0–100")
    }
    guard (0...5).contains(rating) else { throw refusal("rating", "\(rating) is outside 0–5") }
    let updatedAt: Date
    do {
      updatedAt = try CatalogDate.parse(meta.updatedAt)
    } catch is RemoteDataSourceError {
      throw refusal("updatedAt", "\"\(meta.updatedAt)\" is not a real moment")
    }
    return Product(
      id: id,
      title: title,
      description: description,
      category: category,
      price: price,
      discountPercentage: discountPercentage,
      rating: rating,
      stock: stock,
      brand: brand,
      thumbnail: thumbnail.flatMap(URL.init(string:)),
      updatedAt: updatedAt,
      version: meta.updatedAt
    )
  }

  /// The error for one refused field of this product.
  private func refusal(_ field: String, _ reason: String) -> RemoteDataSourceError {
    .invalidData("product \(id): \(field) \(reason)")
  }
}

nonisolated extension ProductPageDTO {
  /// Maps the page and every product on it; one invalid product fails the page.
  ///
  /// A page past the end is a valid empty page: `skip` may exceed `total` when
  /// no products come back.
  /// - Throws: `RemoteDataSourceError.invalidData` naming the field: a negative
  ///   `total`, `skip` or `limit`; more products than `limit`; products beyond
  ///   `total`; an id that appears twice (the page is refused, not trimmed);
  ///   or the first product `ProductDTO.toDomain()` refuses.
  func toDomain() throws -> ProductPage {
    for (field, value) in [("total", total), ("skip", skip), ("limit", limit)] where value < 0 {
      throw RemoteDataSourceError.invalidData("page: \(field) \(value) is negative")
    }
    guard products.count <= limit else {
      throw RemoteDataSourceError.invalidData("page: limit \(limit) but \(products.count) products")
    }
    // Written as a subtraction: skip + products.count could overflow.
    guard products.isEmpty || skip <= total - products.count else {
      throw RemoteDataSourceError.invalidData(
        "page: skip \(skip) plus \(products.count) products is beyond total \(total)")
    }
    var seen = Set<Int>()
    for product in products where !seen.insert(product.id).inserted {
      throw RemoteDataSourceError.invalidData("page: products: id \(product.id) appears twice")
    }
    return ProductPage(products: try products.map { try $0.toDomain() }, total: total, skip: skip, limit: limit)
  }
}
