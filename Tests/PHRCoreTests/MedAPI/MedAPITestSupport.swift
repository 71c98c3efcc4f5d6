import Foundation
import Testing
@testable import PHRCore

/// Shared pieces of the medicine-lookup tests: configurations pointing at a loopback server,
/// fast retry policies, a server that plays the project's cassettes, and readers for the real
/// responses in the third-party corpus (`CorpusData`, "api": read in place, never copied).
enum MedAPITest {
    /// The project's own cassettes.
    static let cassettes = "\(TestSupport.packageRoot)/Tests/Fixtures/cassettes"
    static let schema = "\(TestSupport.packageRoot)/Schemas/cassette-v1.schema.json"
    /// Real RxNav and openFDA responses (see its README).
    static let sharedAPI = CorpusData.path("api")

    /// Retries that keep tests fast but still wait measurably.
    static let fastRetry = RetryPolicy(maxAttempts: 3, baseDelay: 0.05, maxDelay: 0.2, maxRetryAfter: 5, maxTotalWait: 10)

    /// Limits far above what tests send, so only the rate-limit test waits for tokens.
    static let unlimited: [MedAPIService: RateLimit] = [
        .rxnav: RateLimit(perSecond: 10_000, burst: 10_000, perDay: nil),
        .openFDA: RateLimit(perSecond: 10_000, burst: 10_000, perDay: nil),
    ]

    static func configuration(_ server: LoopbackHTTPServer, mode: MedAPIConfiguration.Mode = .live, offline: Bool = false,
                              cassettes: String? = nil, apiKey: String? = nil, timeout: TimeInterval = 5,
                              retry: RetryPolicy = fastRetry, rateLimits: [MedAPIService: RateLimit]? = unlimited,
                              lifetimes: CacheLifetimes = CacheLifetimes()) -> MedAPIConfiguration {
        let base = URL(string: server.baseURL)!
        return MedAPIConfiguration(mode: mode, offline: offline, cassetteDirectory: cassettes,
                                   baseURLs: [.rxnav: base, .openFDA: base], openFDAAPIKey: apiKey, phrVersion: "9.9.9-test",
                                   timeout: timeout, retry: retry, rateLimits: rateLimits, lifetimes: lifetimes)
    }

    static func lookup(_ server: LoopbackHTTPServer, vault: Vault, offline: Bool = false,
                       now: @escaping @Sendable () -> Date = { Date() }) throws -> MedicineLookup {
        try MedicineLookup(configuration: configuration(server, offline: offline), cache: MedAPICache(vault: vault),
                           limiter: RateLimiter(), now: now)
    }

    static func client(_ configuration: MedAPIConfiguration, transport: HTTPTransport? = nil,
                       limiter: RateLimiter = RateLimiter()) -> MedAPIHTTPClient {
        MedAPIHTTPClient(configuration: configuration, transport: transport ?? SocketHTTPTransport(timeout: configuration.timeout),
                         limiter: limiter)
    }

    /// The service a request path belongs to.
    static func service(of path: String) -> MedAPIService {
        path.hasPrefix("/REST/") ? .rxnav : .openFDA
    }

    /// A loopback server answering from a cassette directory. A request nobody recorded gets
    /// HTTP 418 (which every client reports as an error) and is listed in `misses`.
    final class CassetteServer: @unchecked Sendable {
        let server: LoopbackHTTPServer
        private let lock = NSLock()
        private var missed: [String] = []

        init(directory: String = MedAPITest.cassettes) throws {
            let library = CassetteLibrary(directory: directory)
            let box = Box()
            server = try LoopbackHTTPServer { request in
                let base = URL(string: "http://127.0.0.1")!
                let asked = HTTPRequest(service: MedAPITest.service(of: request.path), path: request.path.removingPercentEncoding ?? request.path,
                                        query: QueryString.decode(request.query), baseURL: base)
                if let response = try? library.response(for: asked) {
                    return .respond(status: response.status, headers: response.headers, body: response.body)
                }
                box.server?.recordMiss(asked.matchKey)
                return .json(418, #"{"error":{"code":"NOT_RECORDED","message":"no cassette interaction"}}"#)
            }
            box.server = self
        }

        var misses: [String] {
            lock.lock()
            defer { lock.unlock() }
            return missed
        }

        fileprivate func recordMiss(_ key: String) {
            lock.lock()
            missed.append(key)
            lock.unlock()
        }

        private final class Box: @unchecked Sendable {
            weak var server: CassetteServer?
        }
    }

    // MARK: The shared real responses

    static func sharedFile(_ name: String) throws -> Data {
        let path = "\(sharedAPI)/\(name)"
        return try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
    }

    /// The interactions of the VCR (YAML) cassette of openFDA errors: status and body text.
    /// A reader for just this shape: `status_code: N`, then a `string: |-` block of the body.
    static func vcrInteractions(_ name: String) throws -> [(status: Int, body: String)] {
        let text = String(decoding: try sharedFile(name), as: UTF8.self)
        var result: [(Int, String)] = []
        var status: Int?
        var lines = text.components(separatedBy: "\n")[...]
        while let line = lines.popFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("status_code:") {
                status = Int(trimmed.dropFirst("status_code:".count).trimmingCharacters(in: .whitespaces))
            } else if trimmed == "string: |-", let current = status {
                let indent = line.prefix { $0 == " " }.count
                var body: [String] = []
                while let next = lines.first, next.prefix(while: { $0 == " " }).count > indent || next.isEmpty {
                    body.append(String(next.dropFirst(indent + 2)))
                    lines.removeFirst()
                }
                result.append((current, body.joined(separator: "\n")))
                status = nil
            }
        }
        return result
    }
}
