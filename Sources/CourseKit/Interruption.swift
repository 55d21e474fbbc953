import Dispatch
import Foundation
import Synchronization

/// Whether the user asked `course` to stop, with Ctrl-C or a termination signal.
///
/// The commands `course` starts run in process groups of their own, so Ctrl-C
/// at the terminal reaches `course` alone. `course` turns the signal into a
/// request here; `ProcessCommandRunner` sees it, stops the build or test run it
/// is waiting for (its whole process group), and `course` exits with status 130.
public final class Interruption: Sendable {
  private let requested = Mutex(false)
  /// The signal sources that call `request()`, kept alive here.
  /// `nonisolated(unsafe)`: set once in `init`, never read or changed afterwards.
  private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

  /// Makes an interruption that only `request()` triggers.
  public convenience init() { self.init(sources: []) }

  private init(sources: [any DispatchSourceSignal]) { self.sources = sources }

  /// Asks every command running now or later to stop.
  public func request() { requested.withLock { $0 = true } }

  /// Whether `request()` has been called.
  public var isRequested: Bool { requested.withLock { $0 } }

  /// Makes an interruption that SIGINT, SIGTERM and SIGHUP trigger, instead of ending the process.
  ///
  /// Call it once, in the executable.
  public static func onSignals() -> Interruption {
    let sources = [SIGINT, SIGTERM, SIGHUP].map { number in
      signal(number, SIG_IGN)
      return DispatchSource.makeSignalSource(signal: number, queue: .global())
    }
    let interruption = Interruption(sources: sources)
    for source in sources {
      source.setEventHandler { interruption.request() }
      source.resume()
    }
    return interruption
  }
}
