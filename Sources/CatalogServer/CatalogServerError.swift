/// Why the server could not start or come back online.
public enum CatalogServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Binding or listening on `port` failed, with the system's reason.
  case cannotListen(port: UInt16, reason: String)

  public var description: String {
    switch self {
    case .cannotListen(let port, let reason):
      "Cannot listen on port \(port): \(reason). Is another server using the port? Try --port 0."
    }
  }
}
