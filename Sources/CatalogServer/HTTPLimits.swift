/// How much of a request the server reads before it refuses it.
public struct HTTPLimits: Sendable, Equatable {
  /// The request line and headers together, blank line included: 431 past this.
  public var maxHeadBytes = 8 * 1024
  /// How many header fields a request may carry: 431 past this.
  public var maxHeaderCount = 100
  /// The body: 413 past this.
  public var maxBodyBytes = 1024 * 1024

  /// The limits `course serve` uses: an 8 KiB head, 100 header fields, a 1 MiB body.
  public init() {}
}
