import Foundation

/// Collects a command's output and cuts it into lines as it arrives.
struct LineBuffer {
  private(set) var data = Data()
  private var pending = Data()

  /// Adds a chunk and returns the lines it completed, without their newlines.
  mutating func append(_ chunk: Data) -> [String] {
    data.append(chunk)
    pending.append(chunk)
    var lines: [String] = []
    var start = pending.startIndex
    while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(String(decoding: pending[start..<newline], as: UTF8.self))
      start = pending.index(after: newline)
    }
    pending = Data(pending[start...])
    return lines
  }

  /// Returns the last line when the output did not end with a newline.
  mutating func finish() -> String? {
    defer { pending.removeAll() }
    return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
  }

  /// Everything collected, as text.
  var text: String { String(decoding: data, as: UTF8.self) }
}
