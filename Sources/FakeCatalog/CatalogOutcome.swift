/// What the Catalog API does with one request, before a transport carries it out.
///
/// `CatalogResponder` decides; each transport renders the decision its own way:
/// `FakeCatalogAPI` through its `URLProtocol`, in process, and `course serve`
/// (the CatalogServer module) over a real socket. The docs of each case say how.
public enum CatalogOutcome: Sendable {
  /// Answers with this reply.
  case reply(Reply)
  /// Promises the whole reply but delivers only its first `keeping` bytes of body.
  ///
  /// In process the client gets those bytes as a complete body; on a socket the
  /// headers announce the full `Content-Length` and the connection closes after
  /// `keeping` bytes, as a dropped connection would.
  case truncated(Reply, keeping: Int)
  /// Answers without HTTP: a plain `URLResponse` in process; on a socket, the
  /// body's bytes with no status line and no headers, then the connection closes.
  case notHTTP(Reply)
  /// No connection: `URLError(.notConnectedToInternet)` in process; on a socket,
  /// the connection closes without a byte of answer.
  case offline
  /// The request was applied, then the connection closed before its answer.
  case lost
  /// No answer at all: `URLError(.timedOut)` in process; on a socket, the
  /// connection stays open and silent until the client gives up.
  case timeout
  /// The request was cancelled while it waited on injected latency.
  case cancelled
}
