import Synchronization

/// Waits for `event` unless `task` finishes first, so a test that waits for
/// something the code under test should do never hangs when the code does not do it.
///
/// `event` must return when its task is cancelled; it is cancelled once `task` wins.
/// - Returns: `true` when `event` returned first, `false` when `task` finished first.
public func waitFor<Success: Sendable, Failure: Error>(
  _ event: @escaping @Sendable () async -> Void,
  unlessFinished task: Task<Success, Failure>
) async -> Bool {
  let answer = Mutex<CheckedContinuation<Bool, Never>?>(nil)
  let resume: @Sendable (Bool) -> Void = { value in
    answer.withLock { $0.take() }?.resume(returning: value)
  }
  var watchers: [Task<Void, Never>] = []
  let happened = await withCheckedContinuation { continuation in
    answer.withLock { $0 = continuation }
    watchers = [
      Task {
        await event()
        resume(!Task.isCancelled)
      },
      Task {
        _ = await task.result
        resume(false)
      },
    ]
  }
  for watcher in watchers { watcher.cancel() }
  return happened
}
