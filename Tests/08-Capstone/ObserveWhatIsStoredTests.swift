import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if ALTERNATIVE
  import Alternative08
#elseif SOLUTION
  import Solution08
#else
  import Lesson08
#endif

/// Task 4: what observers get is what the store holds, not what the server sent.
@Suite(.timeLimit(.minutes(1)))
struct ObserveWhatIsStoredTests {
  /// The server answers oldest first: the store keeps the articles newest first,
  /// and that is the list a screen sees.
  @Test func observersGetTheStoredListNotTheServersAnswer() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 4) else { return }
    let reader = StreamReader(repository.observeLatest())
    defer { reader.cancel() }
    guard await reader.waitFor(count: 1) else {
      Issue.record(guide.task(4, "observeLatest() on an empty store should give [] at once; \(reader.whyShort)"))
      return
    }
    let records = Dictionary(uniqueKeysWithValues: ArticleFixtures.records.map { ($0["id"]?.stringValue ?? "", $0) })
    let oldestFirst = fixtureArticles.reversed().compactMap { records[$0.id] }
    let answer = JSONValue.array(oldestFirst).encoded()
    journal.api.inject(.body(String(decoding: answer, as: UTF8.self)), on: .articles, times: 1)
    guard await attempt(4, "refresh() should keep the articles", { try await repository.refresh() }) != nil else {
      return
    }
    let seen = await reader.waitFor(count: 2) ? reader.values.last : nil
    let asStored = sameArticles(seen, fixtureArticles)
    #expect(
      asStored,
      guide.task(
        4,
        "the server answered the 12 articles oldest first; observers should get the list as the store holds it, newest first, as latest() gives it, not the server's answer as it came; \(seen.map { whatDiffers($0, from: fixtureArticles) } ?? "they got nothing new (\(reader.whyShort))")"
      ))
  }
}
