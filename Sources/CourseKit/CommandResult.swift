/// What a finished command left behind.
public struct CommandResult: Sendable, Equatable {
  /// The exit status, or the signal number when a signal ended the process.
  public var status: Int32
  /// Standard output and standard error, interleaved as printed.
  public var output: String
  /// True when the runner stopped the command at its time limit.
  public var timedOut: Bool

  /// Makes a result from its parts.
  public init(status: Int32, output: String, timedOut: Bool = false) {
    self.status = status
    self.output = output
    self.timedOut = timedOut
  }
}
