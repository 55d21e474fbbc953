import Synchronization

/// Hands one changing value to any number of subscribers, each as its own `AsyncStream`.
///
/// Stage 07. A new subscriber gets the current value first, then every later
/// value, in order: each subscriber's buffer is unbounded, so nothing is
/// dropped, and a subscriber that stops reading holds memory until it reads or
/// stops. A value equal to the current one is not sent again. A subscriber that
/// stops (its task is cancelled, or it breaks out of its loop) is removed, and
/// `finish()` or the broadcast's end finishes every stream.
nonisolated final class ProductBroadcast<Value: Sendable & Equatable>: Sendable {
  private struct State {
    var current: Value?
    var subscribers: [Int: AsyncStream<Value>.Continuation] = [:]
    var nextID = 0
    var isFinished = false
  }

  private let state: Mutex<State>

  /// - Parameter initial: The value a subscriber gets first; `nil` until the first `publish(_:)`.
  init(_ initial: Value? = nil) {
    state = Mutex(State(current: initial))
  }

  deinit {
    finish()
  }

  /// The latest value, or `nil` when none was published yet.
  var current: Value? { state.withLock { $0.current } }

  /// How many subscribers are listening; a stopped one is not counted.
  var subscriberCount: Int { state.withLock { $0.subscribers.count } }

  // MARK: Task 1: broadcast every change

  /// A stream of the current value, when there is one, and then of every value published after it.
  ///
  /// After `finish()`, the stream is already finished.
  func subscribe() -> AsyncStream<Value> {
    // TODO: Task 1. Every change, to every subscriber, until it stops or the broadcast ends (Docs/07, Task 1).
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    continuation.finish()
    return stream
  }

  /// Sends `value` to every subscriber, unless it equals the current value.
  func publish(_ value: Value) {
    // TODO: Task 1. A new value reaches every subscriber once, in order (Docs/07, Task 1).
  }

  /// Finishes every subscriber's stream; later subscribers get a finished stream.
  func finish() {
    // TODO: Task 1. No stream outlives the broadcast (Docs/07, Task 1).
  }
}
