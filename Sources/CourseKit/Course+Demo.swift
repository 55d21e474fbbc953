import CourseDemo
import Dispatch
import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension Course {
  /// The longest the demo may run before it is stopped as stuck.
  static let demoTimeLimit: TimeInterval = 120

  /// `course demo`: runs the finished app's narrated script, then returns.
  ///
  /// Returns 0 when every step happened, 1 when one did not (or the demo ran past
  /// `demoTimeLimit`), and 130 once `interruption` is requested (Ctrl-C).
  func demo(_ options: DemoOptions) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let style = style
    let write = write
    let failure = Mutex<String?>(nil)
    let step = Mutex("the start")
    let finished = DispatchSemaphore(value: 0)
    let started = Date()
    let task = Task {
      defer { finished.signal() }
      let narrate: @Sendable (DemoEvent) -> Void = { event in
        if case .heading(let title) = event { step.withLock { $0 = title } }
        if let line = Self.demoLine(event, style: style) { write(line + "\n") }
      }
      do {
        if let baseURL = options.baseURL {
          try await CatalogDemo.run(baseURL: baseURL, narrate: narrate)
        } else {
          try await CatalogDemo.runEmbedded(narrate: narrate)
        }
      } catch is CancellationError {
        failure.withLock { $0 = "cancelled" }
      } catch {
        failure.withLock { $0 = "\(error)" }
      }
    }
    var timedOut = false
    // The demo's app is main-actor (its composition root and view model are), so
    // the main thread keeps its run loop turning while it waits: a semaphore wait
    // alone would hold the main actor, and the demo would never get past its start.
    while finished.wait(timeout: .now()) == .timedOut {
      RunLoop.main.run(until: Date().addingTimeInterval(0.05))
      if interruption.isRequested { task.cancel() }
      if !timedOut, Date().timeIntervalSince(started) > Self.demoTimeLimit {
        timedOut = true
        task.cancel()
      }
    }
    if interruption.isRequested {
      say(style.red("\(CourseError.interrupted)"))
      return 130
    }
    if timedOut {
      say(style.red("The demo ran past \(Int(Self.demoTimeLimit)) s and was stopped."))
      return 1
    }
    if let failure = failure.withLock({ $0 }) {
      say(style.red("The demo stopped at \(step.withLock { $0 }): \(failure)"))
      return 1
    }
    return 0
  }

  /// One event as the terminal shows it, or `nil` for a milestone, which only the tests read.
  static func demoLine(_ event: DemoEvent, style: Style) -> String? {
    switch event {
    case .heading(let text): "\n" + style.bold(text)
    case .say(let text): "  " + text
    case .row(let text): "    │ " + text
    case .syncStatus(let text):
      "  sync status: "
        + (text == "idle" ? style.green(text) : text.hasPrefix("syncing") ? style.yellow(text) : style.red(text))
    case .server(let text): "  " + style.dim("server: " + text)
    case .note(let text): style.yellow("Note: " + text)
    case .milestone: nil
    }
  }
}
