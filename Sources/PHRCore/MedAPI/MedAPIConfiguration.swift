import Foundation

/// How the medicine lookups reach the services: the transport mode, base URLs, key, timeouts,
/// retries and rate limits. `fromEnvironment` reads the settings people use:
///
/// | variable | meaning |
/// |---|---|
/// | `PHR_OFFLINE=1` | never use the network: answer from the vault's cache only (wins over everything) |
/// | `PHR_MEDAPI_MODE` | `live` (default), `record` (live, and write each interaction to a cassette), `replay` (answer from cassettes, never the network) |
/// | `PHR_MEDAPI_CASSETTES` | the cassette directory, required by `record` and `replay` |
/// | `PHR_RXNAV_URL`, `PHR_OPENFDA_URL` | base URLs; `https://`, or `http://` on a loopback address only |
/// | `PHR_OPENFDA_API_KEY` | an openFDA key: a higher daily limit; never written to cassettes |
/// | `PHR_MEDAPI_TIMEOUT` | seconds to wait for an answer before retrying (default 15; `20s` and `500ms` also work) |
public struct MedAPIConfiguration: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        case live, record, replay
    }

    public var mode: Mode
    /// PHR_OFFLINE: no transport is ever built; only the cache answers.
    public var offline: Bool
    public var cassetteDirectory: String?
    public var baseURLs: [MedAPIService: URL]
    public var openFDAAPIKey: String?
    public var userAgent: String
    /// Seconds without an answer before a request counts as timed out.
    public var timeout: TimeInterval
    public var retry: RetryPolicy
    public var rateLimits: [MedAPIService: RateLimit]
    public var lifetimes: CacheLifetimes

    public init(mode: Mode = .live, offline: Bool = false, cassetteDirectory: String? = nil,
                baseURLs: [MedAPIService: URL] = [:], openFDAAPIKey: String? = nil,
                phrVersion: String = "dev", timeout: TimeInterval = 15, retry: RetryPolicy = RetryPolicy(),
                rateLimits: [MedAPIService: RateLimit]? = nil, lifetimes: CacheLifetimes = CacheLifetimes()) {
        self.mode = mode
        self.offline = offline
        self.cassetteDirectory = cassetteDirectory
        var urls = baseURLs
        for service in MedAPIService.allCases where urls[service] == nil {
            urls[service] = URL(string: service.defaultBaseURL)!
        }
        self.baseURLs = urls
        self.openFDAAPIKey = openFDAAPIKey
        self.userAgent = Self.userAgent(phrVersion: phrVersion)
        self.timeout = timeout
        self.retry = retry
        let hasKey = openFDAAPIKey != nil
        self.rateLimits = rateLimits ?? Dictionary(uniqueKeysWithValues: MedAPIService.allCases.map {
            ($0, $0.rateLimit(hasAPIKey: hasKey))
        })
        self.lifetimes = lifetimes
    }

    /// Names phr and its version, as both services ask of clients, so they can tell who is calling.
    public static func userAgent(phrVersion: String) -> String {
        "phr/\(phrVersion) (personal health records command-line tool; Swift on Linux)"
    }

    public func baseURL(_ service: MedAPIService) -> URL {
        baseURLs[service] ?? URL(string: service.defaultBaseURL)!
    }

    /// Reads the settings in the table above. Throws `EnvironmentSettingError` (exit 64) for
    /// a value that cannot be used, rather than guessing.
    public static func fromEnvironment(_ environment: [String: String], phrVersion: String) throws -> MedAPIConfiguration {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        let offline = try OfflineMode.isOn(environment)
        var mode = Mode.live
        if let text = value("PHR_MEDAPI_MODE") {
            guard let parsed = Mode(rawValue: text.lowercased()) else {
                throw EnvironmentSettingError.invalid(variable: "PHR_MEDAPI_MODE", reason: "'\(text)' is not live, record or replay")
            }
            mode = parsed
        }
        let cassettes = value("PHR_MEDAPI_CASSETTES")
        if mode != .live && !offline {
            guard let cassettes else {
                throw EnvironmentSettingError.invalid(variable: "PHR_MEDAPI_CASSETTES",
                                                 reason: "\(mode.rawValue) mode needs the cassette directory")
            }
            if mode == .replay && !FileSystem.isDirectory(cassettes) {
                throw EnvironmentSettingError.invalid(variable: "PHR_MEDAPI_CASSETTES", reason: "\(cassettes) is not a directory")
            }
        }
        var urls: [MedAPIService: URL] = [:]
        for service in MedAPIService.allCases {
            if let text = value(service.baseURLVariable) {
                urls[service] = try validatedBaseURL(text, variable: service.baseURLVariable)
            }
        }
        var timeout: TimeInterval = 15
        if let text = value("PHR_MEDAPI_TIMEOUT") {
            guard let seconds = parseTimeout(text) else {
                throw EnvironmentSettingError.invalid(variable: "PHR_MEDAPI_TIMEOUT", reason: "'\(text)' is not a number of seconds such as 15 or 500ms")
            }
            timeout = seconds
        }
        return MedAPIConfiguration(mode: mode, offline: offline, cassetteDirectory: cassettes, baseURLs: urls,
                                   openFDAAPIKey: value("PHR_OPENFDA_API_KEY"), phrVersion: phrVersion, timeout: timeout)
    }

    /// A base URL people may set: https anywhere, plain http only on this machine (a test server
    /// or a local mirror), because medicine names are health data and must not cross a network
    /// in the clear. A trailing slash is dropped; a path prefix is kept.
    static func validatedBaseURL(_ text: String, variable: String) throws -> URL {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty else {
            throw EnvironmentSettingError.invalid(variable: variable, reason: "'\(text)' is not an http(s) URL")
        }
        guard components.query == nil, components.fragment == nil else {
            throw EnvironmentSettingError.invalid(variable: variable, reason: "a base URL takes no query or fragment")
        }
        switch scheme {
        case "https":
            break
        case "http":
            guard isLoopback(host) else {
                throw EnvironmentSettingError.invalid(variable: variable,
                                                 reason: "plain http is only allowed on this machine (127.0.0.1, ::1, localhost); use https")
            }
        default:
            throw EnvironmentSettingError.invalid(variable: variable, reason: "'\(text)' is not an http(s) URL")
        }
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed) else {
            throw EnvironmentSettingError.invalid(variable: variable, reason: "'\(text)' is not an http(s) URL")
        }
        return url
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// "15", "2.5", "500ms", "20s".
    static func parseTimeout(_ text: String) -> TimeInterval? {
        let lower = text.lowercased()
        let seconds: Double?
        if lower.hasSuffix("ms") {
            seconds = Double(lower.dropLast(2)).map { $0 / 1000 }
        } else if lower.hasSuffix("s") {
            seconds = Double(lower.dropLast())
        } else {
            seconds = Double(lower)
        }
        guard let seconds, seconds.isFinite, seconds > 0, seconds <= 600 else { return nil }
        return seconds
    }
}

/// How long cached answers count as fresh. After that phr asks again when online; offline, or
/// when the service cannot be reached, the older answer is still given, with its age.
public struct CacheLifetimes: Sendable, Equatable {
    /// RxNorm concepts, related products and drug classes: RxNorm is released monthly.
    public var rxnorm: TimeInterval
    /// openFDA drug labels and NDC directory entries: updated weekly, rarely changed in substance.
    public var labels: TimeInterval
    /// Enforcement reports: a new recall should show up the next day.
    public var recalls: TimeInterval

    public init(rxnorm: TimeInterval = 30 * 86_400, labels: TimeInterval = 30 * 86_400, recalls: TimeInterval = 86_400) {
        self.rxnorm = rxnorm
        self.labels = labels
        self.recalls = recalls
    }
}
