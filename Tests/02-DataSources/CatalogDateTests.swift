import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

@Suite(.timeLimit(.minutes(1)))
struct CatalogDateTests {
  @Test func readsMillisecondsAsTheRealAPISendsThem() async throws {
    let text = "2025-04-30T09:41:02.053Z"
    let date = try await guide.attempt(1, "CatalogDate.parse(\"\(text)\") should read the real API's timestamp") {
      try CatalogDate.parse(text)
    }
    // Within a microsecond: how a Foundation rounds .053 to binary is its own business.
    #expect(
      abs(date.timeIntervalSince1970 - 1_746_006_062.053) < 0.000_001,
      guide.task(
        1, "\"\(text)\" is 1746006062.053 s after 1970, to the millisecond; got \(date.timeIntervalSince1970)")
    )
  }

  @Test(arguments: [("2025-04-30T09:41:02Z", 1_746_006_062.0), ("2025-04-30T09:41:02.5Z", 1_746_006_062.5)])
  func readsOtherFractionsToo(text: String, secondsSince1970: Double) async throws {
    let date = try await guide.attempt(1, "CatalogDate.parse(\"\(text)\") should read a valid timestamp") {
      try CatalogDate.parse(text)
    }
    #expect(
      date.timeIntervalSince1970 == secondsSince1970,
      guide.task(1, "\"\(text)\" is \(secondsSince1970) s after 1970, got \(date.timeIntervalSince1970)")
    )
  }

  /// ISO 8601 allows an offset in place of the `Z`; another server or a proxy may send one.
  @Test(arguments: [
    ("2025-04-30T11:41:02.053+02:00", 1_746_006_062.053), ("2025-04-30T04:11:02-05:30", 1_746_006_062.0),
    ("2025-04-30T09:41:02+00:00", 1_746_006_062.0),
  ])
  func readsAnOffsetFromUTC(text: String, secondsSince1970: Double) async throws {
    let date = try await guide.attempt(1, "CatalogDate.parse(\"\(text)\") should read a timestamp with an offset") {
      try CatalogDate.parse(text)
    }
    #expect(
      abs(date.timeIntervalSince1970 - secondsSince1970) < 0.000_001,
      guide.task(
        1, "\"\(text)\" is \(secondsSince1970) s after 1970 (the offset is from UTC), got \(date.timeIntervalSince1970)"
      )
    )
  }

  @Test func readsALeapDay() async throws {
    let date = try await guide.attempt(1, "2024 is a leap year: CatalogDate.parse should read February 29") {
      try CatalogDate.parse("2024-02-29T00:00:00Z")
    }
    #expect(
      date.timeIntervalSince1970 == 1_709_164_800,
      guide.task(1, "2024-02-29T00:00:00Z is 1709164800 s after 1970, got \(date.timeIntervalSince1970)"))
  }

  @Test func refusesTextThatIsNotATimestamp() async {
    let texts = [
      "30/04/2025", "", "2025-04-30", "yesterday", "2025-04-30T09:41:02.053Zjunk", " 2025-04-30T09:41:02Z",
      "2025-4-30T09:41:02Z", "2025-04-30T09:41:02+0200", "2025-04-30T09:41:02+24:00", "2025-04-30T09:41:02+02:60",
      "2025-04-30T09:41:02 +02:00", "2025-04-30T09:41:02.+02:00",
    ]
    await guide.expectEvery(
      texts, task: 1, "text not shaped like 2025-04-30T09:41:02.053Z should throw RemoteDataSourceError.invalidData"
    ) { text in
      let outcome = Result { try CatalogDate.parse(text) }
      return isInvalidData(outcome.failure) ? nil : ("\"\(text)\" gave \(outcome.described)", outcome.failure)
    }
  }

  @Test func refusesNumbersThatNameNoMoment() async {
    let impossible = [
      ("2025-02-30T09:41:02.053Z", "February 30"), ("2025-02-29T09:41:02Z", "February 29 of 2025, not a leap year"),
      ("2025-04-31T09:41:02Z", "April 31"), ("2025-04-30T25:41:02Z", "hour 25"), ("2025-04-30T24:00:00Z", "hour 24"),
      ("2025-04-30T09:60:02Z", "minute 60"), ("2025-04-30T09:41:60Z", "second 60"),
      ("2025-13-01T09:41:02Z", "month 13"),
    ]
    await guide.expectEvery(
      impossible, task: 1,
      "numbers that name no real moment should throw RemoteDataSourceError.invalidData; ISO8601FormatStyle and DateComponents.date roll them over, DateComponents.isValidDate does not"
    ) { text, problem in
      let outcome = Result { try CatalogDate.parse(text) }
      return isInvalidData(outcome.failure) ? nil : ("\(problem) gave \(outcome.described)", outcome.failure)
    }
  }
}
