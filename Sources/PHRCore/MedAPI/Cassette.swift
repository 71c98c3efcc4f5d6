import Foundation

/// A cassette: recorded HTTP interactions with one service, replayed instead of the network.
/// The format is versioned and described by `Schemas/cassette-v1.schema.json`:
///
/// ```json
/// { "format": "phr-cassette", "version": 1, "service": "rxnav", "note": "...",
///   "interactions": [
///     { "request": { "method": "GET", "path": "/REST/rxcui.json", "query": "name=citalopram&search=2",
///                    "url": "https://rxnav.nlm.nih.gov/REST/rxcui.json?name=citalopram&search=2" },
///       "response": { "status": 200, "headers": { "content-type": "application/json" },
///                     "body": { "idGroup": { "rxnormId": ["2556"] } } },
///       "recordedAt": "2026-11-22T10:00:00Z" } ] }
/// ```
///
/// An interaction is matched on method, path (relative to the service's base URL, so a cassette
/// works against any `PHR_RXNAV_URL`) and normalised query (`QueryString.normalized`). A JSON
/// body is stored as JSON (`body`), anything else as text (`bodyText`); bodies are stored
/// decompressed. Several interactions with one key are replayed in order, the last one
/// repeating, so a cassette can hold "429, then 200". Secrets never appear: the query holds no
/// `api_key`, the URL shows it as REDACTED, and only harmless response headers are kept.
public struct Cassette: Codable, Sendable, Equatable {
    public static let formatName = "phr-cassette"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var service: MedAPIService
    /// Where the interactions came from (recorded live, or written by hand from documentation).
    public var note: String?
    public var interactions: [Interaction]

    public init(service: MedAPIService, note: String? = nil, interactions: [Interaction] = []) {
        format = Self.formatName
        version = Self.currentVersion
        self.service = service
        self.note = note
        self.interactions = interactions
    }

    public struct Interaction: Codable, Sendable, Equatable {
        public var request: Request
        public var response: Response
        /// When it was recorded (UTC, ISO 8601).
        public var recordedAt: String
        public var note: String?

        public init(request: Request, response: Response, recordedAt: String, note: String? = nil) {
            self.request = request
            self.response = response
            self.recordedAt = recordedAt
            self.note = note
        }

        var matchKey: String { Cassette.matchKey(method: request.method, path: request.path, query: request.query) }
    }

    public struct Request: Codable, Sendable, Equatable {
        public var method: String
        public var path: String
        /// The normalised query, without secrets.
        public var query: String
        /// The full URL asked, secrets REDACTED; informative only, never matched on.
        public var url: String?

        public init(method: String = "GET", path: String, query: String, url: String? = nil) {
            self.method = method
            self.path = path
            self.query = query
            self.url = url
        }
    }

    public struct Response: Codable, Sendable, Equatable {
        public var status: Int
        public var headers: [String: String]?
        /// A JSON body, stored as JSON.
        public var body: JSONValue?
        /// A body that is not JSON, as text.
        public var bodyText: String?

        public init(status: Int, headers: [String: String]? = nil, body: JSONValue? = nil, bodyText: String? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.bodyText = bodyText
        }

        /// The body bytes as a server would send them.
        var data: Data {
            if let body {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return (try? encoder.encode(body)) ?? Data()
            }
            return Data((bodyText ?? "").utf8)
        }

        var httpResponse: HTTPResponse {
            var headers = self.headers ?? [:]
            if headers.keys.contains(where: { $0.lowercased() == "content-type" }) == false {
                headers["content-type"] = body != nil ? "application/json" : "text/plain; charset=utf-8"
            }
            return HTTPResponse(status: status, headers: headers, body: data)
        }
    }

    /// Response headers worth keeping: they change how phr behaves (type, Retry-After) or show
    /// the service's limits. Everything else (cookies, request IDs, dates) is dropped.
    static let keptHeaders: Set<String> = ["content-type", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining"]

    static func matchKey(method: String, path: String, query: String) -> String {
        let normalized = QueryString.normalized(query)
        return "\(method.uppercased()) \(path)" + (normalized.isEmpty ? "" : "?\(normalized)")
    }

    /// Makes the interaction for a request and its answer, ready to be written.
    static func interaction(for request: HTTPRequest, response: HTTPResponse, at date: Date) -> Interaction {
        var headers: [String: String] = [:]
        for (name, value) in response.headers where keptHeaders.contains(name) { headers[name] = value }
        var recorded = Response(status: response.status, headers: headers.isEmpty ? nil : headers)
        if let json = try? JSONValue.parse(response.body) {
            recorded.body = json
        } else if !response.body.isEmpty {
            recorded.bodyText = String(decoding: response.body, as: UTF8.self)
        }
        return Interaction(request: Request(method: request.method, path: request.path,
                                            query: QueryString.normalized(request.query), url: request.displayURL),
                           response: recorded, recordedAt: Timestamp.string(date))
    }

    // MARK: Reading and writing

    /// Reads and checks a cassette file.
    public static func load(path: String) throws -> Cassette {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MedAPIError.invalidCassette(path: path, reason: "it cannot be read")
        }
        let cassette: Cassette
        do {
            cassette = try JSONDecoder().decode(Cassette.self, from: data)
        } catch let error as DecodingError {
            throw MedAPIError.invalidCassette(path: path, reason: Self.describe(error))
        } catch {
            throw MedAPIError.invalidCassette(path: path, reason: "it is not JSON")
        }
        try cassette.validate(path: path)
        return cassette
    }

    func validate(path: String) throws {
        guard format == Self.formatName else {
            throw MedAPIError.invalidCassette(path: path, reason: "format is '\(format)', not '\(Self.formatName)'")
        }
        guard version == Self.currentVersion else {
            throw MedAPIError.invalidCassette(path: path, reason: version > Self.currentVersion
                                              ? "version \(version) needs a newer phr" : "version \(version) is unknown")
        }
        for (index, interaction) in interactions.enumerated() {
            let at = "interaction \(index + 1)"
            guard interaction.request.method == interaction.request.method.uppercased(), !interaction.request.method.isEmpty else {
                throw MedAPIError.invalidCassette(path: path, reason: "\(at): the method must be uppercase, like GET")
            }
            guard interaction.request.path.hasPrefix("/") else {
                throw MedAPIError.invalidCassette(path: path, reason: "\(at): the path must start with /")
            }
            guard (100...599).contains(interaction.response.status) else {
                throw MedAPIError.invalidCassette(path: path, reason: "\(at): status \(interaction.response.status) is not an HTTP status")
            }
            guard interaction.response.body == nil || interaction.response.bodyText == nil else {
                throw MedAPIError.invalidCassette(path: path, reason: "\(at): a response has body or bodyText, not both")
            }
            let items = QueryString.decode(interaction.request.query)
            if items.contains(where: { QueryString.secretNames.contains($0.name) && $0.value != "REDACTED" }) {
                throw MedAPIError.invalidCassette(path: path, reason: "\(at): the query holds a secret; cassettes must not")
            }
        }
    }

    /// The cassette as written to disk: pretty, keys sorted, so re-recording shows small diffs.
    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + Array("\n".utf8)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "the document" : names.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)): '\(key.stringValue)' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "it is not JSON" : "\(path(context)) is not valid"
        @unknown default: return "it is not a cassette"
        }
    }
}
