import CourseSQLite
import Foundation
import Synchronization

/// A `JSONDecoder` that records, for every `decode(_:from:)`, the type it
/// decoded and whether it ran on the main actor; then decodes as a plain
/// `JSONDecoder` does.
///
/// Tests hand it to a remote source's initializer to see where decoding ran.
///
/// `@unchecked Sendable` as `JSONDecoder` is; what it adds is behind a `Mutex`.
public final class SpyJSONDecoder: JSONDecoder, @unchecked Sendable {
  /// One call of `decode(_:from:)`.
  public struct Decode: Sendable, Equatable {
    /// The type asked for, such as `ProductPageDTO`.
    public let type: String
    /// Whether it ran on the main actor.
    public let onMainActor: Bool
  }

  private let recorded = Mutex<[Decode]>([])

  /// Every decode so far, in order.
  public var decodes: [Decode] { recorded.withLock { $0 } }

  public override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    let call = Decode(type: String(describing: type), onMainActor: MainActorCheck.isOnMainActor)
    recorded.withLock { $0.append(call) }
    return try super.decode(type, from: data)
  }
}
