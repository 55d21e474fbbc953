import CourseClock
import Testing

struct TestClockTests {
  @Test func sleeperWakesOnlyWhenTheDeadlineIsReached() async throws {
    let clock = TestClock()
    let task = Task { try await clock.sleep(for: .seconds(5)) }
    await clock.waitForSleepers(count: 1)
    clock.advance(by: .seconds(4))
    #expect(clock.sleeperCount == 1, "4 s of 5 s have passed: the sleeper must still wait")
    clock.advance(by: .seconds(1))
    try await task.value
    #expect(clock.sleeperCount == 0)
    #expect(clock.now.offset == .seconds(5))
  }

  @Test func sleepersWakeInDeadlineOrder() async throws {
    let clock = TestClock()
    let order = Order()
    let late = Task {
      try await clock.sleep(for: .seconds(3))
      await order.append("late")
    }
    let early = Task {
      try await clock.sleep(for: .seconds(1))
      await order.append("early")
    }
    await clock.waitForSleepers(count: 2)
    clock.advance(by: .seconds(1))
    try await early.value
    clock.advance(by: .seconds(2))
    try await late.value
    #expect(await order.items == ["early", "late"])
  }

  @Test func aPastDeadlineReturnsAtOnce() async throws {
    let clock = TestClock()
    clock.advance(by: .seconds(10))
    try await clock.sleep(until: .init(offset: .seconds(3)))
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellingASleeperThrowsCancellationError() async {
    let clock = TestClock()
    let task = Task { try await clock.sleep(for: .seconds(60)) }
    await clock.waitForSleepers(count: 1)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0, "a cancelled sleeper leaves the clock")
  }

  @Test func waitingStopsWhenTheTaskFinishesWithoutSleeping() async {
    let clock = TestClock()
    let task = Task { 42 }
    let registered = await clock.waitForSleepers(count: 1, whileRunning: task)
    #expect(!registered, "the task never slept, so waiting must give up instead of hanging")
  }

  @Test func waitingReportsSleepersOfARunningTask() async throws {
    let clock = TestClock()
    let task = Task { try await clock.sleep(for: .milliseconds(10)) }
    let registered = await clock.waitForSleepers(count: 1, whileRunning: task)
    #expect(registered)
    clock.advance(by: .milliseconds(10))
    try await task.value
  }

  @Test func worksAsAnyClock() async throws {
    let clock = TestClock()
    let generic: any Clock<Duration> = clock
    let task = Task { try await generic.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(count: 1)
    clock.advance(by: .seconds(1))
    try await task.value
  }
}

private actor Order {
  var items: [String] = []
  func append(_ item: String) { items.append(item) }
}
