import Foundation
import Testing
@testable import PHRCore

/// The transport and the good-citizen layer against a real HTTP server on loopback: URLs,
/// headers, gzip, status codes, retries with Retry-After, timeouts, refused connections, rate
/// limits and daily budgets, all over real sockets.
@Suite("MedAPI transport", .serialized)
struct MedAPITransportTests {
    @Test("URLs, query encoding, User-Agent, gzip and the API key on the wire only")
    func requestShape() throws {
        let server = try LoopbackHTTPServer { request in
            let body = request.path.hasPrefix("/REST/") ? #"{"idGroup":{"name":"x","rxnormId":["153165"]}}"#
                : #"{"meta":{"results":{"total":0}},"results":[]}"#
            return .respond(status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                            body: Gzip.stored(Data(body.utf8)))
        }
        defer { server.stop() }
        let http = MedAPITest.client(MedAPITest.configuration(server, apiKey: "KEY-123/secret"))

        let rxcuis = try RxNavClient(http: http).rxcuis(forName: "Lipitor 20 mg+x & \"y\"")
        #expect(rxcuis.value == ["153165"], "the gzip body was decompressed")
        let labels = try OpenFDAClient(http: http).labels(search: OpenFDAClient.phrase("openfda.brand_name", "Lipitor \"XR\""), limit: 3)
        #expect(labels.value.results.isEmpty)

        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].method == "GET")
        #expect(requests[0].path == "/REST/rxcui.json")
        #expect(requests[0].query == "name=Lipitor+20+mg%2Bx+%26+%22y%22&search=2")
        #expect(requests[0].queryItems == ["name": "Lipitor 20 mg+x & \"y\"", "search": "2"])
        #expect(requests[0].headers["user-agent"] == "phr/9.9.9-test (personal health records command-line tool; Swift on Linux)")
        #expect(requests[0].headers["accept-encoding"]?.contains("gzip") == true)
        #expect(requests[0].headers["accept"] == "application/json")
        #expect(requests[0].queryItems["api_key"] == nil, "RxNav never gets the openFDA key")

        #expect(requests[1].path == "/drug/label.json")
        #expect(requests[1].queryItems["search"] == #"openfda.brand_name:"Lipitor XR""#, "quotes that would end the phrase are removed")
        #expect(requests[1].queryItems["sort"] == "effective_time:desc")
        #expect(requests[1].queryItems["limit"] == "3")
        #expect(requests[1].queryItems["api_key"] == "KEY-123/secret")
        #expect(!labels.source.contains("KEY-123"))
        #expect(labels.source.hasSuffix("api_key=REDACTED"))
    }

    @Test("a 429 with Retry-After is waited out, then the answer is used")
    func retryAfter() throws {
        let calls = Counter()
        let server = try LoopbackHTTPServer { _ in
            calls.next() == 1 ? .json(429, #"{"error":{"code":"OVER_RATE_LIMIT","message":"slow down"}}"#, headers: ["Retry-After": "1"])
                : .json(200, #"{"meta":{"results":{"total":0}},"results":[]}"#)
        }
        defer { server.stop() }
        let http = MedAPITest.client(MedAPITest.configuration(server))
        let started = Date()
        _ = try OpenFDAClient(http: http).enforcementReports(search: "x")
        let elapsed = Date().timeIntervalSince(started)
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(elapsed >= 1.0, "waited \(elapsed)s")
        #expect(requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt) >= 1.0)
        #expect(elapsed < 4)
    }

    @Test("a stalled server times out, is retried, then reported as unavailable (exit 69)")
    func stalledServer() throws {
        let server = try LoopbackHTTPServer { _ in .stall(10) }
        defer { server.stop() }
        let configuration = MedAPITest.configuration(server, timeout: 1, retry: RetryPolicy(maxAttempts: 2, baseDelay: 0.05, maxDelay: 0.1))
        let started = Date()
        do {
            _ = try RxNavClient(http: MedAPITest.client(configuration)).rxcuis(forName: "x")
            Issue.record("a stalled server must not answer")
        } catch let error as MedAPIError {
            guard case .unavailable(.rxnav, let reason) = error else { Issue.record("unexpected \(error)"); return }
            #expect(reason.contains("timed out"))
            #expect(reason.contains("2 attempts"))
            #expect(error.exitStatus == .unavailable)
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 2 && elapsed < 8, "two timeouts of 1s took \(elapsed)s")
        #expect(server.requests.count == 2)
    }

    @Test("a 5xx is retried, then reported with openFDA's message (exit 69)")
    func serverErrors() throws {
        let server = try LoopbackHTTPServer { _ in
            .json(503, #"{"error":{"code":"SERVER_ERROR","message":"Check your request and try again"}}"#)
        }
        defer { server.stop() }
        let http = MedAPITest.client(MedAPITest.configuration(server))
        #expect(throws: MedAPIError.serviceFailed(service: .openFDA, status: 503, message: "SERVER_ERROR: Check your request and try again")) {
            _ = try OpenFDAClient(http: http).labels(search: "x")
        }
        #expect(server.requests.count == MedAPITest.fastRetry.maxAttempts)
        #expect(MedAPIError.serviceFailed(service: .openFDA, status: 503, message: nil).exitStatus == .unavailable)
    }

    @Test("RxNav's 403 is its rate limit (exit 75); a long Retry-After is reported, not slept through")
    func rateLimitStatuses() throws {
        let server = try LoopbackHTTPServer { request in
            request.path.hasPrefix("/REST/") ? .json(403, "{}") : .json(429, "{}", headers: ["Retry-After": "7200"])
        }
        defer { server.stop() }
        let http = MedAPITest.client(MedAPITest.configuration(server))
        #expect(throws: MedAPIError.rateLimited(service: .rxnav, retryAfter: nil)) {
            _ = try RxNavClient(http: http).spellingSuggestions("x")
        }
        #expect(server.requests.count == MedAPITest.fastRetry.maxAttempts)

        let started = Date()
        do {
            _ = try OpenFDAClient(http: http).labels(search: "x")
            Issue.record("expected a rate limit")
        } catch let error as MedAPIError {
            #expect(error == .rateLimited(service: .openFDA, retryAfter: 7200))
            #expect(error.exitStatus == .temporaryFailure)
            #expect(error.hint?.description.hasPrefix("try again in 2h") == true)
            #expect(error.hint?.description.contains("PHR_OPENFDA_API_KEY") == true)
        }
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(server.requests.filter { $0.path.hasPrefix("/drug/") }.count == 1)
    }

    @Test("a refused API key is not retried")
    func invalidKey() throws {
        let server = try LoopbackHTTPServer { _ in
            .json(403, #"{"error":{"code":"API_KEY_INVALID","message":"An invalid api_key was supplied. Get one at https://api.fda.gov:443"}}"#)
        }
        defer { server.stop() }
        let http = MedAPITest.client(MedAPITest.configuration(server, apiKey: "wrong"))
        #expect(throws: MedAPIError.invalidAPIKey(message: "An invalid api_key was supplied. Get one at https://api.fda.gov:443")) {
            _ = try OpenFDAClient(http: http).labels(search: "x")
        }
        #expect(server.requests.count == 1)
    }

    @Test("a refused connection is unavailable at once (exit 69), without retries")
    func refused() throws {
        let server = try LoopbackHTTPServer { _ in .json(200, "{}") }
        server.stop()
        let http = MedAPITest.client(MedAPITest.configuration(server))
        let started = Date()
        do {
            _ = try RxNavClient(http: http).rxcuis(forName: "x")
            Issue.record("nothing listens")
        } catch let error as MedAPIError {
            guard case .unavailable(.rxnav, let reason) = error else { Issue.record("unexpected \(error)"); return }
            #expect(reason.contains("refused"))
        }
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test("a dropped connection is retried")
    func hangUp() throws {
        let calls = Counter()
        let server = try LoopbackHTTPServer { _ in
            calls.next() == 1 ? .hangUp : .json(200, #"{"idGroup":{"rxnormId":["1"]}}"#)
        }
        defer { server.stop() }
        let fetched = try RxNavClient(http: MedAPITest.client(MedAPITest.configuration(server))).rxcuis(forName: "x")
        #expect(fetched.value == ["1"])
        #expect(server.requests.count == 2)
    }

    @Test("the token bucket spaces requests to one host")
    func rateLimiting() throws {
        let server = try LoopbackHTTPServer { _ in .json(200, "{}") }
        defer { server.stop() }
        let limits: [MedAPIService: RateLimit] = [.rxnav: RateLimit(perSecond: 10, burst: 1, perDay: nil),
                                                  .openFDA: RateLimit(perSecond: 10, burst: 1, perDay: nil)]
        let http = MedAPITest.client(MedAPITest.configuration(server, rateLimits: limits))
        let started = Date()
        for index in 0..<6 { _ = try RxNavClient(http: http).spellingSuggestions("x\(index)") }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.45, "6 requests at 10/s with a burst of 1 took \(elapsed)s")
        // The server's clock sees the spacing too (thread scheduling blurs single gaps, not the span).
        let times = server.requests.map(\.receivedAt)
        let span = try #require(times.last).timeIntervalSince(try #require(times.first))
        #expect(times.count == 6)
        #expect(span >= 0.4, "5 gaps of 0.1s spanned \(span)s at the server")
    }

    @Test("the bucket's arithmetic: a burst goes at once, then one request per 1/rate seconds")
    func bucketArithmetic() {
        let clock = ManualClock()
        let limiter = RateLimiter(clock: { clock.now }, sleep: { _ in })
        let limit = RateLimit(perSecond: 4, burst: 2, perDay: nil)
        #expect(limiter.reserve(host: "a", limit: limit) == 0)
        #expect(limiter.reserve(host: "a", limit: limit) == 0)
        #expect(abs(limiter.reserve(host: "a", limit: limit) - 0.25) < 1e-9)
        #expect(abs(limiter.reserve(host: "a", limit: limit) - 0.5) < 1e-9)
        #expect(limiter.reserve(host: "b", limit: limit) == 0, "each host has its own bucket")
        clock.now += 10
        #expect(limiter.reserve(host: "a", limit: limit) == 0, "tokens come back, up to the burst")
    }

    @Test("a daily budget stops requests before they are sent (exit 75)")
    func dailyBudget() throws {
        let server = try LoopbackHTTPServer { _ in .json(200, #"{"meta":{},"results":[]}"#) }
        defer { server.stop() }
        let limits: [MedAPIService: RateLimit] = [.rxnav: RateLimit(perSecond: 1000, burst: 1000, perDay: nil),
                                                  .openFDA: RateLimit(perSecond: 1000, burst: 1000, perDay: 2)]
        let budget = MemoryBudget()
        let http = MedAPIHTTPClient(configuration: MedAPITest.configuration(server, rateLimits: limits),
                                    transport: SocketHTTPTransport(timeout: 5), limiter: RateLimiter(), budget: budget)
        _ = try OpenFDAClient(http: http).labels(search: "a")
        _ = try OpenFDAClient(http: http).labels(search: "b")
        do {
            _ = try OpenFDAClient(http: http).labels(search: "c")
            Issue.record("the third request is over the budget")
        } catch MedAPIError.rateLimited(.openFDA, let retryAfter) {
            #expect((retryAfter ?? 0) > 0 && (retryAfter ?? 0) <= 86_400, "until the next UTC day")
        }
        #expect(server.connectionCount == 2)
        _ = try RxNavClient(http: http).spellingSuggestions("x")
        #expect(budget.counts[.rxnav] == nil, "RxNav has no daily limit to count")
    }

    @Test("Retry-After as seconds and as an HTTP date; backoff grows with jitter and stops")
    func retryPolicy() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryPolicy.parseRetryAfter("120", now: now) == 120)
        #expect(RetryPolicy.parseRetryAfter(" 0 ", now: now) == 0)
        #expect(RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:13:27 GMT", now: now) == 7)
        #expect(RetryPolicy.parseRetryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.parseRetryAfter(nil, now: now) == nil)

        let policy = RetryPolicy(maxAttempts: 4, baseDelay: 1, maxDelay: 3, maxRetryAfter: 30, maxTotalWait: 100)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let first = policy.delay(afterAttempt: 1, retryAfter: nil, waitedSoFar: 0, using: &random)!
            #expect(first >= 0.5 && first <= 1)
            let second = policy.delay(afterAttempt: 2, retryAfter: nil, waitedSoFar: 0, using: &random)!
            #expect(second >= 1 && second <= 2)
            let capped = policy.delay(afterAttempt: 3, retryAfter: nil, waitedSoFar: 0, using: &random)!
            #expect(capped >= 1.5 && capped <= 3)
        }
        #expect(policy.delay(afterAttempt: 4, retryAfter: nil, waitedSoFar: 0, using: &random) == nil)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 31, waitedSoFar: 0, using: &random) == nil)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 2, waitedSoFar: 99, using: &random) == nil)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 5, waitedSoFar: 0, using: &random)! >= 5)
    }
}

/// Counts calls from the server's threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

final class ManualClock: @unchecked Sendable {
    var now: Double = 0
}

final class MemoryBudget: RequestBudget, @unchecked Sendable {
    private(set) var counts: [MedAPIService: Int] = [:]

    func countRequest(to service: MedAPIService, day: String) throws -> Int {
        counts[service, default: 0] += 1
        return counts[service]!
    }
}

/// gzip (RFC 1952) with stored deflate blocks: a real gzip stream without a compressor, so the
/// test server can send `Content-Encoding: gzip` bodies.
enum Gzip {
    static func stored(_ data: Data) -> Data {
        var out = Data([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff])
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final = offset + count == bytes.count
            out.append(final ? 0x01 : 0x00)
            out.append(contentsOf: [UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8((~count >> 8) & 0xff)])
            out.append(contentsOf: bytes[offset..<(offset + count)])
            offset += count
        } while offset < bytes.count
        let crc = CRC32.checksum(bytes)
        let size = UInt32(truncatingIfNeeded: bytes.count)
        for value in [crc, size] {
            out.append(contentsOf: [UInt8(value & 0xff), UInt8((value >> 8) & 0xff), UInt8((value >> 16) & 0xff), UInt8(value >> 24)])
        }
        return out
    }
}
