/// A way the fake Catalog API can misbehave, injected by a test or an instructor.
///
/// Each case says what a client of `FakeCatalogAPI.session` sees; where a real
/// socket (`course serve`) shows it differently, the case says that too.
public enum Fault: Sendable, Hashable {
  /// Answers with this HTTP status and a DummyJSON error body `{"message": …}`.
  ///
  /// `headers` are added to the response, for example `["Retry-After": "3"]`.
  case status(Int, message: String = "Injected failure", headers: [String: String] = [:])
  /// Waits this long before answering (on the API's `TestClock` in process, on
  /// the real clock on a socket); other faults still apply.
  case latency(Duration)
  /// Answers 200 with a body that is not valid JSON (`{"products": [{"id": 1,`).
  case malformedBody
  /// Answers 200 with the first half of the real body, as a dropped connection would.
  ///
  /// On a socket the headers promise the whole body and the connection closes
  /// halfway through it, so the client sees a lost connection.
  case truncatedBody
  /// Answers 200 with an HTML page, as a captive portal or a proxy would.
  case nonJSONBody
  /// Answers 200 with this exact body, for shapes the other faults do not cover.
  case body(String)
  /// Answers with this HTTP status and this exact body, such as a proxy's HTML error page for a 502.
  case statusWithBody(Int, body: String)
  /// Answers with a plain `URLResponse` that is not HTTP, as a `file:` or `data:` URL would.
  ///
  /// On a socket the body arrives with no status line and no headers.
  case nonHTTPResponse
  /// Fails with `URLError(.notConnectedToInternet)`, as a device in flight mode does.
  ///
  /// On a socket the connection closes without an answer.
  case offline
  /// Applies the request (a write changes the records) and then drops the
  /// connection before the answer leaves: the client cannot tell whether the
  /// write happened. In process it fails with `URLError(.networkConnectionLost)`,
  /// as Apple's URLSession reports it.
  ///
  /// On a socket the connection closes without an answer, after the write was
  /// applied; swift-corelibs-foundation reports that as `URLError(.badServerResponse)`
  /// or `URLError(.unknown)`, Apple's URLSession as `.networkConnectionLost`.
  case answerLost
  /// Applies the request and answers with its real status and headers, but only
  /// the first half of its body, as a whole answer: its `Content-Length` says the
  /// short length, as a proxy or a server that cut the body would send it. The
  /// client gets a 2xx it can't read, for a write the catalog applied.
  ///
  /// Unlike `truncatedBody`, the answer looks complete on a socket too.
  case answerCut
  /// Applies the request and answers with its real status, but with a plain-text
  /// body (`Done`) instead of the JSON, as a server whose framework replaced the
  /// body would: a 2xx the client can't read, for a write the catalog applied.
  case answerNotJSON
  /// Fails with `URLError(.timedOut)`.
  ///
  /// On a socket the server never answers, so the client's own timeout fires.
  case timeout
}
