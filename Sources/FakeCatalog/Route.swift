/// A kind of request the Catalog API understands, used to aim a fault.
public enum Route: String, Sendable, Hashable, CaseIterable {
  /// `GET /products?limit=&skip=`
  case list
  /// `GET /products/search?q=`
  case search
  /// `GET /products/{id}`
  case product
  /// `POST /products/add`
  case add
  /// `PUT` or `PATCH /products/{id}`
  case update
  /// `DELETE /products/{id}`
  case delete
  /// `GET /articles`: every article, newest first (the capstone's resource)
  case articles
  /// `GET /articles/{id}`
  case article
}
