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
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .unbounded)
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    // Set before the continuation is shared: a stream that ends at once still removes itself.
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }
    let isOpen = state.withLock { state in
      guard !state.isFinished else { return false }
      if let current = state.current { continuation.yield(current) }
      state.subscribers[id] = continuation
      return true
    }
    if !isOpen { continuation.finish() }
    return stream
  }

  /// Sends `value` to every subscriber, unless it equals the current value.
  func publish(_ value: Value) {
    state.withLock { state in
      guard !state.isFinished, state.current != value else { return }
      state.current = value
      // Under the lock, so two publishers' values reach every subscriber in the same order.
      for (id, continuation) in state.subscribers {
        if case .terminated = continuation.yield(value) { state.subscribers[id] = nil }
      }
    }
  }

  /// Finishes every subscriber's stream; later subscribers get a finished stream.
  func finish() {
    let continuations = state.withLock { state in
      state.isFinished = true
      defer { state.subscribers.removeAll() }
      return Array(state.subscribers.values)
    }
    // Outside the lock: finishing runs `onTermination`, which takes the lock.
    for continuation in continuations { continuation.finish() }
  }
}
