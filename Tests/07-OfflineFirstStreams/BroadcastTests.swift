import CourseClock
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// Task 1: one value, any number of subscribers, every change, no repeats.
@Suite(.timeLimit(.minutes(1)))
struct BroadcastTests {
  @Test func aNewSubscriberGetsTheCurrentValueFirst() async {
    guard await requireBroadcastBasics() else { return }
    let broadcast = ProductBroadcast<Int>(1)
    var values = broadcast.subscribe().makeAsyncIterator()
    broadcast.publish(2)
    broadcast.finish()
    let first = await values.next()
    let second = await values.next()
    #expect(
      first == 1 && second == 2,
      guide.task(
        1,
        "expected the current value 1 first, then 2, got \(first.map(String.init) ?? "the end"), \(second.map(String.init) ?? "the end")"
      ))
  }

  @Test func twoSubscribersBothSeeEveryChangeInOrder() async {
    guard await requireBroadcastBasics() else { return }
    let broadcast = ProductBroadcast<Int>(0)
    let streams = [broadcast.subscribe(), broadcast.subscribe()]
    for value in 1...5 { broadcast.publish(value) }
    broadcast.finish()
    for (index, stream) in streams.enumerated() {
      var seen: [Int] = []
      for await value in stream { seen.append(value) }
      #expect(
        seen == [0, 1, 2, 3, 4, 5],
        guide.task(1, "expected subscriber \(index + 1) to get [0, 1, 2, 3, 4, 5] and then the end, got \(seen)"))
    }
  }

  @Test func aValueEqualToTheCurrentOneIsNotSentAgain() async {
    guard await requireBroadcastBasics() else { return }
    let broadcast = ProductBroadcast<Int>(1)
    let stream = broadcast.subscribe()
    for value in [1, 2, 2, 3, 3, 3, 1] { broadcast.publish(value) }
    broadcast.finish()
    var seen: [Int] = []
    for await value in stream { seen.append(value) }
    #expect(seen == [1, 2, 3, 1], guide.task(1, "expected [1, 2, 3, 1]: no value twice in a row, got \(seen)"))
  }

  @Test func aSubscriberWithoutAValueYetWaitsForTheFirst() async {
    guard await requireBroadcastBasics() else { return }
    let broadcast = ProductBroadcast<Int>()
    let stream = broadcast.subscribe()
    broadcast.publish(4)
    broadcast.finish()
    var seen: [Int] = []
    for await value in stream { seen.append(value) }
    #expect(
      seen == [4],
      guide.task(1, "expected a broadcast made without a value to start with the first one published, [4], got \(seen)")
    )
  }

  @Test func aSubscriberThatStopsIsRemoved() async {
    guard await requireBroadcastBasics() else { return }
    let broadcast = ProductBroadcast<Int>(0)
    let subscribed = AsyncStream.makeStream(of: Void.self)
    let reader = Task {
      defer { subscribed.continuation.finish() }  // A stream that ends at once never hangs the test.
      // The loop owns its stream: leaving the loop releases it before the task returns.
      for await value in broadcast.subscribe() {
        if value == 0 { subscribed.continuation.yield() }
        if value == 2 { return true }
      }
      return false
    }
    for await _ in subscribed.stream { break }
    let kept = broadcast.subscribe()
    let before = broadcast.subscriberCount
    for value in 1...3 { broadcast.publish(value) }
    guard await finishesOnItsOwn(reader, cancelling: true) else {
      Issue.record(
        guide.task(
          1, "expected a subscriber to get 1 and 2 after publish(1...3) and leave its loop; it was still waiting"))
      broadcast.finish()
      return
    }
    let sawTwo = await reader.value
    let after = broadcast.subscriberCount  // Before publishing again: a yield that answers .terminated removes it too.
    broadcast.publish(4)
    #expect(
      before == 2 && sawTwo && after == 1,
      guide.task(
        1,
        "expected 2 subscribers, then 1 as soon as one left its loop (its onTermination removes it, before any later publish), got \(before), then \(after)"
      ))
    broadcast.finish()
    var seen: [Int] = []
    for await value in kept { seen.append(value) }
    #expect(seen == [0, 1, 2, 3, 4], guide.task(1, "expected the other subscriber to keep every value, got \(seen)"))
  }

  @Test func aCancelledSubscriberIsRemoved() async {
    guard await requireBroadcastBasics() else { return }
    let broadcast = ProductBroadcast<Int>(0)
    let started = AsyncStream.makeStream(of: Void.self)
    let reader = Task {
      var values = broadcast.subscribe().makeAsyncIterator()
      let first = await values.next()
      started.continuation.yield()
      return (first, await values.next())
    }
    for await _ in started.stream { break }
    let during = broadcast.subscriberCount
    reader.cancel()
    guard await finishesOnItsOwn(reader, cancelling: true) else {
      Issue.record(guide.task(1, "expected a cancelled subscriber's next() to return nil; it was still waiting"))
      broadcast.finish()
      return
    }
    let (first, last) = await reader.value
    #expect(
      first == 0 && during == 1,
      guide.task(
        1,
        "expected the reader to get the current value 0 and be counted, got \(String(describing: first)) and \(during) subscribers"
      ))
    #expect(
      last == nil && broadcast.subscriberCount == 0,
      guide.task(
        1,
        "expected a cancelled subscriber's stream to end and the subscriber to be removed, got \(String(describing: last)) and \(broadcast.subscriberCount) subscribers"
      ))
  }

  @Test func finishEndsEveryStreamAndLaterSubscribersGetAFinishedOne() async {
    guard await requireBroadcastBasics() else { return }
    let broadcast = ProductBroadcast<Int>(1)
    let early = broadcast.subscribe()
    broadcast.finish()
    var seen: [Int] = []
    for await value in early { seen.append(value) }
    var late: [Int] = []
    for await value in broadcast.subscribe() { late.append(value) }
    #expect(
      seen == [1] && late.isEmpty && broadcast.subscriberCount == 0,
      guide.task(
        1,
        "expected finish() to end the stream after [1] and a later subscriber to get nothing, got \(seen) and \(late)"))
  }

  /// A screen that lets go of its store must not leave observers waiting: the
  /// broadcast's deinit finishes them, unless `onTermination` keeps it alive.
  @Test func aBroadcastThatGoesAwayFinishesItsStreams() async {
    guard await requireBroadcastBasics() else { return }
    var broadcast: ProductBroadcast<Int>? = ProductBroadcast(1)
    let reader = StreamReader(broadcast!.subscribe())
    defer { reader.cancel() }
    _ = await reader.waitFor(count: 1)
    broadcast = nil
    let ended = await reader.waitForEnd()
    #expect(
      ended,
      guide.task(
        1,
        "expected a broadcast nobody holds to go away and finish its subscribers' streams; the stream stayed open after \(reader.values): does onTermination capture self strongly? ([weak self] breaks the cycle)"
      ))
  }

  /// The doc promises every change to every subscriber (an unbounded buffer each).
  @Test func aHundredSubscribersGetAThousandChangesEach() async {
    guard await requireBroadcastBasics() else { return }
    let broadcast = ProductBroadcast<Int>(0)
    let streams = (0..<100).map { _ in broadcast.subscribe() }
    // Structured readers: the time limit's cancellation reaches them, so the suite never waits forever.
    let complete = await withTaskGroup(of: Bool.self) { group in
      for stream in streams {
        group.addTask {
          var count = 0
          var inOrder = true
          var last = -1
          for await value in stream {
            inOrder = inOrder && value == last + 1
            last = value
            count += 1
          }
          return count == 1_001 && inOrder
        }
      }
      for value in 1...1_000 { broadcast.publish(value) }
      broadcast.finish()
      var complete = 0
      for await gotEveryValue in group where gotEveryValue { complete += 1 }
      return complete
    }
    #expect(
      complete == 100,
      guide.task(
        1, "expected each of 100 subscribers to get all 1,001 values in order, \(complete) of 100 did"))
  }
}
