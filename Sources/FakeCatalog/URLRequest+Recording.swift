import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLRequest {
  /// The request as the fake API records it, with the whole body, which
  /// `URLSession` may hand over as a stream instead of `httpBody`.
  func recorded() -> RecordedRequest {
    var body = httpBody
    if body == nil, let stream = httpBodyStream {
      var data = Data()
      var buffer = [UInt8](repeating: 0, count: 4096)
      stream.open()
      while stream.hasBytesAvailable {
        let count = stream.read(&buffer, maxLength: buffer.count)
        guard count > 0 else { break }
        data.append(buffer, count: count)
      }
      stream.close()
      body = data
    }
    let method = httpMethod ?? "GET"
    let url = url ?? URL(fileURLWithPath: "/")
    return RecordedRequest(method: method, url: url, headers: allHTTPHeaderFields ?? [:], body: body)
  }
}
