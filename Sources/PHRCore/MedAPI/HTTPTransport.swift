import Foundation

/// One GET request to a service, as the clients build it: a path relative to the service's base
/// URL and the query items. The credential (openFDA's `api_key`) travels separately in
/// `secretQuery`, added only on the wire, so nothing that records or prints requests can leak it.
public struct HTTPRequest: Sendable, Equatable {
    public var service: MedAPIService
    public var method: String
    /// Relative to the service's base URL, starting with "/": "/REST/rxcui.json".
    public var path: String
    public var query: [QueryItem]
    var secretQuery: [QueryItem]
    public var baseURL: URL
    public var headers: [String: String]
    public var timeout: TimeInterval

    init(service: MedAPIService, path: String, query: [QueryItem], secretQuery: [QueryItem] = [], baseURL: URL,
         headers: [String: String] = [:], timeout: TimeInterval = 15) {
        self.service = service
        method = "GET"
        self.path = path
        self.query = query
        self.secretQuery = secretQuery
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
    }

    /// The URL sent on the wire, credential included.
    var wireURL: URL {
        URL(string: url(query + secretQuery))!
    }

    /// The URL with credentials shown as REDACTED: for messages, source lines and cassettes.
    public var displayURL: String {
        url(QueryString.redacted(query + secretQuery))
    }

    /// What a cassette interaction is matched on: method, path and normalised query.
    public var matchKey: String {
        Cassette.matchKey(method: method, path: path, query: QueryString.normalized(query))
    }

    private func url(_ items: [QueryItem]) -> String {
        let base = baseURL.absoluteString
        return items.isEmpty ? base + path : base + path + "?" + QueryString.encode(items)
    }
}

/// A service's answer: status, headers (names lowercased) and the body, already decompressed.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a request got no HTTP answer at all.
public struct TransportFailure: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No answer within the timeout: retried.
        case timedOut
        /// The connection broke mid-way: retried.
        case connectionLost
        /// No route, no such host, refused, TLS failure: not retried (it will not fix itself in
        /// a second, and offline it would only delay the cached answer).
        case unreachable
    }

    public var kind: Kind
    /// A short lowercase description for messages ("connection refused").
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }
}

/// Sends one request and returns the service's answer, whatever its status. Implementations:
/// `SocketHTTPTransport` (the network), `RecordingTransport` (the network, written to
/// cassettes) and `ReplayTransport` (cassettes only). Throws `TransportFailure` when there is
/// no answer, or a `MedAPIError` for a problem of its own (a missing recording).
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) throws -> HTTPResponse
    /// Whether requests through this transport reach the network (and so are rate limited and
    /// counted against daily budgets).
    var usesNetwork: Bool { get }
}
