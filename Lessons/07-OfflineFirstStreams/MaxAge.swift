import Foundation

/// How long one kind of data stays fresh, and how long it may be served at all.
///
/// ```text
/// fetchedAt        fetchedAt + soft             fetchedAt + hard
///     |----- fresh -----|--------- stale ------------|------ expired ------>
///     age 0        age == soft: stale          age == hard: expired
/// ```
///
/// Both limits are exclusive, as HTTP's `max-age` is: an entry is fresh while its
/// age is below `soft`, servable while it is below `hard`. Reading an entry never
/// changes its `fetchedAt`, so reading never extends its life.
nonisolated struct MaxAge: Sendable, Hashable {
  /// Seconds after which the entry is stale: it may be shown, and a refresh is due.
  var soft: TimeInterval
  /// Seconds after which the entry is expired: it is never served and may be evicted.
  var hard: TimeInterval

  /// - Precondition: `0 <= soft <= hard`.
  init(soft: TimeInterval, hard: TimeInterval) {
    precondition(soft >= 0 && soft <= hard, "MaxAge needs 0 <= soft <= hard, got soft \(soft), hard \(hard)")
    self.soft = soft
    self.hard = hard
  }

  /// How an entry fetched at `fetchedAt` stands at `now`.
  ///
  /// An entry fetched "in the future" (the device's clock moved back) is stale:
  /// it may be shown, but its age can't be trusted to call it fresh. Under a
  /// zero hard age, which means "never cache", it is expired like any other.
  func freshness(fetchedAt: Date, now: Date) -> Freshness {
    let age = now.timeIntervalSince(fetchedAt)
    if age < 0 { return hard > 0 ? .stale : .expired }
    if age < soft { return .fresh }
    if age < hard { return .stale }
    return .expired
  }
}

/// Where an entry stands against its `MaxAge`.
nonisolated enum Freshness: Sendable, Hashable {
  /// Younger than the soft age: serve it, no refresh needed.
  case fresh
  /// Past the soft age, younger than the hard age: it may be served, and a refresh is due.
  case stale
  /// Past the hard age: never serve it.
  case expired
}

/// The ages for each kind of data the repository caches.
///
/// A list goes out of date slowly (new products are rare); one product's price
/// and stock change more often, and its detail screen is where they matter.
nonisolated struct CacheLifetimes: Sendable, Hashable {
  /// The first page of the catalog.
  var list: MaxAge
  /// One product, by id.
  var product: MaxAge

  /// List: fresh for 5 minutes, served for a day. Product: fresh for 1 minute, served for an hour.
  static let standard = CacheLifetimes(
    list: MaxAge(soft: 5 * 60, hard: 24 * 60 * 60),
    product: MaxAge(soft: 60, hard: 60 * 60)
  )
}
