import Foundation

/// The 194 real product records of the DummyJSON products API, shipped as a resource.
///
/// The records come from `https://dummyjson.com/products` (MIT licence, see
/// `LICENSE-dummyjson.txt` beside `products.json`). They keep every quirk of the real
/// API: `meta.updatedAt` with fractional seconds, `brand` missing on 92 records,
/// prices as JSON numbers, and nested fields an app never needs.
public enum ProductFixtures {
  /// The raw bytes of `products.json`: a JSON array of product objects.
  public static let data: Data = BundledResource.data("products", "json")

  /// Every record as a JSON value, in the order of the real API (by id).
  public static let records: [JSONValue] = BundledResource.records(data, "products")

  /// The licence text that must travel with the records.
  public static let license = String(decoding: BundledResource.data("LICENSE-dummyjson", "txt"), as: UTF8.self)

  /// The record with the given id, if the fixture has one.
  public static func record(id: Int) -> JSONValue? {
    records.first { $0["id"] == .number(Double(id)) }
  }
}
