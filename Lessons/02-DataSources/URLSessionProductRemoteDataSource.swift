import Foundation
import LessonSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real remote data source: the Catalog API over URLSession.
struct URLSessionProductRemoteDataSource: ProductRemoteDataSource {
  let baseURL: URL
  let session: URLSession

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    try await send(.products(limit: limit, skip: skip), as: ProductPageDTO.self).toDomain()
  }

  func product(id: Int) async throws -> Product {
    try await send(.product(id: id), as: ProductDTO.self).toDomain()
  }

  /// Sends the endpoint's request, checks the response, and decodes the body.
  private func send<Body: Decodable>(_ endpoint: Endpoint, as type: Body.Type) async throws -> Body {
    // TODO: Task 4. Build the request from the endpoint, send it through
    // `session`, turn URLError(.cancelled) into CancellationError() and other
    // URLErrors into .offline or .transport, refuse a response that is not HTTP,
    // turn a non-2xx status into .http(status:message:) with the body's
    // {"message": ...}, and decode with JSONDecoder.catalog(), turning a failure
    // into .decoding.
    throw NotDoneYet(
      "Task 4", in: "Docs/02-DataSources.md",
      "URLSessionProductRemoteDataSource should send \(endpoint.path) and decode \(type)")
  }
}

/// The Catalog API's error body: `{"message": "Product with id '999' not found"}`.
private struct ErrorBody: Decodable {
  let message: String
}
