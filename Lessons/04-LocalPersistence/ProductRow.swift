import CourseSQLite
import Foundation
import LessonSupport

/// A product as the `products` table stores it: the storage shape, mapped to
/// and from the domain `Product`, which knows nothing of SQL.
///
/// Money is stored as decimal text ("9.99"), so any `Decimal` comes back exactly;
/// dates as the `Date`'s own `timeIntervalSinceReferenceDate`, so they come back
/// to the last bit.
struct ProductRow: Equatable {
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
  init(_ product: Product) throws {
    // TODO: Task 3. Copy each field; money as decimal text, the date as its
    // timeIntervalSinceReferenceDate, the thumbnail as its absoluteString.
    throw NotDoneYet("Task 3", in: "Docs/04-LocalPersistence.md", "ProductRow.init(_:) should map a Product to its row")
  }

  /// Reads the current row of a statement that selected `columns`.
  init(statement: SQLiteStatement) throws {
    // TODO: Task 3. Read the columns in the order of `columns`, counting from 0.
    throw NotDoneYet("Task 3", in: "Docs/04-LocalPersistence.md", "ProductRow.init(statement:) should read a row")
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
    // TODO: Task 3. Build the Product. A price that is not wholly digits, or digits,
    // a point and digits, throws LocalDataSourceError.corruptRow: Decimal(string:)
    // alone reads a prefix ("12abc" gives 12).
    throw NotDoneYet(
      "Task 3", in: "Docs/04-LocalPersistence.md", "ProductRow.toDomain() should map the row to a Product")
  }
}
