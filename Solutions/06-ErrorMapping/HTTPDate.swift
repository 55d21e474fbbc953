import Foundation

/// Reads an HTTP-date, as in `Retry-After` and in a response's `Date`.
nonisolated enum HTTPDate {
  /// Parses the three forms of an HTTP-date (RFC 9110, section 5.6.7): the one
  /// servers send, `Thu, 01 Jan 2026 00:01:30 GMT`, and the obsolete RFC 850 and
  /// asctime forms; `nil` for any other text.
  static func parse(_ text: String) -> Date? {
    for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }
}
