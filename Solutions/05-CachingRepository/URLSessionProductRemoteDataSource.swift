import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real remote data source: the Catalog API over URLSession.
nonisolated struct URLSessionProductRemoteDataSource: ProductRemoteDataSource {
  let baseURL: URL
  let session: URLSession
  /// What reads the bodies: the catalog's decoder unless a test gives another.
  let decoder: JSONDecoder

  init(baseURL: URL, session: URLSession, decoder: JSONDecoder = .catalog()) {
    self.baseURL = baseURL
    self.session = session
    self.decoder = decoder
  }

  /// `@concurrent`: the request, the decoding and the mapping run on the
  /// concurrent pool, never on the caller's actor, such as the main actor of a view model.
  @concurrent func products(limit: Int, skip: Int) async throws -> ProductPage {
    try await send(.products(limit: limit, skip: skip), as: ProductPageDTO.self).toDomain()
  }

  @concurrent func product(id: Int) async throws -> Product {
    try await send(.product(id: id), as: ProductDTO.self).toDomain()
  }

  /// Sends the endpoint's request, checks the response, and decodes the body.
  private func send<Body: Decodable>(_ endpoint: Endpoint, as type: Body.Type) async throws -> Body {
    let request = try endpoint.urlRequest(baseURL: baseURL)
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: request)
    } catch let error as URLError where error.code == .cancelled {
      // The caller went away (a SwiftUI .task ended, a refresh was pulled again):
      // not a failure to show, so it stays Swift's own cancellation.
      throw CancellationError()
    } catch let error as URLError where error.code == .notConnectedToInternet {
      throw RemoteDataSourceError.offline
    } catch let error as URLError {
      throw RemoteDataSourceError.transport("URLError \(error.code.rawValue)")
    }
    guard let http = response as? HTTPURLResponse else { throw RemoteDataSourceError.notHTTP }
    guard (200..<300).contains(http.statusCode) else {
      let message = try? decoder.decode(ErrorBody.self, from: data).message
      throw RemoteDataSourceError.http(status: http.statusCode, message: message)
    }
    do {
      return try decoder.decode(Body.self, from: data)
    } catch {
      throw RemoteDataSourceError.decoding("\(error)")
    }
  }
}

/// The Catalog API's error body: `{"message": "Product with id '999' not found"}`.
nonisolated private struct ErrorBody: Decodable {
  let message: String
}
