import Foundation

/// The options of `course demo`, parsed.
public struct DemoOptions: Sendable, Equatable {
  /// The Catalog API to use; `nil` runs an embedded `course serve` on a free port.
  public var baseURL: URL?

  public init(baseURL: URL? = nil) {
    self.baseURL = baseURL
  }

  /// Parses the arguments after `demo`: `--base-url URL` or `--base-url=URL`.
  ///
  /// - Throws: `CourseError.usage` naming the option at fault.
  static func parse(_ arguments: [String]) throws(CourseError) -> DemoOptions {
    var options = DemoOptions()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.first == "--base-url" else {
        throw .usage(argument.hasPrefix("-") ? "Unknown option \(argument) for demo." : "demo takes no \(argument).")
      }
      guard let text = parts.count == 2 ? parts[1] : remaining.popFirst() else {
        throw .usage("--base-url needs a value: --base-url URL.")
      }
      guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
        throw .usage("--base-url takes an http or https URL, such as https://dummyjson.com, got \(text).")
      }
      options.baseURL = url
    }
    return options
  }

  /// `course help demo`.
  static let help = """
    USAGE: swift run course demo [--base-url URL]

    Runs the finished app of the last stage (Solution07) in the terminal and
    narrates it step by step, with the sync engine's status:
      1. load the first page of products through the store
      2. go offline: a refresh fails, the screen keeps the stored products, stale
      3. edit a product offline: on the screen at once, 1 change in the outbox
      4. come back online: syncing(pending: 1), then idle; the server applied the
         write once, and a repeat with the same Idempotency-Key is replayed
      5. refresh: the catalog sends the edited product back
    By default it starts its own `course serve` on a free port of 127.0.0.1
    and takes that server offline for real (connections refused). It needs no
    terminal and asks nothing: it runs to the end in under a second and exits 0,
    or 1 naming the step that went wrong. Colour only on a terminal, never with
    NO_COLOR. Ctrl-C stops it.

    OPTIONS:
      --base-url URL   Use a real Catalog API instead, such as
                       https://dummyjson.com. Offline is then simulated on the
                       device, and DummyJSON only simulates writes: the edit is
                       answered but not kept, so the refresh shows the old title.
      -h, --help       Show this help.
    """
}
