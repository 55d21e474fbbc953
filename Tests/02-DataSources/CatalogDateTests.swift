import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

struct CatalogDateTests {
  @Test func readsMillisecondsAsTheRealAPISendsThem() {
    let text = "2025-04-30T09:41:02.053Z"
    let parsed = Result { try CatalogDate.parse(text) }
    #expect(
      (try? parsed.get())?.timeIntervalSince1970 == 1_746_006_062.053,
      guide.task(1, "CatalogDate.parse(\"\(text)\") should be 1746006062.053 s after 1970, got \(parsed)")
    )
  }

  @Test func readsWholeSecondsToo() {
    let text = "2025-04-30T09:41:02Z"
    let parsed = Result { try CatalogDate.parse(text) }
    #expect(
      (try? parsed.get())?.timeIntervalSince1970 == 1_746_006_062,
      guide.task(1, "a timestamp without fractional seconds is ISO 8601 too: expected 1746006062, got \(parsed)")
    )
  }

  @Test(arguments: ["30/04/2025", "", "2025-04-30", "yesterday"])
  func refusesTextThatIsNotATimestamp(text: String) {
    let parsed = Result { try CatalogDate.parse(text) }
    var isInvalidData = false
    if case .failure(RemoteDataSourceError.invalidData) = parsed { isInvalidData = true }
    #expect(
      isInvalidData,
      guide.task(1, "CatalogDate.parse(\"\(text)\") should throw RemoteDataSourceError.invalidData, got \(parsed)")
    )
  }
}
