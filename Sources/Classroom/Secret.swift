/// The room's random codes, and comparing them without leaking how much matched.
enum Secret {
  /// Letters and digits no one misreads from a projector: no 0/O, 1/I/L.
  static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")

  /// A join code such as `KQ7M-3XPA`: 8 characters, about 40 bits.
  static func joinCode() -> String {
    var generator = SystemRandomNumberGenerator()
    let characters = (0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
    return String(characters[0..<4]) + "-" + String(characters[4...])
  }

  /// `bytes` random bytes as lowercase hexadecimal.
  static func hex(bytes: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<bytes).map { _ in
      let byte = UInt8.random(in: .min ... .max, using: &generator)
      return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }.joined()
  }

  /// Whether two secrets are equal, taking as long whatever they share; a join
  /// code matches without regard to case or its dash.
  static func equal(_ given: String, _ secret: String) -> Bool {
    let a = Array(normalized(given).utf8)
    let b = Array(normalized(secret).utf8)
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0
  }

  private static func normalized(_ text: String) -> String {
    text.uppercased().filter { $0 != "-" && $0 != " " }
  }
}
