/// A way the fake Catalog API can misbehave, injected by a test.
public enum Fault: Sendable, Hashable {
  /// Answers with this HTTP status and a DummyJSON error body `{"message": …}`.
  ///
  /// `headers` are added to the response, for example `["Retry-After": "3"]`.
  case status(Int, message: String = "Injected failure", headers: [String: String] = [:])
  /// Waits this long on the API's `TestClock` before answering; other faults still apply.
  case latency(Duration)
  /// Answers 200 with a body that is not valid JSON (`{"products": [{"id": 1,`).
  case malformedBody
  /// Answers 200 with the first half of the real body, as a dropped connection would.
  case truncatedBody
  /// Answers 200 with an HTML page, as a captive portal or a proxy would.
  case nonJSONBody
  /// Answers 200 with this exact body, for shapes the other faults do not cover.
  case body(String)
  /// Answers with this HTTP status and this exact body, such as a proxy's HTML error page for a 502.
  case statusWithBody(Int, body: String)
  /// Answers with a plain `URLResponse` that is not HTTP, as a `file:` or `data:` URL would.
  case nonHTTPResponse
  /// Fails with `URLError(.notConnectedToInternet)`, as a device in flight mode does.
  case offline
  /// Fails with `URLError(.timedOut)`.
  case timeout
}
