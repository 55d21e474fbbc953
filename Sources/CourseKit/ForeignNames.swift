/// Names from Apple and from other libraries that stage docs may present as code
/// although no course code mentions them.
///
/// `DocNamesCheck` accepts a name a doc shows as code only when the stage's
/// code or the course's Sources/ use it. A few names come from frameworks no
/// target can import (SwiftUI and SwiftData do not exist on Linux), from
/// Foundation API the docs compare with the course's choice, or from the
/// libraries a stage sets its design beside (Apollo iOS, Store5). They are listed
/// here, each group with the reason a doc names it. Keep the list small: a name
/// that the course's own code should have is a bug in the doc or the code, not
/// an entry here.
enum ForeignNames {
  static let all: Set<String> = swiftUI.union(swiftData).union(foundation).union(anchors).union(retryAnchors)
    .union(offlineFirst)

  /// The docs show how a SwiftUI view binds the view model (stage 03: `List`, `.refreshable`).
  static let swiftUI: Set<String> = ["List", "refreshable"]

  /// Stage 04 sets its SQLite schema beside SwiftData's migrations and unique attributes.
  static let swiftData: Set<String> = ["VersionedSchema", "SchemaMigrationPlan", "Attribute"]

  /// Stage 02 explains why `.iso8601`, `ISO8601DateFormatter` and `Date.ISO8601FormatStyle`
  /// are not how the course reads dates; stage 04 why `Decimal(string:)` needs no `locale`;
  /// stage 05 why a test never guesses with `Task.yield()`; stage 06 why the app stops
  /// using `URLSession.shared`, and how the libraries it compares with wait (`DispatchQueue.asyncAfter`).
  static let foundation: Set<String> = [
    "DateDecodingStrategy", "iso8601", "ISO8601DateFormatter", "withInternetDateTime", "withFractionalSeconds",
    "ISO8601FormatStyle", "locale", "yield",
    "shared", "asyncAfter",
  ]

  /// Stage 05 gives Apollo iOS's cache policies and Store5's request and store names
  /// beside its own.
  static let anchors: Set<String> = [
    "returnCacheDataElseFetch", "fetchIgnoringCacheData", "returnCacheDataAndFetch", "fetchIgnoringCacheCompletely",
    "returnCacheDataDontFetch", "cacheAndNetwork",
    "localOnly", "fresh", "cached", "skipMemory", "key", "Cache", "SourceOfTruth", "Fetcher", "StoreReadRequest",
  ]

  /// Stage 06 sets its retry policy beside Alamofire's `RetryPolicy` (`retryLimit`,
  /// `retryableHTTPStatusCodes`) and Apollo iOS's `MaxRetryInterceptor`
  /// (`maxRetriesAllowed`), whose retries are whatever calls `RequestChain.retry`.
  static let retryAnchors: Set<String> = [
    "retryLimit", "retryableHTTPStatusCodes", "MaxRetryInterceptor", "maxRetriesAllowed", "RequestChain",
  ]

  /// Stage 07 sets its store, broadcast and connectivity service beside Android's Room `Flow` and
  /// Paging 3 `RemoteMediator`, GRDB's `ValueObservation`, Network's `NWPathMonitor`, and the
  /// `AsyncStream` buffering policy it did not choose.
  static let offlineFirst: Set<String> = [
    "Flow", "RemoteMediator", "ValueObservation", "NWPathMonitor", "bufferingNewest",
  ]
}
