import Foundation

/// A finished tool for Task 3: reads the shape of the Catalog API's timestamps,
/// such as `2025-04-30T09:41:02.053Z`, byte by byte.
///
/// `Date.ISO8601FormatStyle` cannot decide what is valid: on swift-foundation it
/// reads `2025-02-30` as March 2, hour 25 as the next day, and stops at the `Z`,
/// so `…02.053Zjunk` parses. Whether the numbers name a real moment, and what
/// happens when they do not, is Task 3 (Docs/02-DataSources.md).
nonisolated enum CatalogDate {
  /// The numbers of `yyyy-MM-ddTHH:mm:ss[.fraction]Z` (or `…+HH:MM`, `…-HH:MM`),
  /// in the Gregorian calendar and the text's offset from UTC, or `nil` when the
  /// text has any other shape.
  ///
  /// The numbers are not checked against the calendar: `2025-02-30T…` gives
  /// month 2, day 30. `DateComponents.isValidDate` says whether they exist.
  static func components(of text: String) -> DateComponents? {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }

    // 19 bytes of date and time, then "." and 1 to 9 digits or nothing, then "Z"
    // or an offset from UTC such as "+02:00" (ISO 8601 allows both; the real API sends "Z").
    var end = bytes.count
    var offset = 0
    if bytes.last == UInt8(ascii: "Z") {
      end -= 1
    } else {
      guard bytes.count >= 25, [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[bytes.count - 6]),
        bytes[bytes.count - 3] == UInt8(ascii: ":"),
        let hours = number((bytes.count - 5)..<(bytes.count - 3)), hours <= 23,
        let minutes = number((bytes.count - 2)..<bytes.count), minutes <= 59
      else { return nil }
      offset = (hours * 3600 + minutes * 60) * (bytes[bytes.count - 6] == UInt8(ascii: "-") ? -1 : 1)
      end -= 6
    }
    guard end == 19 || (21...29).contains(end) else { return nil }
    let separators: [(offset: Int, byte: Unicode.Scalar)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
    guard separators.allSatisfy({ bytes[$0.offset] == UInt8(ascii: $0.byte) }) else { return nil }

    var nanosecond = 0
    if end > 19 {
      let digits = 20..<end
      guard bytes[19] == UInt8(ascii: "."), let fraction = number(digits) else { return nil }
      nanosecond = fraction * (0..<(9 - digits.count)).reduce(1) { power, _ in power * 10 }
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
    else { return nil }
    return DateComponents(
      calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(secondsFromGMT: offset),
      year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
  }
}
