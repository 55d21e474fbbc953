import Foundation

/// The files bundled with CourseFixtures, read once each; a missing or broken
/// one is a broken package, not something a test could handle.
enum BundledResource {
  /// The bytes of `name.ext`.
  static func data(_ name: String, _ ext: String) -> Data {
    guard let url = Bundle.module.url(forResource: name, withExtension: ext), let data = try? Data(contentsOf: url)
    else {
      preconditionFailure("\(name).\(ext) is missing from the CourseFixtures bundle")
    }
    return data
  }

  /// `data`, which holds the JSON array `name.json`, as its elements.
  static func records(_ data: Data, _ name: String) -> [JSONValue] {
    do {
      guard case .array(let records) = try JSONValue(data: data) else {
        preconditionFailure("\(name).json is not a JSON array")
      }
      return records
    } catch {
      preconditionFailure("\(name).json is not valid JSON: \(error)")
    }
  }
}
