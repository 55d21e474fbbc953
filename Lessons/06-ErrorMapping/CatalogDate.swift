import Foundation

/// Reads the Catalog API's timestamps, such as `2025-04-30T09:41:02.053Z`.
///
/// `Date.ISO8601FormatStyle` cannot decide what is valid: on swift-foundation it
/// reads `2025-02-30` as March 2, hour 25 as the next day, and stops at the `Z`,
/// so `…02.053Zjunk` parses. Here the shape is read byte by byte, and the
/// Gregorian calendar decides whether the numbers name a real moment.
enum CatalogDate {
  /// Parses a UTC timestamp shaped `2025-04-30T09:41:02Z`, with or without 1 to 9
  /// digits of fractional seconds before the `Z`.
  ///
  /// - Throws: `RemoteDataSourceError.invalidData` for any other text, and for
  ///   numbers that name no real moment, such as February 30 or hour 25.
  static func parse(_ text: String) throws -> Date {
    guard let components = components(of: text), components.isValidDate, let date = components.date else {
      throw RemoteDataSourceError.invalidData("\"\(text)\" is not a real UTC time like 2025-04-30T09:41:02.053Z")
    }
    return date
  }

  /// The numbers of `yyyy-MM-ddTHH:mm:ss[.fraction]Z`, in the Gregorian calendar
  /// and UTC, or `nil` when the text has any other shape.
  ///
  /// The numbers are not checked against the calendar: `2025-02-30T…` gives
  /// month 2, day 30. `DateComponents.isValidDate` says whether they exist.
  static func components(of text: String) -> DateComponents? {
    let bytes = Array(text.utf8)
    // 19 bytes of date and time, then ".", 1 to 9 digits and "Z", or only "Z".
    guard bytes.count == 20 || (22...30).contains(bytes.count), bytes.last == UInt8(ascii: "Z") else { return nil }
    let separators: [(offset: Int, byte: Unicode.Scalar)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
    guard separators.allSatisfy({ bytes[$0.offset] == UInt8(ascii: $0.byte) }) else { return nil }

    /// The decimal number written in `range`, or `nil` unless every byte is an ASCII digit.
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }

    var nanosecond = 0
    if bytes.count > 20 {
      let digits = 20..<(bytes.count - 1)
      guard bytes[19] == UInt8(ascii: "."), let fraction = number(digits) else { return nil }
      nanosecond = fraction * (0..<(9 - digits.count)).reduce(1) { power, _ in power * 10 }
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
    else { return nil }
    return DateComponents(
      calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
      year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
  }
}
