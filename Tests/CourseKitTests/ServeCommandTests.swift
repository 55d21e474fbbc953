import Foundation
import Synchronization
import Testing

@testable import CourseKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct ServeCommandTests {
  @Test(arguments: [
    (["serve"], ServeOptions()),
    (
      ["serve", "--port", "0", "--latency", "250", "--fail-rate", "0.2", "--offline"],
      {
        var options = ServeOptions()
        options.port = 0
        options.latencyMilliseconds = 250
        options.failRate = 0.2
        options.offline = true
        return options
      }()
    ),
    (
      ["serve", "--port=9090"],
      {
        var options = ServeOptions()
        options.port = 9090
        return options
      }()
    ),
  ])
  func parsesItsOptions(arguments: [String], expected: ServeOptions) throws {
    #expect(try Command.parse(arguments) == .serve(expected))
  }

  @Test(arguments: [
    ["serve", "--port", "http"], ["serve", "--port"], ["serve", "--latency", "-5"], ["serve", "--fail-rate", "2"],
    ["serve", "--offline=yes"], ["serve", "--fast"], ["serve", "now"],
  ])
  func refusesBadOptionsWithAUsageError(arguments: [String]) {
    #expect(throws: CourseError.self, "\(arguments) is a usage error") { try Command.parse(arguments) }
  }

  @Test func hasHelpThatListsEveryOptionAndCommand() throws {
    #expect(try Command.parse(["serve", "--help"]) == .help(topic: "serve"))
    let help = Command.helpText("serve")
    for word in ["--port N", "--latency MS", "--fail-rate P", "--offline", "latency MS", "/__admin", "refused"] {
      #expect(help.contains(word), "`course help serve` mentions \(word)")
    }
    #expect(Command.helpText(nil).contains("\n  serve "), "the overview lists serve")
  }

  /// Starts `course serve` on a free port, sends it a request and two typed
  /// lines, and stops it the way Ctrl-C does.
  @Test(.timeLimit(.minutes(1))) func servesUntilInterrupted() async throws {
    let output = Mutex("")
    let started = AsyncStream.makeStream(of: String.self)
    let interruption = Interruption()
    let course = Course(
      package: SwiftPackage(
        workspace: Workspace(root: FileManager.default.temporaryDirectory),
        runner: StubCommandRunner(answers: CannedRun.answer())),
      style: Style(colored: false), isTerminal: false,
      write: { text in
        output.withLock { $0 += text }
        if text.contains("Catalog API on ") { started.continuation.yield(text) }
      },
      interruption: interruption, pause: { Thread.sleep(forTimeInterval: $0 / 10) })
    var options = ServeOptions()
    options.port = 0
    let lines = Mutex(["latency 5", "bogus"])
    let input: @Sendable () -> String? = { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
    let status = Task.detached { course.serve(options, input: input) }

    var banners = started.stream.makeAsyncIterator()
    let banner = try #require(await banners.next())
    let base = try #require(banner.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") })
    let url = try #require(URL(string: base + "/products/1"))
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (_, response) = try await session.data(from: url)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)

    interruption.request()
    #expect(await status.value == 0, "Ctrl-C ends serve with status 0")
    let text = output.withLock { $0 }
    #expect(text.contains("curl "), "the banner shows a curl example")
    #expect(text.contains("GET /products/1 200 "), "each request is logged on one line:\n\(text)")
    #expect(text.contains("Every answer now waits 5 ms."), "a typed command is carried out:\n\(text)")
    #expect(text.contains("Unknown command bogus"), "a typo is answered, not fatal:\n\(text)")
    #expect(text.hasSuffix("Stopped.\n"))
  }
}
