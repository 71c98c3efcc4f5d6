import CPHROpenSSL
import CPHRZlib
import Foundation
import Glibc

/// The network: HTTP/1.1 over a socket, with TLS from the system's OpenSSL and gzip from zlib.
///
/// phr asks two JSON APIs a handful of GET requests, so it speaks just that much HTTP itself
/// rather than linking URLSession (libcurl, LDAP, GSSAPI and more, which doubled the time every
/// `phr` command took to start). What it does:
/// - TLS 1.2 or later, the server's certificate verified against the system's trust store and
///   checked to name the host (`SSL_set1_host`), SNI sent;
/// - one request per connection (`Connection: close`), `Accept-Encoding: gzip`, bodies by
///   Content-Length, chunked transfer coding or end of stream, at most 32 MiB decompressed;
/// - a timeout on connecting and on every wait for data, and an overall deadline;
/// - redirects followed (up to 5) only to https or back to loopback, never to plain http;
/// - nothing cached and nothing written to disk: answers are cached by phr, in the vault.
public final class SocketHTTPTransport: HTTPTransport, @unchecked Sendable {
    public var usesNetwork: Bool { true }

    private let timeout: TimeInterval
    private let caFile: String?

    /// - Parameter caFile: trust only this CA bundle (tests with their own CA); nil for the
    ///   system's trust store.
    public init(timeout: TimeInterval, caFile: String? = nil) {
        self.timeout = max(0.05, timeout)
        self.caFile = caFile
    }

    static let maximumBody = 32 << 20
    static let maximumHeader = 64 << 10
    static let maximumRedirects = 5

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        try send(method: request.method, url: request.wireURL, headers: request.headers, body: nil, timeout: request.timeout)
    }

    /// Sends one request with an optional body (reminder channels POST theirs). Redirects are
    /// followed only for requests without a body: a POST is never replayed somewhere else.
    /// `total`, when given, is the whole exchange's deadline (a reminder channel's 10 seconds:
    /// a server that drips a byte every few seconds keeps no request longer); else it is four
    /// waits, at least a minute (a drug label is large).
    public func send(method: String, url: URL, headers: [String: String], body: Data?, timeout requestTimeout: TimeInterval,
                     total: TimeInterval? = nil) throws -> HTTPResponse {
        let perWait = max(0.05, min(requestTimeout, timeout))
        let deadline = Date().addingTimeInterval(total ?? max(perWait * 4, 60))
        var url = url
        for _ in 0...Self.maximumRedirects {
            let response = try exchange(url: url, method: method, headers: headers, body: body, perWait: perWait, deadline: deadline)
            guard body == nil, [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location") else {
                return response
            }
            guard let next = URL(string: location, relativeTo: url)?.absoluteURL, Self.mayFollow(next) else {
                throw TransportFailure(.unreachable, "\(url.host ?? "the server") redirected phr somewhere it will not follow")
            }
            url = next
        }
        throw TransportFailure(.unreachable, "\(url.host ?? "the server") redirected phr too many times")
    }

    /// Redirects may lead to https anywhere, or to plain http on loopback only, because a
    /// request carries a medicine name.
    static func mayFollow(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return MedAPIConfiguration.isLoopback(url.host ?? "")
        default: return false
        }
    }

    private func exchange(url: URL, method: String, headers: [String: String], body: Data?, perWait: TimeInterval,
                          deadline: Date) throws -> HTTPResponse {
        guard let host = url.host, let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw TransportFailure(.unreachable, "'\(url.absoluteString)' is not an http(s) URL")
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let connection = try Connection(host: host, port: port, tls: scheme == "https", caFile: caFile,
                                        perWait: perWait, deadline: deadline)
        defer { connection.close() }
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        var head = "\(method) \(target) HTTP/1.1\r\n"
        head += "Host: \(url.port.map { "\(host):\($0)" } ?? host)\r\n"
        head += "Accept-Encoding: gzip\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key })
            where !["host", "connection", "accept-encoding", "content-length"].contains(name.lowercased()) {
            head += "\(name): \(value)\r\n"
        }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try connection.write(Array(head.utf8) + (body.map { Array($0) } ?? []))
        var reader = ResponseReader(connection: connection, host: host)
        return try reader.read()
    }
}

/// One TCP connection, with TLS when asked, and timeouts on every wait.
private final class Connection {
    let descriptor: Int32
    let host: String
    let perWait: TimeInterval
    let deadline: Date
    private var ssl: OpaquePointer?
    private var context: OpaquePointer?

    init(host: String, port: Int, tls: Bool, caFile: String?, perWait: TimeInterval, deadline: Date) throws {
        self.host = host
        self.perWait = perWait
        self.deadline = deadline
        descriptor = try Self.connect(host: host, port: port, timeout: perWait)
        if tls {
            do {
                try startTLS(caFile: caFile)
            } catch {
                close()
                throw error
            }
        }
    }

    /// Resolves `host` and connects to the first address that answers within `timeout`.
    static func connect(host: String, port: Int, timeout: TimeInterval) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let status = getaddrinfo(bare, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw TransportFailure(.unreachable, "cannot resolve \(host) (no network?)")
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = ECONNREFUSED
        var current: UnsafeMutablePointer<addrinfo>? = first
        while let address = current {
            current = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
                            address.pointee.ai_protocol)
            guard fd >= 0 else { lastError = errno; continue }
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
                lastError = errno
                Glibc.close(fd)
                continue
            }
            var poll = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = Glibc.poll(&poll, 1, Int32(timeout * 1000))
            var socketError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
            if ready == 1 && socketError == 0 {
                _ = fcntl(fd, F_SETFL, flags)
                return fd
            }
            lastError = ready == 0 ? ETIMEDOUT : socketError
            Glibc.close(fd)
        }
        if lastError == ETIMEDOUT { throw TransportFailure(.timedOut, "no answer from \(host) (timed out)") }
        if lastError == ECONNREFUSED { throw TransportFailure(.unreachable, "\(host) refused the connection") }
        throw TransportFailure(.unreachable, "cannot connect to \(host): \(String(cString: strerror(lastError)).lowercased())")
    }

    private func startTLS(caFile: String?) throws {
        guard let context = phr_tls_client_context(caFile) else {
            throw TransportFailure(.unreachable, "cannot set up TLS (no CA certificates?)")
        }
        self.context = context
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let isAddress = bare.contains(":") || bare.split(separator: ".").allSatisfy { UInt8($0) != nil }
        guard let ssl = phr_tls_session(context, descriptor, bare, isAddress ? 1 : 0) else {
            throw TransportFailure(.unreachable, "cannot set up TLS for \(host)")
        }
        self.ssl = ssl
        while true {
            let result = SSL_connect(ssl)
            if result == 1 { return }
            let error = SSL_get_error(ssl, result)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE {
                try wait(forWriting: error == SSL_ERROR_WANT_WRITE)
                continue
            }
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                let reason = String(cString: X509_verify_cert_error_string(Int(verify))).lowercased()
                throw TransportFailure(.unreachable, "the certificate of \(host) is not trusted (\(reason))")
            }
            throw TransportFailure(.unreachable, "the secure connection to \(host) failed (TLS)")
        }
    }

    /// Waits until the socket is readable (or writable) within the per-wait timeout and the
    /// overall deadline.
    func wait(forWriting: Bool = false) throws {
        let remaining = min(perWait, deadline.timeIntervalSinceNow)
        guard remaining > 0 else { throw TransportFailure(.timedOut, "no answer from \(host) (timed out)") }
        var poll = pollfd(fd: descriptor, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0)
        while true {
            let ready = Glibc.poll(&poll, 1, Int32(max(1, remaining * 1000)))
            if ready > 0 { return }
            if ready == 0 { throw TransportFailure(.timedOut, "no answer from \(host) (timed out)") }
            if errno != EINTR { throw TransportFailure(.connectionLost, "the connection to \(host) broke off") }
        }
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            try wait(forWriting: true)
            let written: Int = bytes.withUnsafeBytes { buffer in
                let start = buffer.baseAddress! + offset
                if let ssl { return Int(SSL_write(ssl, start, Int32(bytes.count - offset))) }
                return Glibc.send(descriptor, start, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 {
                if let ssl, [SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE].contains(SSL_get_error(ssl, Int32(written))) { continue }
                if ssl == nil && (errno == EINTR || errno == EAGAIN) { continue }
                throw TransportFailure(.connectionLost, "the connection to \(host) broke off")
            }
            offset += written
        }
    }

    /// Reads what is available (waiting for at least one byte); an empty result means the peer
    /// closed the connection.
    func read(into buffer: inout [UInt8]) throws -> Int {
        while true {
            if let ssl, SSL_pending(ssl) == 0 { try wait() } else if ssl == nil { try wait() }
            let count: Int = buffer.withUnsafeMutableBytes { bytes in
                if let ssl { return Int(SSL_read(ssl, bytes.baseAddress, Int32(bytes.count))) }
                return Glibc.recv(descriptor, bytes.baseAddress, bytes.count, 0)
            }
            if count > 0 { return count }
            if let ssl {
                let error = SSL_get_error(ssl, Int32(count))
                if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { continue }
                if error == SSL_ERROR_ZERO_RETURN { return 0 }
                // Servers often close without a TLS close_notify after a Connection: close
                // answer; the body framing tells whether anything is missing.
                if error == SSL_ERROR_SYSCALL && count == 0 { return 0 }
                throw TransportFailure(.connectionLost, "the connection to \(host) broke off")
            }
            if count == 0 { return 0 }
            if errno == EINTR || errno == EAGAIN { continue }
            throw TransportFailure(.connectionLost, "the connection to \(host) broke off")
        }
    }

    func close() {
        if let ssl {
            SSL_shutdown(ssl)
            SSL_free(ssl)
            self.ssl = nil
        }
        if let context {
            SSL_CTX_free(context)
            self.context = nil
        }
        Glibc.close(descriptor)
    }
}

/// Parses one HTTP/1.1 response: status line, headers, then the body by its framing.
private struct ResponseReader {
    let connection: Connection
    let host: String
    var buffer: [UInt8] = []
    var scratch = [UInt8](repeating: 0, count: 64 << 10)
    var closed = false

    init(connection: Connection, host: String) {
        self.connection = connection
        self.host = host
    }

    var brokeOff: TransportFailure { TransportFailure(.connectionLost, "the connection to \(host) broke off") }

    /// Reads more bytes into `buffer`; false when the peer closed the connection.
    mutating func fill() throws -> Bool {
        guard !closed else { return false }
        let count = try connection.read(into: &scratch)
        if count == 0 {
            closed = true
            return false
        }
        buffer.append(contentsOf: scratch[0..<count])
        return true
    }

    mutating func read() throws -> HTTPResponse {
        // Head: up to the first blank line.
        var headEnd: Int?
        while headEnd == nil {
            if let range = Self.find([13, 10, 13, 10], in: buffer) {
                headEnd = range
            } else {
                guard buffer.count < SocketHTTPTransport.maximumHeader else {
                    throw TransportFailure(.connectionLost, "\(host) sent an oversized answer")
                }
                guard try fill() else {
                    throw buffer.isEmpty ? TransportFailure(.connectionLost, "\(host) closed the connection without an answer") : brokeOff
                }
            }
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw TransportFailure(.connectionLost, "\(host) did not answer in HTTP")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        var body: [UInt8]
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try readChunked()
        } else if let text = headers["content-length"], let length = Int(text), length >= 0 {
            guard length <= SocketHTTPTransport.maximumBody else {
                throw TransportFailure(.connectionLost, "\(host) sent an oversized answer")
            }
            while buffer.count < length {
                guard try fill() else { throw brokeOff }
            }
            body = Array(buffer[0..<length])
        } else {
            while try fill() {
                guard buffer.count <= SocketHTTPTransport.maximumBody else {
                    throw TransportFailure(.connectionLost, "\(host) sent an oversized answer")
                }
            }
            body = buffer
        }
        if headers["content-encoding"]?.lowercased() == "gzip" {
            body = try Self.gunzip(body, host: host)
            headers["content-encoding"] = nil
        }
        return HTTPResponse(status: status, headers: headers, body: Data(body))
    }

    /// The longest chunk-size line read (with its extensions).
    static let maximumChunkLine = 4096

    /// Transfer-Encoding: chunked (RFC 9112 section 7.1); trailers are read and ignored.
    mutating func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            var lineEnd = Self.find([13, 10], in: buffer)
            while lineEnd == nil {
                // A chunk-size line is a few hex digits and perhaps an extension: one that never
                // ends grew phr to 100 MB.
                guard buffer.count <= Self.maximumChunkLine else {
                    throw TransportFailure(.connectionLost, "\(host) sent a malformed chunked answer")
                }
                guard try fill() else { throw brokeOff }
                lineEnd = Self.find([13, 10], in: buffer)
            }
            let sizeText = String(decoding: buffer[0..<lineEnd!], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw TransportFailure(.connectionLost, "\(host) sent a malformed chunked answer")
            }
            buffer.removeFirst(lineEnd! + 2)
            if size == 0 { return body }
            guard body.count + size <= SocketHTTPTransport.maximumBody else {
                throw TransportFailure(.connectionLost, "\(host) sent an oversized answer")
            }
            while buffer.count < size + 2 {
                guard try fill() else { throw brokeOff }
            }
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }

    /// gzip decoding with a size cap, so a small hostile answer cannot inflate to gigabytes.
    static func gunzip(_ compressed: [UInt8], host: String) throws -> [UInt8] {
        var stream = z_stream()
        guard phr_inflate_init_gzip(&stream) == Z_OK else {
            throw TransportFailure(.connectionLost, "cannot decompress the answer of \(host)")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = compressed
        return try input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                guard output.count <= SocketHTTPTransport.maximumBody else {
                    throw TransportFailure(.connectionLost, "\(host) sent an oversized answer")
                }
                if status == Z_STREAM_END { return output }
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else {
                    throw TransportFailure(.connectionLost, "\(host) sent a damaged compressed answer")
                }
            }
        }
    }
}
