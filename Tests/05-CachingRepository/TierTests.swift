import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// Task 3: cache-only reads go to memory first, then to disk, and a disk hit is
/// kept in memory. The tier shows in each answer's `origin`.
@Suite(.timeLimit(.minutes(1)))
struct ReadThroughTests {
  @Test func readsDiskOnceThenAnswersFromMemory() async throws {
    let harness = Harness()
    try await harness.seedList(age: 10)
    let first = await harness.products(.cacheOnly)
    let second = await harness.products(.cacheOnly)
    let reads = await harness.store.reads
    #expect(
      (try? first.get())?.origin == .disk && (try? second.get())?.origin == .memory,
      guide.task(
        3,
        "two cache-only reads of a list on disk: the first comes from disk, the second from memory; got \(describe(first)), then \(describe(second))",
        blamingFirstOf: [first.failure, second.failure]))
    #expect(
      reads == 1,
      guide.task(
        3, "two cache-only reads should touch the disk store once (the spy counted \(reads) reads)",
        blaming: first.failure))
    #expect(
      Bool(same((try? second.get())?.value, firstPage)),
      guide.task(3, "memory should hold the 30 products read from disk, got \(describe(second))", blaming: second))
  }

  @Test func memoryDropsTheLeastRecentlyUsedProductPastItsCapacity() async throws {
    let harness = Harness(memoryCapacity: 2)
    for product in firstPage.prefix(3) { try await harness.disk.saveProduct(product, fetchedAt: harness.now.date) }
    let ids = [1, 2, 1, 3, 2, 3].map { firstPage[$0 - 1].id }
    var origins: [String] = []
    var failure: (any Error)?
    for id in ids {
      let read = await harness.product(id, .cacheOnly)
      failure = failure ?? read.failure
      origins.append((try? read.get()).map { "\($0.origin)" } ?? "error")
    }
    let expected = ["disk", "disk", "memory", "disk", "disk", "memory"]
    #expect(
      origins == expected,
      guide.task(
        3,
        "with memoryCapacity 2, cache-only reads of products \(ids): the third product pushes out the least recently used one (the second; the first was just read again), and the second, read again, pushes out the first: origins \(expected), got \(origins)\(failure.map { "; first error \($0)" } ?? "")",
        blamingFirstOf: [failure]))
  }

  @Test func readingKeepsTheFetchTime() async throws {
    let harness = Harness()
    try await harness.seedList(age: 10)
    let fetchedAt = harness.now.date.addingTimeInterval(-10)
    let first = await harness.products(.cacheOnly)
    harness.now.advance(by: 50)
    let second = await harness.products(.cacheOnly)
    let writes = await harness.store.writes
    #expect(
      (try? first.get())?.fetchedAt == fetchedAt && (try? second.get())?.fetchedAt == fetchedAt && writes == 0,
      guide.task(
        3,
        "reading never extends an entry's life: a list fetched at \(fetchedAt), read from disk and then from memory 50 s later, keeps that fetch time and is not written back; got \(describe(first)), then \(describe(second)), \(writes) write(s)",
        blamingFirstOf: [first.failure, second.failure]))
  }

  @Test func nothingCachedIsNothingCached() async throws {
    let harness = Harness()
    let list = await harness.products(.cacheOnly)
    let product = await harness.product(1, .cacheOnly)
    #expect(
      list.failure as? CacheError == .nothingCached && product.failure as? CacheError == .nothingCached,
      guide.task(
        3,
        "with nothing cached, a cache-only read of the list and of product 1 throws CacheError.nothingCached, got \(describe(list)) and \(describe(product))",
        blamingFirstOf: [list.failure, product.failure]))
  }

  @Test func aProductIsFoundInTheListInMemory() async throws {
    let harness = Harness()
    try await harness.seedList(age: 5)
    let wanted = firstPage[6]
    let list = await harness.products(.cacheOnly)
    let found = await harness.product(wanted.id, .cacheOnly)
    let reads = await harness.store.reads
    #expect(
      Bool(
        same(
          try? found.get(),
          RepositoryAnswer(
            value: wanted, origin: .memory, fetchedAt: harness.now.date.addingTimeInterval(-5), isStale: false))),
      guide.task(
        3,
        "after the list was read, product \(wanted.id) comes from memory with the list's fetch time, got \(describe(found))",
        blamingFirstOf: [list.failure, found.failure]))
    if (try? found.get()) != nil {
      #expect(
        reads == 1,
        guide.task(
          3, "the list needs one disk read and the product none after it; the spy counted \(reads) disk read(s)"))
    }
  }

  @Test func aFailingDiskReadIsAMissAndIsReported() async throws {
    let harness = Harness()
    try await harness.seedList(age: 10)
    await harness.store.failReads()
    let read = await harness.products(.cacheOnly)
    #expect(
      read.failure as? CacheError == .nothingCached,
      guide.task(
        3,
        "a disk read that throws counts as a miss: cache-only throws CacheError.nothingCached, not the disk's error; got \(describe(read))",
        blaming: read))
    #expect(
      harness.diagnostics.recorded.contains { $0.hasPrefix("readFailed") },
      guide.task(
        3, "the failed read should be reported as .readFailed through diagnostics, got \(harness.diagnostics.recorded)",
        blaming: read))
  }
}

/// Task 4: a network answer goes to memory and disk; a failed disk write is reported, never thrown.
@Suite(.timeLimit(.minutes(1)))
struct WriteThroughTests {
  @Test func aNetworkAnswerIsKeptInMemoryAndOnDisk() async throws {
    let harness = Harness()
    let fetched = await harness.products(.networkFirst)
    let readsBefore = await harness.store.reads
    let again = await harness.products(.cacheOnly)
    let reads = await harness.store.reads - readsBefore
    let onDisk = await Result { try await harness.disk.cachedList() }
    #expect(
      (try? again.get())?.origin == .memory && reads == 0,
      guide.task(
        4,
        "after a network-first read, a cache-only read comes from memory without a disk read, got \(describe(again)) with \(reads) read(s)",
        blamingFirstOf: [fetched.failure, again.failure]))
    #expect(
      Bool(same(try? onDisk.get(), CacheEntry(value: firstPage, fetchedAt: harness.now.date))),
      guide.task(
        4,
        "a network-first read should save the network's list and its time to the disk store, got \(onDisk.map { $0.map { "\($0.value.count) products fetched at \($0.fetchedAt)" } ?? "nothing" }.described)",
        blaming: fetched))
  }

  @Test func aFailedDiskWriteIsReportedNotThrown() async throws {
    let harness = Harness()
    await harness.store.failWrites()
    let fetched = await harness.products(.networkFirst)
    let again = await harness.products(.cacheOnly)
    #expect(
      Bool(
        same(
          try? again.get(),
          RepositoryAnswer(value: firstPage, origin: .memory, fetchedAt: harness.now.date, isStale: false))),
      guide.task(
        4,
        "a failed disk write must not throw, and memory still keeps the answer: the next cache-only read should come from memory, got \(describe(again))",
        blamingFirstOf: [fetched.failure, again.failure]))
    #expect(
      harness.diagnostics.recorded == ["writeFailed(disk full)"],
      guide.task(
        4, "the failed write should be reported once as .writeFailed, got \(harness.diagnostics.recorded)",
        blaming: fetched))
  }

  @Test func aFailedDiskWriteNeverHidesTheNetworksAnswer() async throws {
    let harness = Harness()
    await harness.store.failWrites()
    let answer = await harness.products(.networkFirst)
    #expect(
      Bool(
        same(
          try? answer.get(),
          RepositoryAnswer(value: firstPage, origin: .network, fetchedAt: harness.now.date, isStale: false))),
      guide.task(
        4,
        "the network answered and the disk write failed: expected the network's answer (network, not stale), got \(describe(answer)): a failed save must not reach network-first's fallback or the caller",
        blaming: answer))
    #expect(
      harness.diagnostics.recorded == ["writeFailed(disk full)"],
      guide.task(4, "the write failure goes to diagnostics, got \(harness.diagnostics.recorded)", blaming: answer))
  }

  @Test func aProductFromTheNetworkIsKeptInMemoryAndOnDisk() async throws {
    let harness = Harness()
    let wanted = firstPage[9]
    let fetched = await harness.product(wanted.id, .networkFirst)
    let again = await harness.product(wanted.id, .cacheOnly)
    let onDisk = await Result { try await harness.disk.cachedProduct(id: wanted.id) }
    #expect(
      (try? again.get())?.origin == .memory
        && Bool(same(try? onDisk.get(), CacheEntry(value: wanted, fetchedAt: harness.now.date))),
      guide.task(
        4,
        "a network-first read of product \(wanted.id) is kept in memory (the next cache-only read says memory) and on disk: got \(describe(again)), disk \(onDisk.map { $0.map { "product \($0.value.id) fetched at \($0.fetchedAt)" } ?? "nothing" }.described)",
        blamingFirstOf: [fetched.failure, again.failure]))
  }
}
