/// Reads an HTTP/1.x request head out of the bytes received so far.
///
/// A pure function of its input, so any bytes at all can be fed to it (the
/// tests feed it random ones): it answers "need more", a checked head, or the
/// `HTTPError` to answer with. It never traps and never reads past `limits`.
public enum HTTPRequestParser {
  /// What the bytes so far amount to.
  public enum Result: Sendable, Equatable {
    /// The head is not complete yet, and nothing seen so far is wrong.
    case needMore
    /// A complete head; the body starts at `headLength`.
    case head(HTTPRequestHead, headLength: Int)
    /// A request to refuse.
    case failure(HTTPError)
  }

  private static let crlf: [UInt8] = [13, 10]

  /// Parses `bytes`, which start at the first byte of a request.
  public static func parse(_ bytes: ArraySlice<UInt8>, limits: HTTPLimits = HTTPLimits()) -> Result {
    let window = bytes.prefix(limits.maxHeadBytes)
    guard let end = endOfHead(in: window) else {
      // Refuse a broken request line as soon as it is complete, not 8 KiB later.
      if let lineEnd = firstIndex(of: crlf, in: window), case .failure(let error) = requestLine(window[..<lineEnd]) {
        return .failure(error)
      }
      if bytes.count >= limits.maxHeadBytes {
        return .failure(HTTPError(status: 431, reason: "Request head larger than \(limits.maxHeadBytes) bytes"))
      }
      return .needMore
    }
    switch head(window[window.startIndex..<end], limits: limits) {
    case .success(let head): return .head(head, headLength: end + 4 - bytes.startIndex)
    case .failure(let error): return .failure(error)
    }
  }

  /// The index of the blank line's `\r\n\r\n`, or `nil`.
  static func endOfHead(in bytes: ArraySlice<UInt8>) -> Int? {
    firstIndex(of: [13, 10, 13, 10], in: bytes)
  }

  private static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.count >= pattern.count else { return nil }
    var index = bytes.startIndex
    let last = bytes.endIndex - pattern.count
    while index <= last {
      if bytes[index] == pattern[0] && bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
      index += 1
    }
    return nil
  }

  private static func head(_ bytes: ArraySlice<UInt8>, limits: HTTPLimits) -> Swift.Result<HTTPRequestHead, HTTPError> {
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    while let end = firstIndex(of: crlf, in: bytes[start...]) {
      lines.append(bytes[start..<end])
      start = end + 2
    }
    lines.append(bytes[start...])
    guard case .success(var head) = requestLine(lines[0]) else {
      if case .failure(let error) = requestLine(lines[0]) { return .failure(error) }
      return .failure(.badRequest("Malformed request line"))
    }
    let fieldLines = lines.dropFirst()
    guard fieldLines.count <= limits.maxHeaderCount else {
      return .failure(HTTPError(status: 431, reason: "More than \(limits.maxHeaderCount) header fields"))
    }
    for line in fieldLines {
      switch field(line) {
      case .success(let field): head.fields.append(field)
      case .failure(let error): return .failure(error)
      }
    }
    if head.minorVersion >= 1 && head.field("Host") == nil {
      return .failure(.badRequest("An HTTP/1.1 request needs a Host header"))
    }
    if head.field("Transfer-Encoding") != nil {
      return .failure(HTTPError(status: 501, reason: "Transfer-Encoding is not supported; send Content-Length"))
    }
    let lengths = Set(head.fields.filter { $0.name.caseInsensitiveEquals("Content-Length") }.map(\.value))
    if let text = lengths.first {
      guard lengths.count == 1, !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }),
        let length = Int(text)
      else {
        return .failure(.badRequest("Invalid Content-Length"))
      }
      guard length <= limits.maxBodyBytes else {
        return .failure(HTTPError(status: 413, reason: "Request body larger than \(limits.maxBodyBytes) bytes"))
      }
      head.contentLength = length
    }
    return .success(head)
  }

  /// `METHOD SP origin-form SP HTTP/1.x`.
  private static func requestLine(_ line: ArraySlice<UInt8>) -> Swift.Result<HTTPRequestHead, HTTPError> {
    let parts = line.split(separator: 32, omittingEmptySubsequences: false)
    guard parts.count == 3 else { return .failure(.badRequest("Malformed request line")) }
    let method = parts[0]
    let target = parts[1]
    let version = parts[2]
    guard !method.isEmpty, method.allSatisfy(isTokenByte) else {
      return .failure(.badRequest("Malformed method"))
    }
    guard target.first == UInt8(ascii: "/"), target.allSatisfy({ (33...126).contains($0) }) else {
      return .failure(.badRequest("The request target must be a path such as /products"))
    }
    let prefix = Array("HTTP/1.".utf8)
    guard version.count == 8, version.prefix(7).elementsEqual(prefix), let minor = version.last else {
      if version.starts(with: Array("HTTP/".utf8)) {
        return .failure(HTTPError(status: 505, reason: "Only HTTP/1.0 and HTTP/1.1 are supported"))
      }
      return .failure(.badRequest("Malformed HTTP version"))
    }
    guard minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") else {
      return .failure(HTTPError(status: 505, reason: "Only HTTP/1.0 and HTTP/1.1 are supported"))
    }
    return .success(
      HTTPRequestHead(
        method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
        minorVersion: minor == UInt8(ascii: "1") ? 1 : 0, fields: [], contentLength: 0))
  }

  /// `name: value`, with no space before the colon and no line folding.
  private static func field(_ line: ArraySlice<UInt8>) -> Swift.Result<(name: String, value: String), HTTPError> {
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      return .failure(.badRequest("Malformed header field"))
    }
    let name = line[line.startIndex..<colon]
    guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
      return .failure(.badRequest("Malformed header field name"))
    }
    var value = line[(colon + 1)...]
    while let first = value.first, first == 32 || first == 9 { value = value.dropFirst() }
    while let last = value.last, last == 32 || last == 9 { value = value.dropLast() }
    // Visible characters, spaces, tabs and obs-text; no control characters.
    guard value.allSatisfy({ $0 == 9 || $0 >= 32 && $0 != 127 }) else {
      return .failure(.badRequest("Control character in header field \(String(decoding: name, as: UTF8.self))"))
    }
    return .success((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
  }

  /// RFC 9110 `tchar`.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
      UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      true
    default: false
    }
  }
}
