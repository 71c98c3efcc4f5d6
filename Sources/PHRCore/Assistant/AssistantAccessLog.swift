import Foundation
import GRDB

/// One call a local assistant made through `phr mcp`: when, which client, what it called with
/// which arguments, for whom, and how it ended. Never what phr answered.
public struct AssistantAccess: Codable, Sendable, Equatable, FetchableRecord {
    public enum Outcome: String, Codable, Sendable {
        /// Answered (a tool's own "not found" included).
        case answered
        /// Outside the scope the user gave `phr mcp`, or not a call it serves.
        case refused
        /// phr could not answer (a locked vault, a damaged page).
        case failed
    }

    /// How the call reached the vault: through the running `phr serve` agent, or in the
    /// `phr mcp` process itself.
    public enum Via: String, Codable, Sendable {
        case agent, process
    }

    public var at: String
    public var client: String
    /// The tool's name, or the protocol method (`resources/read`, `resources/list`).
    public var call: String
    /// The arguments as JSON, cut at `AssistantAccessLog.argumentsLimit` characters.
    public var arguments: String
    public var profile: String?
    public var outcome: Outcome
    /// How many records or pages the answer held, where that means something.
    public var results: Int?
    public var via: Via

    public init(at: String, client: String, call: String, arguments: String, profile: String?, outcome: Outcome,
                results: Int?, via: Via) {
        self.at = at
        self.client = client
        self.call = call
        self.arguments = arguments
        self.profile = profile
        self.outcome = outcome
        self.results = results
        self.via = via
    }

    public init(row: Row) throws {
        at = row["at"]
        client = row["client"]
        call = row["call"]
        arguments = row["arguments"]
        profile = row["profile"]
        outcome = Outcome(rawValue: row["outcome"]) ?? .failed
        results = row["results"]
        via = Via(rawValue: row["via"]) ?? .process
    }
}

/// The vault's encrypted log of what local assistants read (`phr mcp log`). It keeps the newest
/// `kept` calls: a client that floods phr with calls cannot grow the vault without bound.
public enum AssistantAccessLog {
    public static let kept = 20_000
    public static let argumentsLimit = 1_000
    static let clientLimit = 200

    /// Appends one call (fields longer than the table takes are cut, control characters dropped).
    public static func append(_ access: AssistantAccess, to vault: Vault) throws {
        try vault.database.write { db in
            try db.execute(sql: """
                INSERT INTO assistant_access (at, client, call, arguments, profile, outcome, results, via)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [access.at, clean(access.client, clientLimit), clean(access.call, 100).isEmpty ? "?" : clean(access.call, 100),
                                 clean(access.arguments, argumentsLimit), access.profile.map { clean($0, 200) },
                                 access.outcome.rawValue, access.results, access.via.rawValue])
            let id = db.lastInsertedRowID
            if id % 100 == 0 {
                try db.execute(sql: "DELETE FROM assistant_access WHERE id <= ?", arguments: [id - Int64(kept)])
            }
        }
    }

    /// The newest `limit` calls, newest first; only those on or after `since` (a timestamp
    /// prefix such as 2026-11-29) when given.
    public static func list(in vault: Vault, limit: Int = 50, since: String? = nil) throws -> [AssistantAccess] {
        try vault.database.read { db in
            try AssistantAccess.fetchAll(db, sql: """
                SELECT * FROM assistant_access WHERE (? IS NULL OR at >= ?) ORDER BY id DESC LIMIT ?
                """, arguments: [since, since, max(0, limit)])
        }
    }

    /// `text` without control characters, at most `limit` code points (SQLite's length()).
    static func clean(_ text: String, _ limit: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !CharacterSet.controlCharacters.contains(scalar) {
            guard scalars.count < limit else { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
