// Benchmarks for the course's reference solutions. Never run by the tests.
//
//   swift build -c release -Xswiftc -enable-testing --product benchmarks
//   .build/release/benchmarks
//
// `-enable-testing` lets this target reach the solutions' internal types.

import CourseFixtures
import CourseSQLite
import Foundation

@testable import Solution04

/// Times `body` `runs` times and returns the median in milliseconds.
func medianMilliseconds(runs: Int, _ body: () async throws -> Void) async rethrows -> Double {
  var samples: [Double] = []
  for _ in 0..<runs {
    let elapsed = try await ContinuousClock().measure { try await body() }
    samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
  }
  return samples.sorted()[samples.count / 2]
}

func temporaryPath(_ name: String) -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(name)-\(UUID().uuidString).sqlite").path
}

/// Quotes text as an SQL string literal, for the sqlite3 shell's script only.
func literal(_ text: String?) -> String {
  guard let text else { return "NULL" }
  return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}

let count = 10_000
let runs = 5
let base = try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).map { try $0.toDomain() }
let products: [Product] = (0..<count).map { index in
  let template = base[index % base.count]
  return Product(
    id: index + 1, title: template.title, description: template.description, category: template.category,
    price: template.price, discountPercentage: template.discountPercentage, rating: template.rating,
    stock: template.stock, brand: template.brand, thumbnail: template.thumbnail,
    updatedAt: template.updatedAt.addingTimeInterval(Double(index)))
}

print("Saving \(count) products, median of \(runs) runs, release build")

let firstSave = try await medianMilliseconds(runs: runs) {
  let path = temporaryPath("first")
  defer { SQLiteConnection.removeDatabase(atPath: path) }
  try await SQLiteProductLocalDataSource(path: path).save(products)
}
print(String(format: "  SQLiteProductLocalDataSource.save, new file:        %8.1f ms", firstSave))

let path = temporaryPath("again")
let local = try SQLiteProductLocalDataSource(path: path)
try await local.save(products)
let secondSave = try await medianMilliseconds(runs: runs) { try await local.save(products) }
print(String(format: "  SQLiteProductLocalDataSource.save, same rows again: %8.1f ms", secondSave))
let readAll = try await medianMilliseconds(runs: runs) { _ = try await local.products() }
print(String(format: "  SQLiteProductLocalDataSource.products(), all rows:  %8.1f ms", readAll))
SQLiteConnection.removeDatabase(atPath: path)

// The same rows through the sqlite3 shell: one script, one transaction.
var script = "PRAGMA journal_mode = WAL;\nBEGIN;\n"
script += """
  CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL CHECK (length(title) > 0),
  description TEXT NOT NULL, category TEXT NOT NULL, price TEXT NOT NULL, discount_percentage REAL NOT NULL,
  rating REAL NOT NULL, stock INTEGER NOT NULL CHECK (stock >= 0), thumbnail TEXT, updated_at REAL NOT NULL,
  brand TEXT);
  CREATE INDEX products_newest_first ON products (updated_at DESC, id);

  """
for product in products {
  let row = ProductRow(product)
  script +=
    "INSERT INTO products (\(ProductRow.columns)) VALUES (\(row.id), \(literal(row.title)), "
    + "\(literal(row.description)), \(literal(row.category)), \(literal(row.price)), \(row.discountPercentage), "
    + "\(row.rating), \(row.stock), \(literal(row.brand)), \(literal(row.thumbnail)), \(row.updatedAt));\n"
}
script += "COMMIT;\n"
let scriptURL = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).sql")
try script.write(to: scriptURL, atomically: true, encoding: .utf8)
defer { try? FileManager.default.removeItem(at: scriptURL) }

let shell = try await medianMilliseconds(runs: runs) {
  let path = temporaryPath("shell")
  defer { SQLiteConnection.removeDatabase(atPath: path) }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["sqlite3", path, ".read \(scriptURL.path)"]
  process.standardOutput = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    print("sqlite3 failed with status \(process.terminationStatus); is the sqlite3 shell installed?")
    exit(1)
  }
}
print(String(format: "  sqlite3 shell, same rows, one transaction:        %8.1f ms", shell))
