import GRDB

/// The change journal (Schema+Journal.swift), read: what changed, in commit order, on which
/// device. The sync engine reads it from the last change it sent.
public enum ChangeJournal {
    public enum Operation: String, Codable, Sendable {
        case insert, update, delete
    }

    /// One committed change of one record.
    public struct Entry: Codable, Sendable, Equatable {
        /// Its place in the journal, increasing with every change.
        public var sequence: Int64
        /// RecordKind.name.
        public var kind: String
        /// The record's key in its table.
        public var record: String
        /// The record's identity across devices, where it has one.
        public var uid: String?
        /// The uid of the profile it belongs to.
        public var profile: String?
        public var operation: Operation
        /// When, UTC, to the millisecond.
        public var at: String
        public var device: String
    }

    /// The changes after `sequence` (all of them from 0), oldest first, at most `limit`.
    public static func entries(_ db: Database, after sequence: Int64 = 0, limit: Int = .max) throws -> [Entry] {
        try Row.fetchAll(db, sql: """
            SELECT seq, kind, record, uid, profile, operation, at, device FROM change_journal
            WHERE seq > ? ORDER BY seq LIMIT ?
            """, arguments: [sequence, limit]).map { row in
            // The CHECK constraint allows only the three; anything else is damage, never a guess.
            guard let operation = Operation(rawValue: row["operation"]) else {
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "change_journal: an unknown operation")
            }
            return Entry(sequence: row["seq"], kind: row["kind"], record: row["record"], uid: row["uid"], profile: row["profile"],
                         operation: operation, at: row["at"], device: row["device"])
        }
    }

    /// This vault's device id: the journal's `device` for changes made here.
    public static func device(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM vault_info WHERE key = 'device'")
    }
}

extension ChangeJournal {
    /// `entries`, in a read transaction of `vault`.
    public static func entries(in vault: Vault, after sequence: Int64 = 0, limit: Int = .max) throws -> [Entry] {
        try vault.database.read { db in try entries(db, after: sequence, limit: limit) }
    }

    /// `device`, read from `vault`.
    public static func device(of vault: Vault) throws -> String? {
        try vault.database.read { db in try device(db) }
    }
}

extension RecordKind {
    /// How many records of this kind `vault` holds, all profiles together.
    public func count(in vault: Vault) throws -> Int {
        try vault.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }
}
