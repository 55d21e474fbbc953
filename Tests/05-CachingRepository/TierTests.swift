import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// Task 3: reads go to memory first, then to disk, and a disk hit is kept in memory.
@Suite(.timeLimit(.minutes(1)))
struct ReadThroughTests {
  @Test func readsDiskOnceThenAnswersFromMemory() async throws {
    let harness = Harness()
    try await harness.seedList(age: 10)
    let (first, second, value) = try await guide.attempt(3, "cachedList(), twice, should read the list") {
      let first = try await harness.repository.cachedList()
      let second = try await harness.repository.cachedList()
      return (first?.origin, second?.origin, second?.entry.value)
    }
    let reads = await harness.store.reads
    #expect(
      first == .disk && second == .memory,
      guide.task(
        3,
        "the first read comes from disk, the second from memory: expected (disk, memory), got (\(shown(first as Any)), \(shown(second as Any)))"
      ))
    #expect(reads == 1, guide.task(3, "two reads should touch the disk store once (the spy counted \(reads) reads)"))
    #expect(Bool(same(value, firstPage)), guide.task(3, "memory should hold the 30 products read from disk"))
  }

  @Test func memoryDropsTheLeastRecentlyUsedProductPastItsCapacity() async throws {
    let now = TestNow()
    let disk = InMemoryProductCacheStore()
    for product in firstPage.prefix(3) { await disk.saveProduct(product, fetchedAt: now.date) }
    let repository = CachingProductRepository(
      remote: SpyProductRemoteDataSource(answer: .success(firstPage)), store: disk, lifetimes: testLifetimes,
      now: now.provider, memoryCapacity: 2)
    let ids = [1, 2, 1, 3, 2, 3].map { firstPage[$0 - 1].id }
    let origins = try await guide.attempt(3, "cachedProduct(id:) should read memory, then disk") {
      var origins: [String] = []
      for id in ids { origins.append((try await repository.cachedProduct(id: id)?.origin).map { "\($0)" } ?? "nil") }
      return origins
    }
    let expected = ["disk", "disk", "memory", "disk", "disk", "memory"]
    #expect(
      origins == expected,
      guide.task(
        3,
        "with memoryCapacity 2, reading products \(ids): the third product pushes out the least recently used one (the second; the first was just read again), and the second, read again, pushes out the first: origins \(expected), got \(origins) (keep products in memory with keepInMemory(product:), which keeps the bound)"
      ))
  }

  @Test func readingKeepsTheFetchTime() async throws {
    let harness = Harness()
    try await harness.seedList(age: 10)
    let fetchedAt = harness.now.date.addingTimeInterval(-10)
    let read = await Result {
      let first = try await harness.repository.cachedList()
      harness.now.advance(by: 50)
      let second = try await harness.repository.cachedList()
      return (first?.entry.fetchedAt, second?.entry.fetchedAt)
    }
    let found = try? read.get()
    let writes = await harness.store.writes
    #expect(
      found?.0 == fetchedAt && found?.1 == fetchedAt && writes == 0,
      guide.task(
        3,
        "reading never extends an entry's life: a list fetched at \(fetchedAt), read from disk and then from memory 50 s later, keeps that fetch time and is not written back; got \(read.map { "\(shown($0.0 as Any)), \(shown($0.1 as Any))" }), \(writes) write(s)",
        blaming: read))
  }

  @Test func nothingCachedReadsAsNil() async throws {
    let harness = Harness()
    let read = await Result {
      (try await harness.repository.cachedList(), try await harness.repository.cachedProduct(id: 1))
    }
    let found = try? read.get()
    #expect(
      found != nil && found?.0 == nil && found?.1 == nil,
      guide.task(3, "with nothing cached, cachedList() and cachedProduct(id:) are nil, got \(read)", blaming: read))
  }

  @Test func aProductIsFoundInTheListInMemory() async throws {
    let harness = Harness()
    try await harness.seedList(age: 10)
    let wanted = firstPage[6]
    let read = await Result {
      _ = try await harness.repository.cachedList()
      return try await harness.repository.cachedProduct(id: wanted.id)
    }
    let found = try? read.get()
    let reads = await harness.store.reads
    #expect(
      found?.origin == .memory && Bool(same(found?.entry.value, wanted))
        && found?.entry.fetchedAt == harness.now.date.addingTimeInterval(-10),
      guide.task(
        3,
        "after the list was read, product \(wanted.id) comes from memory with the list's fetch time, got \(String(describing: found))",
        blaming: read))
    if found != nil {
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
    let read = await Result { try await harness.repository.cachedList() }
    #expect(
      (try? read.map { $0 == nil }.get()) == true,
      guide.task(3, "a disk read that throws counts as a miss (nil), not an error: got \(read)", blaming: read))
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
    let entry = CacheEntry(value: firstPage, fetchedAt: harness.now.date)
    let written = await Result {
      try await harness.repository.remember(list: entry)
      return try await harness.repository.cachedList()
    }
    let onDisk = await Result { try await harness.disk.cachedList() }
    let reads = await harness.store.reads
    #expect(
      (try? written.get())?.origin == .memory && reads == 0,
      guide.task(
        4,
        "after remember(list:), the list is read from memory without a disk read, got \(written) with \(reads) reads",
        blaming: written))
    #expect(
      Bool(same(try? onDisk.get(), entry)),
      guide.task(
        4, "remember(list:) should save the list and its time to the disk store, got \(onDisk)", blaming: written))
  }

  @Test func aFailedDiskWriteIsReportedNotThrown() async throws {
    let harness = Harness()
    await harness.store.failWrites()
    let entry = CacheEntry(value: firstPage, fetchedAt: harness.now.date)
    let written = await Result {
      try await harness.repository.remember(list: entry)
      return try await harness.repository.cachedList()
    }
    #expect(
      Bool(same((try? written.get())?.entry, entry)),
      guide.task(
        4, "a failed disk write must not throw, and memory still keeps the answer; got \(written)", blaming: written))
    #expect(
      harness.diagnostics.recorded == ["writeFailed(disk full)"],
      guide.task(
        4, "the failed write should be reported once as .writeFailed, got \(harness.diagnostics.recorded)",
        blaming: written))
  }

  @Test func aFailedDiskWriteNeverHidesTheNetworksAnswer() async throws {
    let harness = Harness()
    await harness.store.failWrites()
    let answer = await Result { try await harness.repository.products(policy: .networkFirst) }
    #expect(
      Bool(
        same(
          try? answer.get(),
          RepositoryAnswer(value: firstPage, origin: .network, fetchedAt: harness.now.date, isStale: false))),
      guide.task(
        4,
        "the network answered and the disk write failed: expected the network's answer (network, not stale), got \(describe(answer)): an error thrown from remember(list:) must not reach network-first's fallback or the caller",
        blaming: answer))
    #expect(
      harness.diagnostics.recorded == ["writeFailed(disk full)"],
      guide.task(4, "the write failure goes to diagnostics, got \(harness.diagnostics.recorded)", blaming: answer))
  }
}
