import Foundation
import GRDB

/// What RxNav and openFDA answered, kept in the vault database (encrypted like everything else)
/// so a second lookup works offline and the services are asked only when an answer is stale.
///
/// Each question is a lookup (`Kind` + key) with the time it was asked and its URL; its answer is
/// spread over normalised tables (Schema+MedAPI.swift): concepts, ingredients, related
/// products, classes, label sections, recalls. The facets `MedAPICache+RxNorm`, `+Labels`,
/// `+NDC` and `+Recalls` read and write them, inside one transaction per answer.
public final class MedAPICache: RequestBudget, @unchecked Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case name, allRelated = "allrelated", related, classes, label, ndc, ndcProduct = "ndc_product", recalls
    }

    /// When and where a question was answered.
    public struct Lookup: Sendable, Equatable {
        public var kind: Kind
        public var key: String
        public var found: Bool
        public var total: Int?
        public var fetchedAt: Date
        public var source: String
    }

    let database: VaultDatabase

    public init(database: VaultDatabase) {
        self.database = database
    }

    public convenience init(vault: Vault) {
        self.init(database: vault.database)
    }

    public func lookup(_ kind: Kind, _ key: String) throws -> Lookup? {
        try database.read { db in try Self.lookup(db, kind, key) }
    }

    static func lookup(_ db: Database, _ kind: Kind, _ key: String) throws -> Lookup? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT found, total, fetched_at, source FROM medapi_lookup WHERE kind = ? AND key = ?
            """, arguments: [kind.rawValue, key]) else { return nil }
        let fetched: String = row["fetched_at"]
        return Lookup(kind: kind, key: key, found: row["found"], total: row["total"],
                      fetchedAt: Timestamp.parse(fetched) ?? .distantPast, source: row["source"])
    }

    static func saveLookup(_ db: Database, _ kind: Kind, _ key: String, found: Bool, total: Int? = nil,
                           source: String, at date: Date) throws {
        try db.execute(sql: """
            INSERT INTO medapi_lookup (kind, key, found, total, fetched_at, source) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (kind, key) DO UPDATE SET found = excluded.found, total = excluded.total,
                fetched_at = excluded.fetched_at, source = excluded.source
            """, arguments: [kind.rawValue, key, found, total, Timestamp.string(date), source])
    }

    /// Runs `body` in one write transaction.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try database.write(body)
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try database.read(body)
    }

    /// How many lookups the cache holds, by kind (for status displays and tests).
    public func counts() throws -> [Kind: Int] {
        try database.read { db in
            var counts: [Kind: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT kind, count(*) AS n FROM medapi_lookup GROUP BY kind") {
                if let kind = Kind(rawValue: row["kind"]) { counts[kind] = row["n"] }
            }
            return counts
        }
    }

    // MARK: RequestBudget

    public func countRequest(to service: MedAPIService, day: String) throws -> Int {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO medapi_usage (service, day, requests) VALUES (?, ?, 1)
                ON CONFLICT (service, day) DO UPDATE SET requests = requests + 1
                """, arguments: [service.rawValue, day])
            // Only the current day matters; older rows would only grow the table.
            try db.execute(sql: "DELETE FROM medapi_usage WHERE service = ? AND day < ?", arguments: [service.rawValue, day])
            return try Int.fetchOne(db, sql: "SELECT requests FROM medapi_usage WHERE service = ? AND day = ?",
                                    arguments: [service.rawValue, day]) ?? 1
        }
    }
}
