import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

let guide = StageGuide(
  doc: "Docs/02-DataSources.md",
  tasks: [
    1: "Fetch products from the Catalog API",
    2: "Turn every failure into a RemoteDataSourceError",
    3: "Read the API's timestamps, and only real ones",
    4: "Refuse what breaks the domain's rules",
    5: "Keep products in the in-memory local source",
    6: "Point the view model at the protocol",
    7: "Decode off the main actor",
  ]
)

/// The seam every remote test speaks to: the URLSession source, pointed at a fake Catalog API.
func source(for api: FakeCatalogAPI) -> URLSessionProductRemoteDataSource {
  URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session)
}

/// Whether `error` is `RemoteDataSourceError.invalidData`, with a message that names `field` if one is given.
func isInvalidData(_ error: (any Error)?, naming field: String? = nil) -> Bool {
  guard case .invalidData(let message)? = error as? RemoteDataSourceError else { return false }
  return field.map(message.contains) ?? true
}

// MARK: - Bodies the fake API sends

/// One product record as JSON text, valid unless a caller swaps in a field.
///
/// Every value is JSON text, as it goes on the wire: `title: #""""#` is an empty
/// title, `price: "-1"` a negative price. `brand` and `thumbnail` are left out when `nil`.
func record(
  id: Int = 7, title: String = #""Lamp""#, description: String = #""A lamp""#, category: String = #""home""#,
  price: String = "12", discountPercentage: String = "10", rating: String = "4.5", stock: String = "3",
  brand: String? = nil, thumbnail: String? = nil, updatedAt: String = "2025-04-30T09:41:02.053Z"
) -> String {
  var fields = [
    #""id": \#(id)"#, #""title": \#(title)"#, #""description": \#(description)"#, #""category": \#(category)"#,
    #""price": \#(price)"#, #""discountPercentage": \#(discountPercentage)"#, #""rating": \#(rating)"#,
    #""stock": \#(stock)"#, #""tags": ["lamp"], "reviews": [{"rating": 5, "comment": "Bright"}]"#,
    #""meta": {"createdAt": "2025-04-30T09:41:02.053Z", "updatedAt": "\#(updatedAt)"}"#,
  ]
  if let brand { fields.append(#""brand": \#(brand)"#) }
  if let thumbnail { fields.append(#""thumbnail": \#(thumbnail)"#) }
  return "{" + fields.joined(separator: ", ") + "}"
}

/// A list body: `{"products": [...], "total": N, "skip": N, "limit": N}`.
func page(_ records: [String], total: Int = 194, skip: Int = 0, limit: Int? = nil) -> String {
  #"{"products": [\#(records.joined(separator: ", "))], "total": \#(total), "skip": \#(skip), "limit": \#(limit ?? records.count)}"#
}

/// What `products(limit: 30, skip: 0)` gives when the list endpoint answers 200 with `body`.
func fetchPage(answering body: String) async -> Result<ProductPage, any Error> {
  let api = FakeCatalogAPI()
  api.inject(.body(body), on: .list)
  return await Result { try await source(for: api).products(limit: 30, skip: 0) }
}

/// What `product(id: 7)` gives when the product endpoint answers 200 with `body`.
func fetchProduct(answering body: String) async -> Result<Product, any Error> {
  let api = FakeCatalogAPI()
  api.inject(.body(body), on: .product)
  return await Result { try await source(for: api).product(id: 7) }
}

// MARK: - Which task a failure belongs to

/// Tasks 2 to 4 ride on Task 1: their checks mean something only once a valid
/// record comes through the source. The task a check of `number` reports, and
/// what its message says first: Task 1, with the reason, while the source cannot
/// fetch a valid page and a valid product; else `number`, with nothing to add.
func owner(of number: Int) async -> (task: Int, prefix: String) {
  let pageOutcome = await fetchPage(answering: page([record(id: 7)]))
  let productOutcome = await fetchProduct(answering: record(id: 7))
  let failure = pageOutcome.failure ?? productOutcome.failure
  guard let failure else {
    let ids = (try? pageOutcome.get())?.products.map(\.id) ?? []
    let id = (try? productOutcome.get())?.id
    guard ids == [7], id == 7 else {
      return (
        1, "Task 1 comes first: a valid page of product 7 gave \(ids) and product(id: 7) gave \(shown(id as Any)). "
      )
    }
    return (number, "")
  }
  // A stub's "not done yet": the check's own error names it, with the words for it.
  if let unfinished = unfinishedTask(in: failure), guide.tasks[unfinished] != nil { return (unfinished, "") }
  return (
    1, "Task 1 comes first: a valid record should come through the source, and it gave the error \(shown(failure)). "
  )
}

extension Product {
  static func sample(id: Int, title: String = "Sample", updatedAt: Date = Date(timeIntervalSince1970: 1_746_006_062))
    -> Product
  {
    Product(
      id: id, title: title, description: "", category: "test", price: 1, discountPercentage: 0, rating: 0,
      stock: 1, brand: nil, thumbnail: nil, updatedAt: updatedAt)
  }
}
