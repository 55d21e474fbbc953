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
    1: "Decode the real dates",
    2: "Map the DTO to the domain",
    3: "Build requests from an Endpoint",
    4: "Fetch through the remote data source",
    5: "Keep products in the in-memory local source",
    6: "Point the view model at the protocol",
  ]
)

/// The error `body` throws, or `nil` when it returns: for tests that expect an error.
func thrownError<Value>(by body: () async throws -> Value) async -> (any Error)? {
  do {
    _ = try await body()
    return nil
  } catch {
    return error
  }
}

/// Whether `error` is `RemoteDataSourceError.invalidData`, with a message that names `field` if one is given.
func isInvalidData(_ error: (any Error)?, naming field: String? = nil) -> Bool {
  guard case .invalidData(let message)? = error as? RemoteDataSourceError else { return false }
  return field.map(message.contains) ?? true
}

/// The error to blame when mapping a DTO with this `updatedAt` failed with `error`:
/// `CatalogDate.parse`'s own "not done yet" when Task 1's stub is what the mapping
/// ran into (a `catch` in `toDomain()` may have turned it into `.invalidData`), else `error`.
func blamingTheDateStub(_ error: (any Error)?, updatedAt: String) -> (any Error)? {
  guard error != nil else { return nil }
  do {
    _ = try CatalogDate.parse(updatedAt)
    return error
  } catch let parseError {
    return unfinishedTask(in: parseError) == nil ? error : parseError
  }
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

extension ProductDTO {
  /// A DTO that maps, with one field changed by the caller.
  static func valid(
    id: Int = 7, title: String = "Lamp", price: Decimal = 12, discountPercentage: Double = 10, rating: Double = 4.5,
    stock: Int = 3, updatedAt: String = "2025-04-30T09:41:02.053Z"
  ) -> ProductDTO {
    ProductDTO(
      id: id, title: title, description: "A lamp", category: "home", price: price,
      discountPercentage: discountPercentage, rating: rating, stock: stock, brand: nil, thumbnail: nil,
      meta: Meta(updatedAt: updatedAt))
  }
}
