/// Something the caching repository noticed and did not throw, because the
/// caller got an answer anyway. The app logs it; tests check it.
enum CacheDiagnostic: Sendable {
  /// Reading the disk tier failed; the read counted as a miss.
  case readFailed(any Error)
  /// Writing a network answer to the disk tier failed; the answer was still returned.
  case writeFailed(any Error)
  /// A background refresh of a stale entry failed; the stale entry stays.
  case revalidationFailed(any Error)
}
