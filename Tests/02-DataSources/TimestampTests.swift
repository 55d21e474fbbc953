import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// Task 3: `meta.updatedAt` becomes a `Date` when it is a real moment in the
/// shape the API sends, and the record is refused, naming `updatedAt`, when it is not.
@Suite(.timeLimit(.minutes(1)))
struct TimestampTests {
  /// Expects a record stamped `text` to come through as `secondsSince1970`, within a microsecond.
  func expectReads(_ text: String, as secondsSince1970: Double, _ what: String) async {
    let outcome = await fetchProduct(answering: record(updatedAt: text))
    let seconds = (try? outcome.get())?.updatedAt.timeIntervalSince1970
    let read = seconds.map { abs($0 - secondsSince1970) < 0.000_001 } ?? false
    let (task, prefix) = read ? (3, "") : await owner(of: 3)
    #expect(
      read,
      guide.task(
        task,
        "\(prefix)\(what): a record stamped \"\(text)\" should come through with updatedAt \(secondsSince1970) s after 1970; got \(outcome.map { "updatedAt \($0.updatedAt.timeIntervalSince1970)" }.described)",
        blaming: outcome.failure))
  }

  @Test(arguments: [
    ("2025-04-30T09:41:02.053Z", 1_746_006_062.053), ("2025-04-30T09:41:02Z", 1_746_006_062.0),
    ("2025-04-30T09:41:02.5Z", 1_746_006_062.5), ("2025-04-30T09:41:02.123456789Z", 1_746_006_062.123_456_789),
  ])
  func readsEveryFractionOfASecond(text: String, secondsSince1970: Double) async {
    await expectReads(text, as: secondsSince1970, "none or 1 to 9 digits of fractional seconds are ISO 8601")
  }

  /// ISO 8601 allows an offset in place of the `Z`; another server or a proxy may send one.
  @Test(arguments: [
    ("2025-04-30T11:41:02.053+02:00", 1_746_006_062.053), ("2025-04-30T04:11:02-05:30", 1_746_006_062.0),
    ("2025-04-30T09:41:02+00:00", 1_746_006_062.0),
  ])
  func readsAnOffsetFromUTC(text: String, secondsSince1970: Double) async {
    await expectReads(text, as: secondsSince1970, "an offset is from UTC")
  }

  @Test func readsALeapDay() async {
    await expectReads("2024-02-29T00:00:00Z", as: 1_709_164_800, "2024 is a leap year")
  }

  /// Expects every record stamped with one of `texts` to be refused as invalidData naming updatedAt.
  func expectRefused(_ cases: [(text: String, problem: String)], _ rule: String) async {
    let (task, prefix) = await owner(of: 3)
    await guide.expectEvery(cases, task: task, "\(prefix)\(rule)") { text, problem in
      let outcome = await fetchProduct(answering: record(updatedAt: text))
      guard !isInvalidData(outcome.failure, naming: "updatedAt") else { return nil }
      return ("\(problem) gave \(outcome.map { "updatedAt \($0.updatedAt)" }.described)", outcome.failure)
    }
  }

  @Test func refusesTextThatIsNotATimestamp() async {
    let texts = [
      "30/04/2025", "", "2025-04-30", "yesterday", "2025-04-30T09:41:02.053Zjunk", " 2025-04-30T09:41:02Z",
      "2025-4-30T09:41:02Z", "2025-04-30T09:41:02+0200", "2025-04-30T09:41:02+24:00", "2025-04-30T09:41:02+02:60",
      "2025-04-30T09:41:02 +02:00", "2025-04-30T09:41:02.+02:00", "2025-04-30T09:41:02.1234567890Z",
    ]
    await expectRefused(
      texts.map { ($0, "\"\($0)\"") },
      "a record whose updatedAt is not shaped like 2025-04-30T09:41:02.053Z should be refused with RemoteDataSourceError.invalidData naming updatedAt"
    )
  }

  @Test func refusesNumbersThatNameNoMoment() async {
    await expectRefused(
      [
        ("2025-02-30T09:41:02.053Z", "February 30"), ("2025-02-29T09:41:02Z", "February 29 of 2025, not a leap year"),
        ("2025-04-31T09:41:02Z", "April 31"), ("2025-04-30T25:41:02Z", "hour 25"),
        ("2025-04-30T24:00:00Z", "hour 24"), ("2025-04-30T09:60:02Z", "minute 60"),
        ("2025-04-30T09:41:60Z", "second 60"), ("2025-13-01T09:41:02Z", "month 13"),
      ],
      "a record whose updatedAt names no real moment should be refused with RemoteDataSourceError.invalidData naming updatedAt; ISO8601FormatStyle and DateComponents.date roll such numbers over, DateComponents.isValidDate does not"
    )
  }
}
