import CourseSQLite
import Foundation

/// A product as the `products` table stores it: the storage shape, mapped to
/// and from the domain `Product`, which knows nothing of SQL.
///
/// Money is stored as decimal text ("9.99"), so any `Decimal` comes back exactly;
/// dates as the `Date`'s own `timeIntervalSinceReferenceDate`, so they come back
/// to the last bit.
nonisolated struct ProductRow: Equatable {
  var id: Int64
  var title: String
  var description: String
  var category: String
  var price: String
  var discountPercentage: Double
  var rating: Double
  var stock: Int64
  var brand: String?
  var thumbnail: String?
  var updatedAt: Double

  /// The columns in the order `values` binds them and `init(statement:)` reads them.
  static let columns =
    "id, title, description, category, price, discount_percentage, rating, stock, brand, thumbnail, updated_at"

  /// The row that stores `product`.
  init(_ product: Product) {
    id = Int64(product.id)
    title = product.title
    description = product.description
    category = product.category
    price = Self.decimalText(product.price)
    discountPercentage = product.discountPercentage
    rating = product.rating
    stock = Int64(product.stock)
    brand = product.brand
    thumbnail = product.thumbnail?.absoluteString
    updatedAt = product.updatedAt.timeIntervalSinceReferenceDate
  }

  /// Reads the current row of a statement that selected `columns`.
  init(statement: SQLiteStatement) {
    id = statement.int64(at: 0)
    title = statement.text(at: 1) ?? ""
    description = statement.text(at: 2) ?? ""
    category = statement.text(at: 3) ?? ""
    price = statement.text(at: 4) ?? ""
    discountPercentage = statement.double(at: 5)
    rating = statement.double(at: 6)
    stock = statement.int64(at: 7)
    brand = statement.text(at: 8)
    thumbnail = statement.text(at: 9)
    updatedAt = statement.double(at: 10)
  }

  /// The values to bind, in the order of `columns`.
  var values: [SQLiteValue] {
    [
      .integer(id), .text(title), .text(description), .text(category), .text(price),
      .real(discountPercentage), .real(rating), .integer(stock),
      brand.map(SQLiteValue.text) ?? .null, thumbnail.map(SQLiteValue.text) ?? .null, .real(updatedAt),
    ]
  }

  /// The domain product this row stores.
  ///
  /// - Throws: `LocalDataSourceError.corruptRow` when the price is not wholly a
  ///   decimal number such as `9.99`.
  func toDomain() throws -> Product {
    // Decimal(string:) reads a prefix ("12abc" gives 12), so the whole text is checked first.
    guard Self.isDecimalText(price), let money = Decimal(string: price) else {
      throw LocalDataSourceError.corruptRow(id: id, reason: "price \"\(price)\" is not a decimal number")
    }
    return Product(
      id: Int(id), title: title, description: description, category: category, price: money,
      discountPercentage: discountPercentage, rating: rating, stock: Int(stock), brand: brand,
      thumbnail: thumbnail.flatMap(URL.init(string:)),
      updatedAt: Date(timeIntervalSinceReferenceDate: updatedAt))
  }

  /// `value` as `Decimal.description` writes it ("9.99", "12", "0.05"), in a
  /// tenth of the time for an amount whose digits fit 53 bits and whose
  /// exponent is -19 or more, as prices are: swift-corelibs-foundation's
  /// `description` takes about 1.3 µs, most of a save's time beyond SQLite's own.
  /// Any other value, and NaN, goes through `description` itself.
  static func decimalText(_ value: Decimal) -> String {
    let fraction = -value.exponent
    guard value.isFinite, (0...19).contains(fraction) else { return value.description }
    // The digits as a whole number, 999 for 9.99; checked in Double, since a
    // significand past 64 bits does not fit `uint64Value`.
    let digits = NSDecimalNumber(decimal: value.significand)
    guard digits.doubleValue < 9_007_199_254_740_992 else { return value.description }
    var rest = digits.uint64Value
    guard rest > 0 else { return "0" }
    // Written from the last digit back, into a buffer on the stack.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
      var start = buffer.count
      func write(_ byte: UInt8) {
        start -= 1
        buffer[start] = byte
      }
      var written = 0
      while rest > 0 || written <= fraction {
        if written == fraction, fraction > 0 { write(UInt8(ascii: ".")) }
        write(UInt8(ascii: "0") + UInt8(rest % 10))
        rest /= 10
        written += 1
      }
      if value.sign == .minus { write(UInt8(ascii: "-")) }
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
    }
  }

  /// Whether `text` is what `Decimal.description` writes for an amount of 0 or
  /// more: digits, then optionally a point and more digits, and nothing else.
  static func isDecimalText(_ text: String) -> Bool {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
      !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
  }
}
