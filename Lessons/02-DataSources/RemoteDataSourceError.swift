/// What can go wrong while talking to the Catalog API, in the data layer's words.
///
/// Callers above the data layer see these, never a `URLError` or a `DecodingError`.
nonisolated enum RemoteDataSourceError: Error, Sendable, Equatable {
  /// The request could not be built from the endpoint.
  case invalidRequest(String)
  /// The answer was not an HTTP response.
  case notHTTP
  /// The server answered with a status outside 200–299 and, usually, a message.
  case http(status: Int, message: String?)
  /// The body was not the JSON the endpoint promises.
  case decoding(String)
  /// The JSON decoded but holds a value the app refuses, such as a negative price.
  case invalidData(String)
  /// The device has no connection.
  case offline
  /// The request failed on the way: a timeout, a lost connection, a bad host.
  case transport(String)
}
