import Foundation
import Glibc

/// A small HTTP/1.1 server on 127.0.0.1 for the medicine-lookup tests, on Glibc sockets (no
/// package dependency), so requests go through the real URLSession transport: URL building,
/// headers, status codes, retries, timeouts and rate limiting are exercised for real.
///
/// Each connection is served on its own thread and closed after one response
/// (`Connection: close`). The handler decides per request: answer, stall (accept and say
/// nothing, to test timeouts), or hang up. It counts connections, so a test can prove that no
/// socket was opened at all.
final class LoopbackHTTPServer: @unchecked Sendable {
    struct Request: Sendable {
        var method: String
        /// The path without the query, percent-encoded as sent.
        var path: String
        /// The raw query string, as sent.
        var query: String
        /// Header names lowercased.
        var headers: [String: String]
        var receivedAt: Date

        var queryItems: [String: String] {
            var items: [String: String] = [:]
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                let decode = { (text: String) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text }
                items[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
            }
            return items
        }
    }

    enum Reply: Sendable {
        case respond(status: Int, headers: [String: String], body: Data)
        /// Accept the request and send nothing for this long, then close.
        case stall(TimeInterval)
        /// Close the connection without a response.
        case hangUp

        static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Reply {
            .respond(status: status, headers: ["Content-Type": "application/json"].merging(headers) { $1 }, body: Data(text.utf8))
        }
    }

    let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var connections = 0
    private var received: [Request] = []
    private var stopped = false
    private let acceptDone = DispatchSemaphore(value: 0)

    init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Connections accepted so far.
    var connectionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections
    }

    /// Requests read so far, in order.
    var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Stops accepting; later connections are refused. Returns once the listening socket is
    /// closed. Only the accept thread closes it, after its last accept(): were it closed here,
    /// the descriptor number could be reused by another test's server while the old thread
    /// still accepts on it, stealing that server's connections.
    func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptDone.wait()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func acceptLoop() {
        defer {
            close(listener)
            acceptDone.signal()
        }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if isStopped { return }
                // EINTR, ECONNABORTED, EMFILE...: passing troubles; try again shortly.
                usleep(1_000)
                continue
            }
            lock.lock()
            connections += 1
            lock.unlock()
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = readRequest(client) else { return }
        lock.lock()
        received.append(request)
        lock.unlock()
        switch handler(request) {
        case .hangUp:
            return
        case .stall(let seconds):
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline && !isStopped { usleep(20_000) }
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
            var all = headers
            all["Content-Length"] = String(body.count)
            all["Connection"] = "close"
            for (name, value) in all.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            head += "\r\n"
            write(client, Data(head.utf8) + body)
        }
    }

    private func readRequest(_ client: Int32) -> Request? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator = Data("\r\n\r\n".utf8)
        while buffer.range(of: terminator) == nil {
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            if buffer.count > 1 << 20 { return nil }
        }
        let head = String(decoding: buffer[..<buffer.range(of: terminator)!.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        let target = String(requestLine[1])
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Request(method: String(requestLine[0]), path: parts[0], query: parts.count > 1 ? parts[1] : "",
                       headers: headers, receivedAt: Date())
    }

    private func write(_ client: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                // MSG_NOSIGNAL: a client that hung up must not kill the test process with SIGPIPE.
                let sent = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
