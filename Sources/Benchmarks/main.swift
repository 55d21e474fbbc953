// Benchmarks of the course's reference solutions. Never part of the tests, and
// not even part of the package unless asked for (see the end of Package.swift):
//
//   COURSE_BENCHMARKS=1 swift run -c release benchmarks
//
//   COURSE_BENCHMARKS=1 swift run -c release benchmarks kill-sync http://127.0.0.1:8099 200
//     (with `swift run course serve --port 8099` running): stage 07 killed mid-sync.
//
//   COURSE_BENCHMARKS=1 swift run -c release benchmarks classroom "$(swift build --show-bin-path)/course"
//     `course classroom` with 100 learners for 2 minutes, SIGKILLed halfway (ClassroomBenchmark.swift).
//
//   COURSE_BENCHMARKS=1 swift run -c release benchmarks only "Stage 07"
//     only the benchmarks whose title contains the text (for a profiler).
//
// Each benchmark is one function that prints its own lines; `benchmarks` below
// lists them in the order they run. To add one, write the function and list it
// (and add the solution it times to the target's dependencies in Package.swift).

import CourseFixtures
import CourseSQLite
import Foundation

@testable import Solution04

/// How many times each measurement runs; the median is printed.
let runs = 5
/// How many products the stage 04 benchmarks save: the 194 real records, repeated with new ids.
let productCount = 10_000

/// Every benchmark, in the order it runs.
let benchmarks: [(title: String, run: () async throws -> Void)] = [
  ("Stage 04: SQLiteProductLocalDataSource, \(productCount) products", stage04LocalDataSource),
  ("Stage 04: the same rows through CourseSQLite alone, for comparison", stage04WrapperAlone),
  ("Stage 05: 1,000 concurrent identical reads through CachingProductRepository", CoalescingBenchmark.run),
  (
    "Stage 07: \(FanOutBenchmark.subscribers) subscribers × \(FanOutBenchmark.changes) changes",
    FanOutBenchmark.run
  ),
]

// `kill-sync` and `sync-child`: stage 07 killed mid-sync over real sockets (KillBenchmark.swift).
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "kill-sync":
  guard arguments.count == 3, let url = URL(string: arguments[1]), let kills = Int(arguments[2]) else {
    print("usage: benchmarks kill-sync BASE-URL KILLS (with `swift run course serve --port N` running)")
    exit(2)
  }
  print("Stage 07: the app killed at random points of its sync, \(kills) times, against \(url)")
  try await KillBenchmark.run(baseURL: url, kills: kills)
  exit(0)
case "classroom":
  guard arguments.count >= 2 else {
    print("usage: benchmarks classroom PATH-TO-COURSE [SECONDS] [LEARNERS] (swift build --product course first)")
    exit(2)
  }
  let seconds = arguments.count > 2 ? Int(arguments[2]) ?? 120 : 120
  let learners = arguments.count > 3 ? Int(arguments[3]) ?? 100 : 100
  print("The classroom: \(learners) learners posting every 2 s for \(seconds) s, SIGKILL halfway (\(arguments[1]))")
  #if os(macOS) || os(Linux)
    try ClassroomBenchmark.run(course: arguments[1], learners: learners, seconds: seconds)
  #endif
  exit(0)
case "sync-child":
  guard arguments.count >= 3, let url = URL(string: arguments[1]) else { exit(2) }
  do {
    try await KillBenchmark.child(baseURL: url, path: arguments[2], add: arguments.count > 3 ? arguments[3] : nil)
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("sync-child: \(error)\n".utf8))
    exit(1)
  }
default:
  break
}

// `only TEXT`: the benchmarks whose title contains TEXT.
let chosen =
  arguments.first == "only" && arguments.count == 2
  ? benchmarks.filter { $0.title.contains(arguments[1]) } : benchmarks
print("Release build, median of \(runs) runs")
for benchmark in chosen {
  print("\n\(benchmark.title)")
  try await benchmark.run()
}

// MARK: - Stage 04

/// Saves to a new file, saves the same rows again, and reads them all back.
func stage04LocalDataSource() async throws {
  let products = try makeProducts(count: productCount)
  // Each run saves into a file of its own, deleted after the timing, as the C baseline does.
  var files: [String] = []
  defer { files.forEach(SQLiteConnection.removeDatabase(atPath:)) }
  let firstSave = try await medianMilliseconds {
    files.append(temporaryPath("first"))
    try await SQLiteProductLocalDataSource(path: files[files.count - 1]).save(products)
  }
  report("save, new file", firstSave)

  let path = temporaryPath("again")
  defer { SQLiteConnection.removeDatabase(atPath: path) }
  let local = try SQLiteProductLocalDataSource(path: path)
  try await local.save(products)
  report("save, same rows again", try await medianMilliseconds { try await local.save(products) })
  report("products(), all rows", try await medianMilliseconds { _ = try await local.products() })
}

/// The floor under the data source's save: the schema from its own migrations,
/// then one prepared INSERT with bound values for every row, in one transaction.
func stage04WrapperAlone() async throws {
  let rows = try makeProducts(count: productCount).map(ProductRow.init)
  let insert = "INSERT INTO products (\(ProductRow.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
  var files: [String] = []
  defer { files.forEach(SQLiteConnection.removeDatabase(atPath:)) }
  let elapsed = try await medianMilliseconds {
    files.append(temporaryPath("wrapper"))
    let database = try SQLiteConnection(path: files[files.count - 1])
    try database.migrate(SQLiteProductLocalDataSource.migrations)
    try database.transaction {
      let statement = try database.prepare(insert)
      for row in rows { try statement.run(row.values) }
    }
  }
  report("INSERT, new file", elapsed)
}

/// `count` products made from the real records, with ids 1...count and distinct dates.
func makeProducts(count: Int) throws -> [Product] {
  let base = try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).map { try $0.toDomain() }
  return (0..<count).map { index in
    let template = base[index % base.count]
    return Product(
      id: index + 1, title: template.title, description: template.description, category: template.category,
      price: template.price, discountPercentage: template.discountPercentage, rating: template.rating,
      stock: template.stock, brand: template.brand, thumbnail: template.thumbnail,
      updatedAt: template.updatedAt.addingTimeInterval(Double(index)))
  }
}

// MARK: - Measuring

/// Times `body` `runs` times and returns the median in milliseconds.
func medianMilliseconds(_ body: () async throws -> Void) async throws -> Double {
  var samples: [Double] = []
  for _ in 0..<runs {
    let elapsed = try await ContinuousClock().measure { try await body() }
    samples.append(elapsed / .milliseconds(1))
  }
  return samples.sorted()[samples.count / 2]
}

func report(_ label: String, _ milliseconds: Double) {
  print("  " + label.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%9.1f ms", milliseconds))
}

func temporaryPath(_ name: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(name)-\(UUID().uuidString).sqlite").path
}
