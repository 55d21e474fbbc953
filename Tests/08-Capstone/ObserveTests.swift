import CourseClock
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

/// Task 4: a screen observes the store: the stored list at once, then each
/// change once, to every observer, for as long as they read.
@Suite(.timeLimit(.minutes(1)))
struct ObserveTests {
  @Test func anObserverGetsTheStoredListAtOnce() async {
    let journal = Journal()
    guard let first = journal.launch(for: 4),
      await attempt(4, "refresh() should keep the articles", { try await first.refresh() }) != nil,
      let second = journal.launch(for: 4)
    else { return }
    journal.api.inject(.offline)
    let reader = StreamReader(second.observeLatest())
    defer { reader.cancel() }
    let first3 = await reader.waitFor(count: 1) ? reader.values.first : nil
    let matches = sameArticles(first3, fixtureArticles)
    #expect(
      matches,
      guide.task(
        4,
        "observeLatest() on a launch whose store holds 12 articles should give them at once, before any refresh (the screen draws from the store, not from the network); \(first3.map { whatDiffers($0, from: fixtureArticles) } ?? reader.whyShort)"
      ))
  }

  @Test func eachChangeArrivesOnceAndNothingElse() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 4) else { return }
    let reader = StreamReader(repository.observeLatest())
    defer { reader.cancel() }
    let empty = await reader.waitFor(count: 1) ? reader.values.first : nil
    let startsEmpty = empty == []
    #expect(
      startsEmpty,
      guide.task(
        4,
        "observeLatest() on an empty store should give the stored list, [], at once; it gave \(empty.map(ids) ?? "nothing: \(reader.whyShort)")"
      ))
    guard empty != nil,
      await attempt(4, "refresh() should keep the articles", { try await repository.refresh() }) != nil
    else { return }
    guard await reader.waitFor(count: 2) else {
      Issue.record(
        guide.task(
          4,
          "after a refresh brought 12 articles into an empty store, observers should get the stored list again; after [] they got nothing (\(reader.whyShort)): publish after each write that changes the store"
        ))
      return
    }
    // The same answer again changes nothing, so it must publish nothing.
    _ = await attempt(4, "a second refresh() should succeed", { try await repository.refresh() })
    let afterTheSameAnswer = await reader.settled(count: 2).count
    #expect(
      afterTheSameAnswer == 2,
      guide.task(
        4,
        "a refresh that brought the same 12 articles changed nothing, so observers should get nothing new; they got \(afterTheSameAnswer - 2) more value(s) (publish only when the stored list changed)"
      ))
    let id = fixtureArticles[2].id
    journal.theirEdit(id: id, title: "Updated", stampedAt: startDate)
    _ = await attempt(4, "a third refresh() should bring the edit", { try await repository.refresh() })
    let seen = await reader.settled(count: 3)
    let shape = seen.map { list in
      list.isEmpty ? "[]" : list.contains { $0.title == "Updated" } ? "edited" : "\(list.count)"
    }
    #expect(
      shape == ["[]", "12", "edited"],
      guide.task(
        4,
        "an observer of an empty store, through a refresh, a refresh that changes nothing, and a refresh with one edit, should see [], the 12 articles, then the list with the edit: one value per change, and none for a refresh that changed nothing; it saw \(shape)"
      ))
    let last = seen.last ?? []
    #expect(
      seen.count < 3 || last.first?.id == id,
      guide.task(
        4,
        "the edited article is now the newest and goes first in what observers see; the list began \(ids(Array(last.prefix(3))))"
      ))
  }

  @Test func everyObserverGetsEachChangeUntilItStops() async {
    let journal = Journal()
    guard let repository = journal.launch(for: 4) else { return }
    let staying = StreamReader(repository.observeLatest())
    let leaving = StreamReader(repository.observeLatest())
    defer { staying.cancel() }
    let started = await staying.waitFor(count: 1)
    let startedToo = await leaving.waitFor(count: 1)
    guard started, startedToo,
      await attempt(4, "refresh() should keep the articles", { try await repository.refresh() }) != nil
    else {
      if !(started && startedToo) {
        Issue.record(
          guide.task(
            4,
            "two observers of an empty store should each get [] at once; one got \(staying.values.count) value(s), the other \(leaving.values.count)"
          ))
      }
      return
    }
    let stayingGot = await staying.waitFor(count: 2)
    let leavingGot = await leaving.waitFor(count: 2)
    guard stayingGot && leavingGot else {
      Issue.record(
        guide.task(
          4,
          "two observers should each get the refreshed list after []; one saw \(staying.values.count) value(s), the other \(leaving.values.count) (\(stayingGot ? leaving.whyShort : staying.whyShort))"
        ))
      return
    }
    leaving.cancel()
    journal.theirEdit(id: fixtureArticles[0].id, title: "After one left", stampedAt: startDate)
    _ = await attempt(4, "refresh() should bring the edit", { try await repository.refresh() })
    let stayed = await staying.waitFor(count: 3)
    #expect(
      stayed,
      guide.task(
        4,
        "when one observer stops reading, the others should go on getting each change; the one that stayed saw \(staying.values.count) value(s), expected 3: []; the 12 articles; the edit"
      ))
  }

  @Test func streamsEndWhenTheRepositoryGoesAway() async {
    let journal = Journal()
    var repository = journal.launch(for: 4)
    guard let stream = repository?.observeLatest() else { return }
    let reader = StreamReader(stream)
    defer { reader.cancel() }
    let started = await reader.waitFor(count: 1)
    repository = nil
    let ended = await reader.waitForEnd()
    #expect(
      started && ended,
      guide.task(
        4,
        "when the last reference to the repository goes away (the app tears down its data layer), every stream it handed out should finish, so each screen's `for await` loop ends; \(started ? "the stream stayed open" : "it never gave its first value: \(reader.whyShort)")"
      ))
  }
}
