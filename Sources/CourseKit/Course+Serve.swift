import CatalogServer
import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension Course {
  /// `course serve`: runs the Catalog API on 127.0.0.1 until Ctrl-C.
  ///
  /// Lines typed on standard input are instructor commands (`latency 500`);
  /// without a terminal, standard input may end at once and the server keeps running.
  /// Returns 0 once `interruption` is requested (Ctrl-C), after the port is closed.
  ///
  /// - Parameter input: Reads the next line an instructor typed; `nil` at the end of the input.
  func serve(_ options: ServeOptions, input: @escaping @Sendable () -> String? = { readLine() }) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let style = style
    let write = write
    let server = CatalogServer(
      CatalogServer.Configuration(
        port: options.port, latency: .milliseconds(options.latencyMilliseconds), failRate: options.failRate,
        offline: options.offline,
        log: { entry in write(Self.logLine(entry, style: style) + "\n") },
        notice: { text in write(style.dim(text) + "\n") }))
    do {
      try server.start()
    } catch {
      write(style.red("\(error)") + "\n")
      return 1
    }
    write(Self.banner(server: server, style: style))

    let reader = Thread {
      while let line = input() {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
        do throws(HTTPError) {
          write(server.perform(try ControlCommand.parse(line)) + "\n")
        } catch {
          write(style.yellow(error.reason) + "\n")
        }
      }
    }
    reader.start()
    // Ctrl-C (and SIGTERM, SIGHUP) reach `interruption`; see `Interruption.onSignals()`.
    while !interruption.isRequested { pause(0.1) }
    write("\nStopping…\n")
    server.stop()
    write("Stopped.\n")
    return 0
  }

  /// The first lines `course serve` prints: where it listens and what to try.
  static func banner(server: CatalogServer, style: Style) -> String {
    let base = server.baseURL.absoluteString
    return """
      \(style.bold("Catalog API on \(base)")) (127.0.0.1 only; the DummyJSON products contract)
      \(server.stateDescription.split(separator: "\n").joined(separator: " · "))

      Try:
        curl '\(base)/products?limit=2&skip=10'
        curl \(base)/products/1
        curl '\(base)/products/search?q=phone'
        curl -X POST \(base)/products/add -H 'Content-Type: application/json' -H 'Idempotency-Key: k1' -d '{"title":"Kettle"}'
        curl \(base)/articles          (the capstone's journal, newest first)
        curl -d 'latency 500' \(base)/__admin

      Type a command and press Enter to break the network (`help` lists them). Ctrl-C stops.

      """
  }

  /// One request: `GET /products?limit=2 200 1843 B 0.4 ms`, the status coloured on a terminal.
  static func logLine(_ entry: RequestLogEntry, style: Style) -> String {
    let line = entry.line
    guard let status = entry.status, style.colored else { return entry.status == nil ? style.red(line) : line }
    let text = "\(status)"
    let painted =
      switch status {
      case 200..<300: style.green(text)
      case 400..<500: style.yellow(text)
      default: style.red(text)
      }
    return line.replacingOccurrences(of: " \(text) ", with: " \(painted) ", options: [], range: nil)
  }
}
