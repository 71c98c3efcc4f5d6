import Foundation
import GRDB

extension SyncEngine {
    /// What `phr sync status` shows.
    public struct Status: Codable, Sendable, Equatable {
        public var device: String
        public var remotes: [Remote]
        /// Records changed here since the last sync (each counted once).
        public var pendingChanges: Int
        /// Logs on the remote this device has not applied (nil when the remote was not read).
        public var remoteLogs: Int?
        public var lastSync: String?
        public var openConflicts: Int
        public var devices: [Device]

        enum CodingKeys: String, CodingKey {
            case device, remotes, pendingChanges = "pending_changes", remoteLogs = "remote_logs", lastSync = "last_sync"
            case openConflicts = "open_conflicts", devices
        }
    }

    /// A device of the vault, as far as this one knows.
    public struct Device: Codable, Sendable, Equatable {
        public var device: String
        public var isThisDevice: Bool
        /// Its last log applied here.
        public var logs: Int64
        public var changes: Int
        /// When its last log was applied here (for this device: written).
        public var lastApplied: String?

        enum CodingKeys: String, CodingKey {
            case device, isThisDevice = "this_device", logs, changes, lastApplied = "last_applied"
        }
    }

    public static func devices(_ vault: Vault) throws -> [Device] {
        try vault.database.read { db in
            let this = try SyncState.device(db)
            var devices = try Row.fetchAll(db, sql: """
                SELECT device, max(seq) AS logs, sum(changes) AS changes, max(applied_at) AS last FROM sync_log GROUP BY device ORDER BY device
                """).map { row in
                Device(device: row["device"], isThisDevice: row["device"] == this, logs: row["logs"], changes: row["changes"], lastApplied: row["last"])
            }
            if !devices.contains(where: { $0.isThisDevice }) {
                devices.append(Device(device: this, isThisDevice: true, logs: 0, changes: 0, lastApplied: nil))
            }
            return devices.sorted { ($0.isThisDevice ? 0 : 1, $0.device) < ($1.isThisDevice ? 0 : 1, $1.device) }
        }
    }

    /// The sync's state; `remote`, when given, is read for the logs waiting there.
    public static func status(_ vault: Vault, remote: (any SyncRemote)?) throws -> Status {
        let (device, pending, last, conflicts, applied) = try vault.database.read { db in
            guard try SyncState.isInitialized(db) else { throw SyncError.notInitialized }
            let pushed = try SyncState.pushed(db)
            var seen = Set<String>()
            var pending = 0
            for entry in try ChangeJournal.entries(db, after: pushed) {
                guard let kind = SyncKind.named(entry.kind), seen.insert(kind.name + SyncKind.separator + kind.localKey(of: entry)).inserted else { continue }
                // A record whose fields are as last synced (a change sync itself applied) is not pending.
                if let row = try kind.row(db, local: kind.localKey(of: entry)) {
                    let identity = try kind.identity(db, of: row)
                    let stored = try SyncState.fields(db, kind: kind.name, identity: identity)
                    let fields = try kind.fields(db, of: row)
                    if stored.isEmpty || fields.contains(where: { stored[$0.key]?.value != $0.value }) { pending += 1 }
                } else if try SyncState.identity(db, kind: kind.name, local: kind.localKey(of: entry)) != nil {
                    pending += 1
                }
            }
            let conflicts = try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_conflict WHERE resolved_at IS NULL") ?? 0
            return (try SyncState.device(db), pending, try SyncState.value(db, "sync_last"), conflicts, try SyncState.applied(db))
        }
        var waiting: Int?
        if let remote {
            var count = 0
            for other in try remote.list("logs") where other != device && other.count == 32 {
                count += try remote.list("logs/\(other)").compactMap(SyncLogObject.sequence(ofName:)).filter { $0 > applied[other] ?? 0 }.count
            }
            waiting = count
        }
        return Status(device: device, remotes: try remotes(vault), pendingChanges: pending, remoteLogs: waiting, lastSync: last,
                      openConflicts: conflicts, devices: try devices(vault))
    }

    // MARK: Conflicts

    /// A value that lost a merge, kept until the user settles it.
    public struct Conflict: Codable, Sendable, Equatable {
        public var id: String
        /// The record kind (RecordKind.name) and its short ID here, nil when it is gone.
        public var kind: String
        public var record: String?
        /// The field, `*` for the whole record.
        public var field: String
        /// `both_changed`, `changed_and_removed` or `duplicate`.
        public var reason: String
        /// The value the record has (as kept by the merge) and the one that lost, as a person reads them.
        public var kept: String?
        public var lost: String?
        /// The device whose value lost, and when it wrote it.
        public var lostDevice: String
        public var lostAt: String
        public var at: String
        public var resolvedAt: String?
        public var resolution: String?

        enum CodingKeys: String, CodingKey {
            case id, kind, record, field, reason, kept, lost, lostDevice = "lost_device", lostAt = "lost_at", at
            case resolvedAt = "resolved_at", resolution
        }
    }

    public static func conflicts(_ vault: Vault, includeSettled: Bool = false) throws -> [Conflict] {
        try vault.database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM sync_conflict \(includeSettled ? "" : "WHERE resolved_at IS NULL") ORDER BY at, id
                """).map { row in
                let kind = SyncKind.named(row["kind"])
                let identity: String = row["identity"]
                let record: String?
                if let kind, kind.shape != .profile, kind.shape != .perProfile, kind.shape != .goal {
                    record = try kind.local(db, identity: identity)
                } else {
                    record = try kind?.local(db, identity: identity).flatMap { try kind?.row(db, local: $0) }.map { $0["name"] ?? $0["metric"] ?? "" }
                }
                let stamp: String = row["lost_stamp"]
                let milliseconds = Double(stamp.split(separator: ".").first.flatMap { Int64($0) } ?? 0)
                return Conflict(id: row["id"], kind: row["kind"], record: record, field: row["field"], reason: row["reason"],
                                kept: try (row["kept"] as String?).map { try SyncValue(stored: $0).display },
                                lost: try (row["lost"] as String?).map { try SyncValue(stored: $0).display },
                                lostDevice: row["lost_device"], lostAt: Timestamp.string(Date(timeIntervalSince1970: milliseconds / 1000)),
                                at: row["at"], resolvedAt: row["resolved_at"], resolution: row["resolution"])
            }
        }
    }

    /// Which value a settled conflict keeps.
    public enum Keep: String, Sendable, CaseIterable {
        /// The value the record has now.
        case current
        /// The value that lost, written back into the record.
        case other
    }

    /// Settles conflict `id` (any unique prefix): `.other` writes the lost value into the record;
    /// either way the field is sent again at the next sync, which settles the same conflict on
    /// the other devices.
    @discardableResult
    public static func resolve(_ vault: Vault, id prefix: String, keep: Keep, now: Date = Date()) throws -> Conflict {
        let settled = try vault.database.write { db -> String in
            let id: String
            do {
                id = try RecordID.resolve(db, table: "sync_conflict", kind: "sync conflict", prefix: prefix)
            } catch RecordError.notFound {
                throw SyncError.noConflict(prefix)
            }
            let row = try Row.fetchOne(db, sql: "SELECT * FROM sync_conflict WHERE id = ?", arguments: [id])!
            guard (row["resolved_at"] as String?) == nil else { throw SyncError.conflictSettled(id) }
            guard let kind = SyncKind.named(row["kind"]) else { throw SyncError.damagedState("a conflict of an unknown kind") }
            let identity: String = row["identity"], field: String = row["field"], reason: String = row["reason"]
            if keep == .other, reason == "both_changed", let lost = try (row["lost"] as String?).map(SyncValue.init(stored:)) {
                guard let local = try kind.local(db, identity: identity) else { throw SyncError.noConflict(prefix) }
                _ = try kind.write(db, fields: [field: lost], local: local, idHint: nil)
            }
            // Sent again with a new stamp: a write that has seen both sides.
            try db.execute(sql: "UPDATE sync_field SET stamp = '' WHERE kind = ? AND identity = ? AND (field = ? OR ? = '*') AND field NOT LIKE '*%'",
                           arguments: [kind.name, identity, field, field])
            try db.execute(sql: "UPDATE sync_conflict SET resolved_at = ?, resolution = ? WHERE id = ?",
                           arguments: [Timestamp.string(now), keep == .other ? "other" : "kept", id])
            return id
        }
        guard let conflict = try conflicts(vault, includeSettled: true).first(where: { $0.id == settled }) else {
            throw SyncError.noConflict(prefix)
        }
        return conflict
    }
}
