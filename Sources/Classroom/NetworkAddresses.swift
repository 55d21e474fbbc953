#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension ClassroomServer {
  /// This laptop's IPv4 addresses other than loopback, such as `192.168.1.20`:
  /// where learners reach a classroom that listens on `0.0.0.0`.
  public static func networkAddresses() -> [String] {
    var first: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&first) == 0 else { return [] }
    defer { freeifaddrs(first) }
    var addresses: [String] = []
    var next = first
    while let entry = next {
      defer { next = entry.pointee.ifa_next }
      guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
      var name = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      let text = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
        var raw = inet.pointee.sin_addr
        return inet_ntop(AF_INET, &raw, &name, socklen_t(name.count)).map { String(cString: $0) }
      }
      if let text, !text.hasPrefix("127.") { addresses.append(text) }
    }
    return addresses
  }
}
