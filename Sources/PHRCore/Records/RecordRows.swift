import Foundation
import GRDB

/// The SQL every record store shares: a profile's records in order, resolving IDs within a
/// profile, and the document links of medications and appointments.
enum RecordRows {
    /// Records of one profile, oldest first (the order of exports and plain listings).
    static func all<Record: FetchableRecord & TableRecord>(_ db: Database, _ type: Record.Type, profileID: Int64,
                                                           orderBy: [any SQLOrderingTerm] = [Column("created_at")]) throws -> [Record] {
        try Record.filter(Column("profile_id") == profileID).order(orderBy + [Column.rowID]).fetchAll(db)
    }

    /// The record whose ID starts with `prefix`, in this profile only.
    static func resolve<Record: FetchableRecord & TableRecord>(_ db: Database, _ type: Record.Type, kind: String, prefix: String,
                                                               profileID: Int64) throws -> Record {
        let id = try RecordID.resolve(db, table: Record.databaseTableName, kind: kind, prefix: prefix, profileID: profileID)
        return try Record.find(db, key: id)
    }

    /// A new short ID and a new UUID for a record.
    static func newIdentity(_ db: Database, table: String) throws -> (id: String, uid: String) {
        (try RecordID.generate(db, table: table), try RecordID.newUID())
    }

    /// Whether a record with this uid or source key already exists in the profile; returns its ID.
    /// Imports ask this once per record, so the statements are compiled once (GRDB's cache).
    static func existing(_ db: Database, table: String, profileID: Int64, uid: String?, sourceKey: String?) throws -> String? {
        if let uid, let id = try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM \(table.quotedDatabaseIdentifier) WHERE profile_id = ? AND uid = ?"),
                                                  arguments: [profileID, uid]) {
            return id
        }
        if let sourceKey, let id = try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM \(table.quotedDatabaseIdentifier) WHERE profile_id = ? AND source_key = ?"),
                                                        arguments: [profileID, sourceKey]) {
            return id
        }
        return nil
    }

    /// The ID `wanted` if it is free in `table`, else a new one (imports keep IDs when they can).
    static func idKeeping(_ db: Database, table: String, wanted: String) throws -> String {
        let valid = (4...16).contains(wanted.count) && wanted.allSatisfy { RecordID.alphabet.contains($0) }
        if valid, try !RecordID.exists(db, table: table, id: wanted) {
            return wanted
        }
        return try RecordID.generate(db, table: table)
    }

    /// The full ID of the document `prefix` of this profile (for --doc).
    static func document(_ db: Database, prefix: String, profileID: Int64) throws -> String {
        try RecordID.resolve(db, table: "document", kind: "document", prefix: prefix, profileID: profileID)
    }

    /// Removes a record and its search entries.
    static func delete(_ db: Database, table: String, kind: String, id: String) throws {
        try SearchIndex.remove(db, kind: kind, recordID: id)
        try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE id = ?", arguments: [id])
    }
}

/// A text change typed on the command line: nil leaves the field, "" clears it.
enum FieldChange {
    static func apply(_ change: String?, to current: String?, field: Field, limit: Int = 300, multiline: Bool = false) throws -> String? {
        guard let change else { return current }
        return try RecordFields.optionalText(change, field: field, limit: limit, multiline: multiline)
    }
}
