import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// Task 1: an entry's age against its soft and hard limits, exactly at each
/// limit, one second before and one second after.
@Suite(.timeLimit(.minutes(1)))
struct MaxAgeTests {
  static let fetchedAt = Date(timeIntervalSince1970: 1_767_225_600)

  @Test(arguments: [
    (0.0, Freshness.fresh),
    (99, .fresh),
    (100, .stale),  // exactly the soft age: a refresh is due
    (101, .stale),
    (999, .stale),
    (1_000, .expired),  // exactly the hard age: never served
    (1_001, .expired),
    (86_400, .expired),
  ])
  func judgesAgesAtTheLimitsExactly(age: TimeInterval, expected: Freshness) {
    let maxAge = MaxAge(soft: 100, hard: 1_000)
    let judged = Result {
      try freshness(of: maxAge, fetchedAt: Self.fetchedAt, now: Self.fetchedAt.addingTimeInterval(age))
    }
    #expect(
      (try? judged.get()) == expected,
      guide.task(
        1,
        "with soft 100 s and hard 1,000 s, an entry \(age) s old is \(expected) (limits are exclusive: age == soft is stale, age == hard is expired), got \(judged)",
        blaming: judged)
    )
  }

  @Test func anEntryFromTheFutureIsStaleNotFresh() {
    let maxAge = MaxAge(soft: 100, hard: 1_000)
    let judged = Result {
      try freshness(of: maxAge, fetchedAt: Self.fetchedAt, now: Self.fetchedAt.addingTimeInterval(-1))
    }
    #expect(
      (try? judged.get()) == .stale,
      guide.task(
        1,
        "an entry fetched 1 s after now (the clock moved back) must not count as fresh: expected stale, got \(judged)",
        blaming: judged)
    )
  }

  @Test func fractionsOfASecondCount() {
    let maxAge = MaxAge(soft: 100, hard: 1_000)
    let judged = Result {
      (
        try freshness(of: maxAge, fetchedAt: Self.fetchedAt, now: Self.fetchedAt.addingTimeInterval(99.999)),
        try freshness(of: maxAge, fetchedAt: Self.fetchedAt, now: Self.fetchedAt.addingTimeInterval(999.999))
      )
    }
    let found = try? judged.get()
    #expect(
      found?.0 == .fresh && found?.1 == .stale,
      guide.task(
        1, "99.999 s old is still fresh and 999.999 s old still stale (compare seconds, don't round), got \(judged)",
        blaming: judged)
    )
  }

  @Test func aZeroMaxAgeServesNothing() {
    let never = MaxAge(soft: 0, hard: 0)
    let judged = Result {
      (
        try freshness(of: never, fetchedAt: Self.fetchedAt, now: Self.fetchedAt),
        try freshness(of: never, fetchedAt: Self.fetchedAt, now: Self.fetchedAt.addingTimeInterval(-60))
      )
    }
    #expect(
      (try? judged.get()).map { [$0.0, $0.1] } == [.expired, .expired],
      guide.task(
        1,
        "MaxAge(soft: 0, hard: 0) means never cache: an entry 0 s old and one fetched 60 s in the future are both expired (never cache wins over the future entry's stale), got \(judged)",
        blaming: judged)
    )
  }

  @Test func eachKindOfDataHasItsOwnAges() {
    let lifetimes = CacheLifetimes.standard
    let twoMinutes = Self.fetchedAt.addingTimeInterval(120)
    let judged = Result {
      (
        try freshness(of: lifetimes.list, fetchedAt: Self.fetchedAt, now: twoMinutes),
        try freshness(of: lifetimes.product, fetchedAt: Self.fetchedAt, now: twoMinutes)
      )
    }
    let found = try? judged.get()
    #expect(
      found?.0 == .fresh && found?.1 == .stale,
      guide.task(
        1,
        "2 minutes after fetching, the standard lifetimes keep the list fresh (soft 5 min) and the product stale (soft 1 min), got \(judged)",
        blaming: judged)
    )
  }
}
