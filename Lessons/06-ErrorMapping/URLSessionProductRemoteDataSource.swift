import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real remote data source: the Catalog API over URLSession.
///
/// Stage 06: the boundary. Every failure leaves as a `CatalogError`, mapped by
/// the mapper it holds, or as `CancellationError`.
nonisolated struct URLSessionProductRemoteDataSource: ProductRemoteDataSource {
  let baseURL: URL
  let session: URLSession
  /// Stage 06: the wall-clock time, to measure a `Retry-After` given as a date
  /// when the answer has no `Date` header.
  let now: @Sendable () -> Date
  /// Stage 06: the boundary's tables, the composition root's mapper unless a test gives another.
  let mapper: any CatalogErrorMapping
  /// What reads the bodies: the catalog's decoder unless a test gives another.
  let decoder: JSONDecoder

  /// Makes the source for the catalog at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: Where the Catalog API lives.
  ///   - session: The session requests go through.
  ///   - now: The wall-clock time, for a `Retry-After` date when an answer has no `Date`.
  ///   - mapper: What turns each failure into a `CatalogError`: `AppDependencies.errorMapper()` by default.
  ///   - decoder: What reads the bodies: `JSONDecoder.catalog()` by default.
  init(
    baseURL: URL, session: URLSession, now: @escaping @Sendable () -> Date,
    mapper: any CatalogErrorMapping = AppDependencies.errorMapper(), decoder: JSONDecoder = .catalog()
  ) {
    self.baseURL = baseURL
    self.session = session
    self.now = now
    self.mapper = mapper
    self.decoder = decoder
  }

  /// `@concurrent`: the request, the decoding and the mapping run on the
  /// concurrent pool, never on the caller's actor, such as the main actor of a view model.
  @concurrent func products(limit: Int, skip: Int) async throws -> ProductPage {
    try await mappingErrors { try await send(.products(limit: limit, skip: skip), as: ProductPageDTO.self).toDomain() }
  }

  @concurrent func product(id: Int) async throws -> Product {
    try await mappingErrors { try await send(.product(id: id), as: ProductDTO.self).toDomain() }
  }

  /// Sends the endpoint's request, checks the response, and decodes the body.
  private func send<Body: Decodable>(_ endpoint: Endpoint, as type: Body.Type) async throws -> Body {
    let request = try endpoint.urlRequest(baseURL: baseURL)
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw RemoteDataSourceError.notHTTP }
    let retryAfter = http.value(forHTTPHeaderField: "Retry-After")
    // A Retry-After date is on the server's clock: measure it from the answer's Date, when it has one.
    let sentAt = http.value(forHTTPHeaderField: "Date").flatMap(HTTPDate.parse) ?? now()
    if let failure = mapper.map(status: http.statusCode, retryAfter: retryAfter, now: sentAt) {
      throw failure
    }
    if let failure = mapper.checkBody(data, contentType: http.value(forHTTPHeaderField: "Content-Type")) {
      throw failure
    }
    return try decoder.decode(Body.self, from: data)
  }

  /// Stage 06: runs `work` and maps whatever it throws. A task cancelled while
  /// its request failed is cancelled, whatever the failure was.
  private func mappingErrors<Value>(_ work: () async throws -> Value) async throws -> Value {
    do {
      return try await work()
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw try mapper.catalogError(from: error, now: now())
    }
  }
}
