import Foundation
import GRDB

/// The medicine lookups the commands use, offline-first: resolve a name to RxNorm, describe a
/// medicine, list its alternatives, check medicines and allergies against each other, and find
/// recalls (one facet file each: `MedicineLookup+Resolve.swift`, `+Info`, `+Alternatives`,
/// `+Interactions`, `+Recalls`; labels and classes are shared in `+Labels`, `+Classes`).
///
/// Every question first goes to the vault's cache (`MedAPICache`). A fresh answer is used as
/// is; a stale or missing one is fetched, through the transport the configuration chooses
/// (live, record or replay), and stored. When the service cannot answer (no network, rate
/// limited, failing) an older cached answer stands in and the result says how old it is; with
/// no cached answer the error stands (exit 69 or 75). With `PHR_OFFLINE=1` no transport is
/// even created, so no socket can be opened.
///
/// The inputs are plain (names, RxCUIs, allergy substances), so the records code can call it
/// without this layer knowing how records are stored.
public final class MedicineLookup {
    public let configuration: MedAPIConfiguration
    public let cache: MedAPICache
    /// Ask the services again even when the cached answer is fresh (`--refresh`).
    public var refresh = false
    let http: MedAPIHTTPClient?
    let now: @Sendable () -> Date

    public init(configuration: MedAPIConfiguration, cache: MedAPICache, transport: HTTPTransport? = nil,
                limiter: RateLimiter = .shared, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        self.cache = cache
        self.now = now
        if configuration.offline {
            http = nil
        } else {
            http = MedAPIHTTPClient(configuration: configuration, transport: try transport ?? Self.makeTransport(configuration),
                                    limiter: limiter, budget: cache, now: now)
        }
    }

    /// The lookups for an open vault, configured from the environment (`MedAPIConfiguration`).
    public convenience init(vault: Vault, environment: [String: String], phrVersion: String) throws {
        try self.init(configuration: .fromEnvironment(environment, phrVersion: phrVersion), cache: MedAPICache(vault: vault))
    }

    /// The transport for the configured mode.
    public static func makeTransport(_ configuration: MedAPIConfiguration) throws -> HTTPTransport {
        switch configuration.mode {
        case .live:
            return SocketHTTPTransport(timeout: configuration.timeout)
        case .record:
            guard let directory = configuration.cassetteDirectory else {
                throw EnvironmentSettingError.invalid(variable: "PHR_MEDAPI_CASSETTES", reason: "record mode needs the cassette directory")
            }
            return RecordingTransport(live: SocketHTTPTransport(timeout: configuration.timeout), library: CassetteLibrary(directory: directory))
        case .replay:
            guard let directory = configuration.cassetteDirectory else {
                throw EnvironmentSettingError.invalid(variable: "PHR_MEDAPI_CASSETTES", reason: "replay mode needs the cassette directory")
            }
            return ReplayTransport(library: CassetteLibrary(directory: directory))
        }
    }

    var rxnav: RxNavClient? { http.map(RxNavClient.init) }
    var openFDA: OpenFDAClient? { http.map(OpenFDAClient.init) }

    /// A name as a cache key and a query: whitespace collapsed, lowercase.
    static func normalizedName(_ name: String) -> String {
        LabelText.collapse(name).lowercased()
    }

    // MARK: Cached lookups

    /// One question, answered from the cache or the service (see the type's overview).
    ///
    /// - `load` reads the cached answer (called only when a lookup row exists);
    /// - `fetch` asks the service and returns the answer, the URL asked, whether it found
    ///   anything and, for searches, the total the service reported;
    /// - `store` writes the answer, in the same transaction as the lookup row.
    func cached<T>(_ kind: MedAPICache.Kind, _ key: String, service: MedAPIService, about: String, trail: LookupTrail,
                   load: (Database) throws -> T,
                   fetch: (MedAPIHTTPClient) throws -> (value: T, source: String, found: Bool, total: Int?),
                   store: (Database, T, Date) throws -> Void) throws -> T {
        try sourced(kind, key, service: service, about: about, trail: trail, load: load, fetch: fetch, store: store).value
    }

    /// `cached`, also returning where the answer came from (for findings that cite it).
    func sourced<T>(_ kind: MedAPICache.Kind, _ key: String, service: MedAPIService, about: String, trail: LookupTrail,
                    load: (Database) throws -> T,
                    fetch: (MedAPIHTTPClient) throws -> (value: T, source: String, found: Bool, total: Int?),
                    store: (Database, T, Date) throws -> Void) throws -> (value: T, source: MedAPISource) {
        let lifetime = lifetime(kind)
        let existing = try cache.lookup(kind, key)
        let now = now()
        if let existing, configuration.offline || (!refresh && now.timeIntervalSince(existing.fetchedAt) < lifetime) {
            let value = try cache.read(load)
            let source = source(existing, service: service, about: about)
            trail.add(source)
            if configuration.offline && now.timeIntervalSince(existing.fetchedAt) >= lifetime {
                trail.notice("offline: \(about) comes from the vault's copy fetched \(MedAPISource.describeAge(now.timeIntervalSince(existing.fetchedAt))) ago, "
                             + "older than the \(MedAPISource.describeAge(lifetime)) phr keeps it fresh")
            }
            return (value, source)
        }
        guard let http else { throw MedAPIError.offline(what: about) }
        do {
            let fetched = try fetch(http)
            let at = self.now()
            try cache.write { db in
                try MedAPICache.saveLookup(db, kind, key, found: fetched.found, total: fetched.total, source: fetched.source, at: at)
                try store(db, fetched.value, at)
            }
            let source = MedAPISource(publisher: service.publisher, about: about, url: fetched.source,
                                      fetchedAt: Timestamp.string(at), cached: false)
            trail.add(source)
            if let directory = configuration.cassetteDirectory {
                // Say where answers really came from when it is not the service itself.
                switch configuration.mode {
                case .replay: trail.notice("replay mode: answers come from the cassettes in \(directory), not from the services")
                case .record: trail.notice("record mode: the services' answers are written to the cassettes in \(directory)")
                case .live: break
                }
            }
            return (fetched.value, source)
        } catch let error as MedAPIError where error.allowsCacheFallback {
            guard let existing else { throw error }
            let value = try cache.read(load)
            let source = source(existing, service: service, about: about)
            trail.add(source)
            let age = MedAPISource.describeAge(now.timeIntervalSince(existing.fetchedAt))
            trail.notice("\(error.localizedDescription); \(about) comes from the vault's copy fetched \(age) ago")
            return (value, source)
        }
    }

    func lifetime(_ kind: MedAPICache.Kind) -> TimeInterval {
        switch kind {
        case .name, .allRelated, .related, .classes, .ndc: return configuration.lifetimes.rxnorm
        case .label, .ndcProduct: return configuration.lifetimes.labels
        case .recalls: return configuration.lifetimes.recalls
        }
    }

    private func source(_ lookup: MedAPICache.Lookup, service: MedAPIService, about: String) -> MedAPISource {
        MedAPISource(publisher: service.publisher, about: about, url: lookup.source,
                     fetchedAt: Timestamp.string(lookup.fetchedAt), cached: true)
    }

    /// Whether a lookup is in the cache and fresh (so no request is needed).
    func isFresh(_ kind: MedAPICache.Kind, _ key: String) throws -> Bool {
        guard !refresh || configuration.offline, let lookup = try cache.lookup(kind, key) else { return false }
        return configuration.offline || now().timeIntervalSince(lookup.fetchedAt) < lifetime(kind)
    }
}
