import CourseFixtures
import Foundation
import Testing

struct ProductFixturesTests {
  @Test func loadsEveryRealRecordFromTheBundle() {
    #expect(ProductFixtures.records.count == 194, "products.json should hold the 194 DummyJSON records")
  }

  @Test func keepsTheQuirksTheLessonsTeach() throws {
    let withoutBrand = ProductFixtures.records.filter { $0["brand"] == nil }
    #expect(withoutBrand.count == 92, "92 of the real records have no brand")
    let first = try #require(ProductFixtures.record(id: 1))
    #expect(first["meta"]?["updatedAt"]?.stringValue == "2025-04-30T09:41:02.053Z")
    #expect(first["price"] == .number(9.99))
  }

  @Test func shipsTheLicenceWithTheRecords() {
    #expect(ProductFixtures.license.contains("MIT License"))
    #expect(ProductFixtures.license.contains("DummyJSON"))
  }

  @Test func jsonValueRoundTripsThroughItsEncoding() throws {
    let value = JSONValue.object([
      "id": .number(7), "price": .number(9.99), "brand": .null, "ok": .bool(true),
      "tags": .array([.string("a"), .string("é \"quoted\"")]),
    ])
    #expect(try JSONValue(data: value.encoded()) == value)
    #expect(
      String(decoding: JSONValue.number(7).encoded(), as: UTF8.self) == "7", "whole numbers go out without a fraction")
  }

  @Test func tellsBooleansFromTheNumbersOneAndZero() throws {
    let parsed = try JSONValue(data: Data(#"[true, false, 1, 0, 1.5, -2, null, "true", {"nested": [false]}]"#.utf8))
    #expect(
      parsed
        == .array([
          .bool(true), .bool(false), .number(1), .number(0), .number(1.5), .number(-2), .null, .string("true"),
          .object(["nested": .array([.bool(false)])]),
        ]))
    #expect(try JSONValue(data: Data("7".utf8)) == .number(7), "a bare number is a JSON document too")
  }

  @Test func rejectsBytesThatAreNotJSON() {
    #expect(throws: (any Error).self) { try JSONValue(data: Data("{\"a\":".utf8)) }
  }
}
