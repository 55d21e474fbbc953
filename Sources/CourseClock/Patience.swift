#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many times a test yields before it stops waiting for something that
/// needs no clock and no I/O: a value already published, a cancelled caller
/// leaving, a task with nothing left to wait for.
///
/// Never a duration: tests do not wait on real time. Code that works needs a
/// handful of turns; code that waits forever is given up on after these, about
/// 0.05 s on a 2-core machine, instead of a suite's one-minute time limit. No
/// test passes because of the bound; it only ends a wait that would never end.
public let patienceTurns = 10_000

/// Returns after `patienceTurns` yields, or as soon as the calling task is cancelled.
@Sendable public func runOutOfPatience() async {
  for _ in 0..<patienceTurns {
    if Task.isCancelled { return }
    await Task.yield()
  }
}

/// Whether `task` finishes within `patienceTurns` turns, needing nothing more from the test.
///
/// - Parameter cancelling: Cancel `task` when it does not finish, so nothing is left waiting.
public func finishesOnItsOwn<Success: Sendable, Failure: Error>(
  _ task: Task<Success, Failure>, cancelling: Bool = false
) async -> Bool {
  let finished = !(await waitFor(runOutOfPatience, unlessFinished: task))
  if !finished && cancelling { task.cancel() }
  return finished
}

/// The value of `check`, or `nil` when it has not finished after `rounds` times
/// `patienceTurns` turns, about 2 s on a 2-core machine by default: code that
/// waits forever.
///
/// For a test trait's condition, which runs before any test starts: a check that
/// never returned would hang the whole run before the test runner names a single
/// test. Working code finishes in a few milliseconds, far inside the bound; the
/// unfinished check is cancelled.
public func boundedCheck<Value: Sendable>(
  rounds: Int = 40, _ check: @escaping @Sendable () async -> Value
) async -> Value? {
  let task = Task { await check() }
  let gaveUp = await waitFor(
    {
      for _ in 0..<rounds where !Task.isCancelled { await runOutOfPatience() }
    }, unlessFinished: task)
  guard !gaveUp else {
    task.cancel()
    return nil
  }
  return await task.value
}

/// How long one test waits, in all, for something that needs I/O (a request to
/// the fake catalog through `URLSession`, a write to a database file) before it
/// gives up: a failure guard, never a pass condition.
///
/// Working code takes a few milliseconds; only code that never does what a test
/// waits for meets the limit. StageTesting's waits share it per test, so a test
/// that fails ends about this long after its first wait that fell short, and
/// `course` (which reads this constant) stops a whole suite only well after
/// that: it never calls a suite hung while its tests are inside their limits.
///
/// `course check` runs the learner's tests against each planted fault with
/// `COURSE_SAFETY_LIMIT=3`: there a wait that meets the limit has caught the
/// fault, and working code still answers in milliseconds, a thousand times
/// sooner. The variable can only shorten the limit.
public let safetyLimit: Duration = {
  guard let text = getenv(safetyLimitVariable).map({ String(cString: $0) }), let seconds = Double(text),
    seconds > 0, seconds < 10
  else { return .seconds(10) }
  return .milliseconds(Int(seconds * 1_000))
}()

/// The environment variable that shortens `safetyLimit`, in seconds.
public let safetyLimitVariable = "COURSE_SAFETY_LIMIT"
