import Foundation

/// Counts requests per service and UTC day across runs (in the vault), so a daily limit such as
/// openFDA's 1,000 keyless requests holds for a script that runs phr many times.
public protocol RequestBudget: AnyObject {
    /// Records one request to `service` on `day` (YYYY-MM-DD, UTC) and returns the day's count,
    /// this one included.
    func countRequest(to service: MedAPIService, day: String) throws -> Int
}

/// The good-citizen layer between the API clients and a transport: it builds each request
/// (base URL, User-Agent, gzip, the openFDA key), keeps to each host's rate limit and daily
/// budget, retries temporary failures with backoff, and turns what is left into `MedAPIError`s.
///
/// `get` returns responses with status 2xx, and 404 when the service means "no match" by it
/// (openFDA's NOT_FOUND; RxNav's unknown identifiers); the clients read those.
public final class MedAPIHTTPClient: @unchecked Sendable {
    public let configuration: MedAPIConfiguration
    let transport: HTTPTransport
    let limiter: RateLimiter
    weak var budget: RequestBudget?
    private let sleep: @Sendable (TimeInterval) -> Void
    private let now: @Sendable () -> Date

    public init(configuration: MedAPIConfiguration, transport: HTTPTransport, limiter: RateLimiter = .shared,
                budget: RequestBudget? = nil, sleep: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.transport = transport
        self.limiter = limiter
        self.budget = budget
        self.sleep = sleep
        self.now = now
    }

    /// The request `get` would send, for messages and source lines.
    public func request(_ service: MedAPIService, path: String, query: [QueryItem]) -> HTTPRequest {
        var secret: [QueryItem] = []
        if service == .openFDA, let key = configuration.openFDAAPIKey { secret.append(QueryItem("api_key", key)) }
        return HTTPRequest(service: service, path: path, query: query, secretQuery: secret,
                           baseURL: configuration.baseURL(service),
                           headers: ["User-Agent": configuration.userAgent, "Accept": "application/json",
                                     "Accept-Encoding": "gzip"],
                           timeout: configuration.timeout)
    }

    /// Sends a GET with retries (see the type's overview).
    public func get(_ service: MedAPIService, path: String, query: [QueryItem]) throws -> HTTPResponse {
        let request = request(service, path: path, query: query)
        let limit = configuration.rateLimits[service] ?? service.rateLimit(hasAPIKey: configuration.openFDAAPIKey != nil)
        let host = request.baseURL.host.map { host in request.baseURL.port.map { "\(host):\($0)" } ?? host } ?? service.rawValue
        var random = SystemRandomNumberGenerator()
        var waited: TimeInterval = 0
        var attempt = 0
        while true {
            attempt += 1
            if transport.usesNetwork {
                try spendBudget(service, limit: limit)
                waited += limiter.acquire(host: host, limit: limit)
            }
            let outcome: Outcome
            do {
                outcome = try Self.classify(transport.send(request), service: service, now: now())
            } catch let failure as TransportFailure {
                switch failure.kind {
                case .timedOut, .connectionLost: outcome = .retry(.transport(failure.detail), retryAfter: nil)
                case .unreachable: throw MedAPIError.unavailable(service: service, reason: failure.detail)
                }
            }
            switch outcome {
            case .answer(let response):
                return response
            case .fail(let error):
                throw error
            case .retry(let reason, let retryAfter):
                guard let wait = configuration.retry.delay(afterAttempt: attempt, retryAfter: retryAfter,
                                                           waitedSoFar: waited, using: &random) else {
                    throw reason.error(service: service, attempts: attempt, retryAfter: retryAfter)
                }
                sleep(wait)
                waited += wait
            }
        }
    }

    private func spendBudget(_ service: MedAPIService, limit: RateLimit) throws {
        guard let perDay = limit.perDay, let budget else { return }
        let now = now()
        let count = try budget.countRequest(to: service, day: CalendarDate(now, in: TimeZone(identifier: "UTC")!).description)
        if count > perDay {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let midnight = calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0),
                                             matchingPolicy: .nextTime) ?? now.addingTimeInterval(86_400)
            throw MedAPIError.rateLimited(service: service, retryAfter: midnight.timeIntervalSince(now))
        }
    }

    enum RetryReason: Equatable {
        case rateLimited
        case serverError(status: Int, message: String?)
        case transport(String)

        func error(service: MedAPIService, attempts: Int, retryAfter: TimeInterval?) -> MedAPIError {
            switch self {
            case .rateLimited:
                return .rateLimited(service: service, retryAfter: retryAfter)
            case .serverError(let status, let message):
                return .serviceFailed(service: service, status: status, message: message)
            case .transport(let detail):
                return .unavailable(service: service, reason: attempts > 1 ? "\(detail), \(attempts) attempts" : detail)
            }
        }
    }

    enum Outcome {
        case answer(HTTPResponse)
        case retry(RetryReason, retryAfter: TimeInterval?)
        case fail(MedAPIError)
    }

    /// What an HTTP status means for each service. RxNav signals its rate limit with 403 (and
    /// may, like any server, send 429); openFDA uses 429, and 403 for a refused API key.
    static func classify(_ response: HTTPResponse, service: MedAPIService, now: Date) -> Outcome {
        let status = response.status
        let retryAfter = RetryPolicy.parseRetryAfter(response.header("retry-after"), now: now)
        let fdaError = service == .openFDA ? OpenFDAParser.error(response.body) : nil
        switch status {
        case 200..<300:
            return .answer(response)
        case 404:
            if service == .openFDA, let fdaError, fdaError.code != "NOT_FOUND" {
                return .fail(.requestRejected(service: service, status: status, message: fdaError.message))
            }
            return .answer(response)
        case 429:
            return .retry(.rateLimited, retryAfter: retryAfter)
        case 403 where service == .rxnav:
            return .retry(.rateLimited, retryAfter: retryAfter)
        case 403 where fdaError?.code.hasPrefix("API_KEY") == true:
            return .fail(.invalidAPIKey(message: fdaError?.message))
        case 408:
            return .retry(.transport("the request to \(service.name) timed out (HTTP 408)"), retryAfter: retryAfter)
        case 500...599:
            let message = fdaError.map { "\($0.code): \($0.message)" }
            return .retry(.serverError(status: status, message: message), retryAfter: retryAfter)
        case 300..<400:
            return .fail(.requestRejected(service: service, status: status, message: "redirected to a place phr does not follow"))
        default:
            let message = fdaError.map { "\($0.code): \($0.message)" }
            return .fail(.requestRejected(service: service, status: status, message: message))
        }
    }
}
