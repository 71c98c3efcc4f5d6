import Foundation
import Glibc

/// A small HTTP/1.1 server on 127.0.0.1 for the tests of phr's HTTP clients (the medicine
/// lookups, the reminder channels), on Glibc sockets (no package dependency), so requests go
/// through the real transport: URL building, headers, bodies, status codes, retries, timeouts
/// and rate limiting are exercised for real.
///
/// Each connection is served on its own thread and closed after one response
/// (`Connection: close`). The handler decides per request: answer, stall (accept and say
/// nothing, to test timeouts), or hang up. It records every request, head and body, and counts
/// connections, so a test can prove that no socket was opened at all.
public final class LoopbackHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        /// The request target as sent: the path and, after "?", the query.
        public var target: String
        /// Header names lowercased.
        public var headers: [String: String]
        /// The request line and the headers as sent, without the blank line that ends them.
        public var head: Data
        /// The body: as many bytes as Content-Length says (fewer if the client hung up).
        public var body: Data
        public var receivedAt: Date

        /// The path without the query, percent-encoded as sent.
        public var path: String { String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]) }

        /// The raw query string, as sent.
        public var query: String {
            let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count > 1 ? String(parts[1]) : ""
        }

        public var queryItems: [String: String] {
            var items: [String: String] = [:]
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                let decode = { (text: String) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text }
                items[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
            }
            return items
        }
    }

    public enum Reply: Sendable {
        case respond(status: Int, headers: [String: String], body: Data)
        /// Accept the request and send nothing for this long, then close.
        case stall(TimeInterval)
        /// Close the connection without a response.
        case hangUp

        public static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Reply {
            .respond(status: status, headers: ["Content-Type": "application/json"].merging(headers) { $1 }, body: Data(text.utf8))
        }
    }

    /// The most bytes of a request's head and of its body that are read.
    static let maximumHeadBytes = 1 << 20
    static let maximumBodyBytes = 16 << 20

    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var connections = 0
    private var received: [Request] = []
    private let stopped = StopFlag()
    private let acceptDone = DispatchSemaphore(value: 0)

    public init(handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        (listener, port) = try Loopback.listen()
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A server that answers each request "ok" with the next of `statuses`, then with 200.
    public convenience init(statuses: [Int] = []) throws {
        let queue = StatusQueue(statuses)
        try self.init { _ in .respond(status: queue.next(), headers: [:], body: Data("ok".utf8)) }
    }

    deinit { stop() }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Connections accepted so far.
    public var connectionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections
    }

    /// Requests read so far, in order.
    public var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Stops accepting; later connections are refused. Returns once the listening socket is
    /// closed. Only the accept thread closes it, after its last accept(): were it closed here,
    /// the descriptor number could be reused by another test's server while the old thread
    /// still accepts on it, stealing that server's connections.
    public func stop() {
        guard stopped.set() else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptDone.wait()
    }

    private func acceptLoop() {
        defer {
            close(listener)
            acceptDone.signal()
        }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if stopped.isSet { return }
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
            while Date() < deadline && !stopped.isSet { usleep(20_000) }
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
        var chunk = [UInt8](repeating: 0, count: 65536)
        func fill() -> Bool {
            let count = recv(client, &chunk, chunk.count, 0)
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        let terminator = Data("\r\n\r\n".utf8)
        var end: Range<Data.Index>?
        while end == nil {
            guard buffer.count <= Self.maximumHeadBytes, fill() else { return nil }
            end = buffer.range(of: terminator)
        }
        guard let end else { return nil }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = min(max(Int(headers["content-length"] ?? "0") ?? 0, 0), Self.maximumBodyBytes)
        while buffer.count - end.upperBound < length { if !fill() { break } }
        let body = buffer[end.upperBound..<min(buffer.count, end.upperBound + length)]
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
                       head: Data(head.utf8), body: Data(body), receivedAt: Date())
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

    /// The statuses still to answer with, taken one a request from any connection's thread.
    private final class StatusQueue: @unchecked Sendable {
        private let lock = NSLock()
        private var statuses: [Int]

        init(_ statuses: [Int]) { self.statuses = statuses }

        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            return statuses.isEmpty ? 200 : statuses.removeFirst()
        }
    }
}
