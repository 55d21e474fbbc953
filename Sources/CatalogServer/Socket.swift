#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One POSIX stream socket, on 127.0.0.1 unless told otherwise; the one owner of its descriptor, closed in `deinit`.
///
/// Not `Sendable`: a socket belongs to the thread that made or accepted it.
/// Another thread may only `shutdown(2)` its raw descriptor through
/// `CatalogServer`'s registry, which a socket leaves before it closes.
final class Socket {
  let descriptor: Int32

  init(descriptor: Int32) {
    self.descriptor = descriptor
    #if canImport(Darwin)
      var on: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  deinit { close(descriptor) }

  // MARK: Listening

  /// A socket listening at `port` (0 picks a free one) on one IPv4 address: 127.0.0.1 unless given another.
  ///
  /// - Parameter address: A dotted IPv4 address, such as `0.0.0.0` for every interface.
  static func listen(port: UInt16, address: String = "127.0.0.1", backlog: Int32 = 128) throws(CatalogServerError)
    -> Socket
  {
    guard let ipv4 = ipv4Address(address) else {
      throw .cannotListen(port: port, reason: "\(address) is not an IPv4 address such as 0.0.0.0 or 192.168.1.20")
    }
    #if canImport(Darwin)
      let kind = SOCK_STREAM
    #else
      let kind = Int32(SOCK_STREAM.rawValue)
    #endif
    let descriptor = socket(AF_INET, kind, 0)
    guard descriptor >= 0 else { throw .cannotListen(port: port, reason: Self.lastError()) }
    let socket = Socket(descriptor: descriptor)
    var on: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    var address = socketAddress(port: port, ipv4: ipv4)
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else { throw .cannotListen(port: port, reason: Self.lastError()) }
    guard systemListen(descriptor, backlog) == 0 else { throw .cannotListen(port: port, reason: Self.lastError()) }
    return socket
  }

  /// A connection to 127.0.0.1:`port`, or `nil` when it is refused.
  static func connect(toLoopbackPort port: UInt16) -> Socket? {
    #if canImport(Darwin)
      let kind = SOCK_STREAM
    #else
      let kind = Int32(SOCK_STREAM.rawValue)
    #endif
    let descriptor = socket(AF_INET, kind, 0)
    guard descriptor >= 0 else { return nil }
    let socket = Socket(descriptor: descriptor)
    var address = socketAddress(port: port, ipv4: loopback)
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    return connected == 0 ? socket : nil
  }

  /// 127.0.0.1, in network byte order.
  private static let loopback = UInt32(0x7F00_0001).bigEndian

  /// A dotted IPv4 address in network byte order, or `nil` when `text` is not one.
  static func ipv4Address(_ text: String) -> UInt32? {
    var address = in_addr()
    guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
    return address.s_addr
  }

  private static func socketAddress(port: UInt16, ipv4: UInt32) -> sockaddr_in {
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = ipv4
    return address
  }

  /// The port the socket is bound to.
  var localPort: UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return result == 0 ? UInt16(bigEndian: address.sin_port) : 0
  }

  /// The next connection waiting, or `nil` when none is (or accepting failed).
  func accept() -> Socket? {
    let client = systemAccept(descriptor, nil, nil)
    guard client >= 0 else { return nil }
    var on: Int32 = 1
    setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    return Socket(descriptor: client)
  }

  // MARK: Reading and writing

  /// What waiting for bytes found.
  enum Readiness {
    case readable
    case timedOut
  }

  /// Waits until bytes (or the end of the stream) can be read, for at most `milliseconds`.
  func waitReadable(milliseconds: Int32) -> Readiness {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let result = poll(&entry, 1, milliseconds)
      if result < 0 && errno == EINTR { continue }
      // An error or a hang-up counts as readable: the read that follows reports it.
      return result == 0 ? .timedOut : .readable
    }
  }

  /// Reads what is there, up to `maximum` bytes, into `buffer`; 0 means the peer
  /// closed the connection, and a failure also counts as 0.
  func receive(into buffer: inout [UInt8], maximum: Int = 16_384) -> Int {
    var chunk = [UInt8](repeating: 0, count: maximum)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return 0 }
      buffer.append(contentsOf: chunk[0..<count])
      return count
    }
  }

  /// Writes every byte; `false` when the peer has gone.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        systemSend(descriptor, raw.baseAddress! + offset, bytes.count - offset, Self.sendFlags)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Closes both directions now, so a thread blocked on this socket wakes up.
  static func shutdown(descriptor: Int32) {
    #if canImport(Darwin)
      _ = Darwin.shutdown(descriptor, SHUT_RDWR)
    #else
      _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    #endif
  }

  /// Says "no more bytes from this side" while still reading the other's.
  func finishWriting() {
    #if canImport(Darwin)
      _ = Darwin.shutdown(descriptor, SHUT_WR)
    #else
      _ = Glibc.shutdown(descriptor, Int32(SHUT_WR))
    #endif
  }

  #if canImport(Darwin)
    private static let sendFlags: Int32 = 0
  #else
    private static let sendFlags = Int32(MSG_NOSIGNAL)
  #endif

  static func lastError() -> String {
    String(cString: strerror(errno))
  }
}

// `listen`, `accept`, `connect` and `send` are also names of this type's methods; these
// reach the C functions without a module prefix that differs by platform.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemAccept(
  _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?
) -> Int32 {
  accept(descriptor, address, length)
}
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
  send(descriptor, bytes, count, flags)
}
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
  connect(descriptor, address, length)
}
