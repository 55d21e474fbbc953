/// Something the caching repository noticed and did not throw, because the
/// caller got an answer anyway. The app logs it; tests check it.
nonisolated enum CacheDiagnostic: Sendable {
  /// Reading the disk tier failed; the read counted as a miss.
  case readFailed(any Error)
  /// Writing a network answer to the disk tier failed; the answer was still returned.
  case writeFailed(any Error)
  /// A background refresh of a stale entry failed; the stale entry stays.
  case revalidationFailed(any Error)
}

/// What the caching repository does besides answering: its background refreshes
/// and the callers sharing a network request. The app may log or count it; tests
/// wait on it instead of sleeping. The repository's default hears nothing.
nonisolated enum CacheActivity: Sendable, Equatable {
  /// A background refresh of `resource` started, and is in `revalidations`.
  case revalidationStarted(CachingProductRepository.Resource)
  /// The refresh of `resource` left `revalidations`: it refreshed, failed or was cancelled.
  case revalidationEnded(CachingProductRepository.Resource)
  /// This many callers now wait for a shared request of the list, in `listFlights`.
  case listCallersWaiting(Int)
  /// This many callers now wait for shared requests of products, in `productFlights`.
  case productCallersWaiting(Int)
}
