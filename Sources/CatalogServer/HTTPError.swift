/// A request the server refuses before it reaches the Catalog API: a status and why.
///
/// The server answers it with `{"message": reason}` and closes the connection,
/// because after a broken request it cannot tell where the next one starts.
public struct HTTPError: Error, Sendable, Equatable {
  /// 400, 413, 431, 501 or 505.
  public let status: Int
  /// What was wrong, for the client to read.
  public let reason: String

  static func badRequest(_ reason: String) -> HTTPError { HTTPError(status: 400, reason: reason) }
}
