import Foundation
import Glibc

/// TCP on 127.0.0.1 for the tests' servers and clients, on Glibc sockets (no package dependency).
public enum Loopback {
    /// Why a loopback socket could not be set up.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A listening socket on 127.0.0.1 at a port the kernel picks, and that port. The caller
    /// closes the descriptor.
    public static func listen(backlog: Int32 = 64) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard let port = bind(fd), Glibc.listen(fd, backlog) == 0 else {
            let error = errno
            close(fd)
            throw Failure(description: "bind or listen on 127.0.0.1: errno \(error)")
        }
        return (fd, port)
    }

    /// A port nothing listens on right now (bound to 127.0.0.1 and released): a server started
    /// just after takes it, and a client connecting to it is refused.
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return bind(fd) ?? 0
    }

    /// True when something accepts connections on `port`.
    public static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = Self.address(port: port)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Binds `fd` to 127.0.0.1 at a port the kernel picks; that port, or nil.
    private static func bind(_ fd: Int32) -> Int? {
        var address = Self.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    private static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
