import Foundation
import GRDB

/// What this device keeps about sync (Schema+Sync.swift), read and written inside the vault's
/// transactions.
enum SyncState {
    static func value(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM vault_info WHERE key = ?"), arguments: [key])
    }

    static func set(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT INTO vault_info (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       arguments: [key, value])
    }

    static func isInitialized(_ db: Database) throws -> Bool { try value(db, "sync_key") != nil }

    static func key(_ db: Database) throws -> SecretBytes {
        guard let hex = try value(db, "sync_key") else { throw SyncError.notInitialized }
        guard let bytes = SyncState.bytes(hex: hex), bytes.count == 32 else { throw SyncError.damagedState("the sync key is damaged") }
        return SecretBytes(copying: bytes)
    }

    static func device(_ db: Database) throws -> String {
        guard let device = try ChangeJournal.device(db) else { throw SyncError.damagedState("this vault has no device id") }
        return device
    }

    static func pushed(_ db: Database) throws -> Int64 { Int64(try value(db, "sync_pushed") ?? "0") ?? 0 }

    static func bytes(hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next() {
            guard let low = iterator.next(), let h = nibble(high), let l = nibble(low) else { return nil }
            bytes.append(h << 4 | l)
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// For each device, the last of its logs applied here.
    static func applied(_ db: Database) throws -> [String: Int64] {
        var vector: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT device, max(seq) AS seq FROM sync_log GROUP BY device") {
            vector[row["device"]] = row["seq"]
        }
        return vector
    }

    /// The vector a log was written at, nil when it was not applied here.
    static func vector(_ db: Database, device: String, sequence: Int64) throws -> [String: Int64]? {
        guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT vector FROM sync_log WHERE device = ? AND seq = ?"),
                                             arguments: [device, sequence]) else { return nil }
        return try SyncJSON.decoder.decode([String: Int64].self, from: Data(text.utf8))
    }

    struct FieldState {
        var value: SyncValue
        var stamp: String
        var device: String
        var log: Int64
    }

    static func fields(_ db: Database, kind: String, identity: String) throws -> [String: FieldState] {
        var fields: [String: FieldState] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT field, value, stamp, device, log FROM sync_field WHERE kind = ? AND identity = ?"),
                                    arguments: [kind, identity]) {
            fields[row["field"]] = FieldState(value: SyncValue(row["value"] as DatabaseValue), stamp: row["stamp"], device: row["device"], log: row["log"])
        }
        return fields
    }

    static func setField(_ db: Database, kind: String, identity: String, field: String, _ state: FieldState) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sync_field (kind, identity, field, value, stamp, device, log) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (kind, identity, field) DO UPDATE SET value = excluded.value, stamp = excluded.stamp,
                device = excluded.device, log = excluded.log
            """).execute(arguments: [kind, identity, field, state.value.databaseValue, state.stamp, state.device, state.log])
    }

    struct RecordState {
        var local: String?
        var removed: Bool
    }

    static func record(_ db: Database, kind: String, identity: String) throws -> RecordState? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT local, removed FROM sync_record WHERE kind = ? AND identity = ?"),
                         arguments: [kind, identity]).map { RecordState(local: $0["local"], removed: $0["removed"]) }
    }

    /// The identity of the record known here as `local` (not removed).
    static func identity(_ db: Database, kind: String, local: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT identity FROM sync_record WHERE kind = ? AND local = ? AND removed = 0"),
                            arguments: [kind, local])
    }

    static func setRecord(_ db: Database, kind: String, identity: String, _ state: RecordState) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sync_record (kind, identity, local, removed) VALUES (?, ?, ?, ?)
            ON CONFLICT (kind, identity) DO UPDATE SET local = excluded.local, removed = excluded.removed
            """).execute(arguments: [kind, identity, state.local, state.removed])
    }
}
