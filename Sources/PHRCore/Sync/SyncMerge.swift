import Foundation
import GRDB

/// Applies change logs inside one write transaction (SyncEngine.run): this device's own (their
/// fields' stamps only: the values are already here) and the other devices' (values, merged).
struct Merge {
    let db: Database
    let device: String
    var clock: SyncClock
    private(set) var applied = 0
    private(set) var conflicts = 0
    private(set) var mergedDoses = 0
    private var vectors: [String: [String: Int64]] = [:]

    init(db: Database, device: String, clock: SyncClock) {
        self.db = db
        self.device = device
        self.clock = clock
    }

    // MARK: This device's logs

    /// Records a log this device just wrote: its fields' values and stamps become what the next
    /// push compares against; a field edited here settles the conflicts it had.
    mutating func recordOwn(_ body: SyncLogBody) throws {
        try record(body, onlyNewer: false)
    }

    /// Records a log of this device found on the remote but not here (a run killed after writing
    /// it): only stamps newer than what is here are taken; the journal is sent again from where
    /// it was, and what the log already holds is not sent twice.
    mutating func adopt(_ body: SyncLogBody) throws {
        try record(body, onlyNewer: true)
    }

    private mutating func record(_ body: SyncLogBody, onlyNewer: Bool) throws {
        for change in body.changes {
            clock.observe(change.stamp)
            guard let kind = SyncKind.named(change.kind) else { continue }
            switch change.operation {
            case .set:
                let stored = onlyNewer ? try SyncState.fields(db, kind: kind.name, identity: change.identity) : [:]
                let conflicted = try !onlyNewer && hasOpenConflicts(kind: kind.name, identity: change.identity)
                for (field, value) in change.fields ?? [:] {
                    if onlyNewer, let current = stored[field], current.stamp >= change.stamp { continue }
                    try SyncState.setField(db, kind: kind.name, identity: change.identity, field: field,
                                           .init(value: value, stamp: change.stamp, device: body.device, log: body.sequence))
                    if conflicted { try settle(kind: kind.name, identity: change.identity, field: field, vector: body.vector) }
                }
                try clearRemoval(kind: kind.name, identity: change.identity)
                try markEdit(kind: kind.name, identity: change.identity, change: change, body: body)
                // The record may be gone since (removed here after a killed run wrote this log):
                // its key here stays known, so the next push can send the removal.
                let previous = try SyncState.record(db, kind: kind.name, identity: change.identity)
                let local = try kind.local(db, identity: change.identity) ?? previous?.local ?? (kind.shape == .record || kind.shape == .dose ? change.id : nil)
                try SyncState.setRecord(db, kind: kind.name, identity: change.identity, .init(local: local, removed: false))
            case .remove:
                let previous = try SyncState.record(db, kind: kind.name, identity: change.identity)
                try SyncState.setRecord(db, kind: kind.name, identity: change.identity, .init(local: previous?.local, removed: true))
                try SyncState.setField(db, kind: kind.name, identity: change.identity, field: Self.removal,
                                       .init(value: .integer(1), stamp: change.stamp, device: body.device, log: body.sequence))
            }
        }
        try noteApplied(body)
    }

    // MARK: Other devices' logs

    /// The field that marks a removal: its stamp and log say who removed the record when.
    static let removal = "*removed"

    mutating func apply(_ body: SyncLogBody, each: () -> Void) throws {
        for change in body.changes {
            clock.observe(change.stamp)
            guard let kind = SyncKind.named(change.kind) else { continue }
            switch change.operation {
            case .remove: try applyRemove(kind, change, body)
            case .set: try applySet(kind, change, body)
            }
            applied += 1
            each()
        }
        try noteApplied(body)
    }

    private mutating func applyRemove(_ kind: SyncKind, _ change: SyncChange, _ body: SyncLogBody) throws {
        let record = try SyncState.record(db, kind: kind.name, identity: change.identity)
        if record?.removed == true { return }
        // A change the remover had not seen keeps the record (and for a medication, its doses').
        // (Edits only: a child's removal, which the removal itself causes elsewhere, is not one.)
        var states = Array(try SyncState.fields(db, kind: kind.name, identity: change.identity).filter { $0.key != Self.removal }.values)
        if kind.kind == .medication {
            let prefix = change.identity + SyncKind.separator
            states += try Row.fetchAll(db.cachedStatement(sql: """
                SELECT value, stamp, device, log FROM sync_field WHERE kind = 'dose' AND identity >= ? AND identity < ? AND field <> ?
                """), arguments: [prefix, change.identity + "\u{20}", Self.removal]).map {
                SyncState.FieldState(value: SyncValue($0["value"] as DatabaseValue), stamp: $0["stamp"], device: $0["device"], log: $0["log"])
            }
        }
        if try states.contains(where: { try isConcurrent($0, with: body) }) {
            try conflict(kind: kind.name, identity: change.identity, field: "*", reason: "changed_and_removed", kept: nil, lost: nil,
                         lostDevice: body.device, lostLog: body.sequence, lostStamp: change.stamp)
            return
        }
        let local = try record?.local ?? kind.local(db, identity: change.identity)
        if let local { try kind.remove(db, local: local) }
        try SyncState.setRecord(db, kind: kind.name, identity: change.identity, .init(local: local, removed: true))
        try SyncState.setField(db, kind: kind.name, identity: change.identity, field: Self.removal,
                               .init(value: .integer(1), stamp: change.stamp, device: body.device, log: body.sequence))
    }

    private mutating func applySet(_ kind: SyncKind, _ change: SyncChange, _ body: SyncLogBody) throws {
        let identity = change.identity
        let incoming = change.fields ?? [:]
        let stored = try SyncState.fields(db, kind: kind.name, identity: identity)
        let record = try SyncState.record(db, kind: kind.name, identity: identity)

        let removedHere = record?.removed == true
        if removedHere, let removal = stored[Self.removal], try isConcurrent(removal, with: body) {
            // Removed here: a change made without seeing the removal brings the record back.
            try conflict(kind: kind.name, identity: identity, field: "*", reason: "changed_and_removed", kept: nil, lost: .text("removed"),
                         lostDevice: removal.device, lostLog: removal.log, lostStamp: removal.stamp)
        }
        let local = removedHere ? nil : try kind.local(db, identity: identity)
        let exists = try local.flatMap { try kind.row(db, local: $0) } != nil
        var decision = try decide(kind: kind, identity: identity, incoming: incoming, stored: stored, change: change, body: body, asUnit: false)
        var written = local
        if !exists {
            var full = stored.filter { !$0.key.hasPrefix("*") }.mapValues(\.value)
            full.merge(decision.winners) { $1 }
            do {
                written = try write(kind, identity: identity, fields: full, local: nil, idHint: change.id, body: body, stamp: change.stamp)
            } catch let error as DatabaseError where [.SQLITE_CONSTRAINT_CHECK, .SQLITE_CONSTRAINT_NOTNULL].contains(error.extendedResultCode) {
                // A record the schema refuses as merged: not made here; what it brought is listed.
                decision = refused(incoming, stored: stored, change: change, body: body)
                written = nil
            }
        } else if !decision.winners.isEmpty {
            do {
                _ = try write(kind, identity: identity, fields: decision.winners, local: local, idHint: nil, body: body, stamp: change.stamp)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK {
                // Fields that must agree (a schedule and its times) merged into a row the schema
                // refuses: the change is taken or left as a whole, by its stamp.
                decision = try decide(kind: kind, identity: identity, incoming: incoming, stored: stored, change: change, body: body, asUnit: true)
                if !decision.winners.isEmpty {
                    do {
                        _ = try write(kind, identity: identity, fields: decision.winners, local: local, idHint: nil, body: body, stamp: change.stamp)
                    } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK {
                        decision = refused(incoming, stored: stored, change: change, body: body)
                    }
                }
            }
        }
        for item in decision.conflicts {
            try conflict(kind: kind.name, identity: identity, field: item.field, reason: "both_changed", kept: item.kept, lost: item.lost,
                         lostDevice: item.lostDevice, lostLog: item.lostLog, lostStamp: item.lostStamp)
        }
        let conflicted = try hasOpenConflicts(kind: kind.name, identity: identity)
        for (field, value) in decision.winners {
            try SyncState.setField(db, kind: kind.name, identity: identity, field: field,
                                   .init(value: value, stamp: change.stamp, device: body.device, log: body.sequence))
            if conflicted { try settle(kind: kind.name, identity: identity, field: field, vector: body.vector) }
        }
        if removedHere || stored[Self.removal] != nil { try clearRemoval(kind: kind.name, identity: identity) }
        try markEdit(kind: kind.name, identity: identity, change: change, body: body)
        try SyncState.setRecord(db, kind: kind.name, identity: identity, .init(local: written, removed: written == nil))
    }

    /// Notes that `body`'s device changed the record in that log, whether or not its values won:
    /// a removal made without seeing the change leaves the record in place on every device, in
    /// whatever order they learn of the two.
    private func markEdit(kind: String, identity: String, change: SyncChange, body: SyncLogBody) throws {
        try SyncState.setField(db, kind: kind, identity: identity, field: Self.editMark + body.device,
                               .init(value: .integer(body.sequence), stamp: change.stamp, device: body.device, log: body.sequence))
    }

    /// Bookkeeping fields start with "*": never a column, never sent.
    static let editMark = "*edit:"

    private struct Decision {
        var winners: [String: SyncValue] = [:]
        var conflicts: [(field: String, kept: SyncValue, lost: SyncValue, lostDevice: String, lostLog: Int64, lostStamp: String)] = []
    }

    /// A change whose merged row the schema refuses even as a whole: the row stays as it is and
    /// every value the change brought is kept as a conflict, so nothing is lost and sync goes on.
    private func refused(_ incoming: [String: SyncValue], stored: [String: SyncState.FieldState], change: SyncChange,
                         body: SyncLogBody) -> Decision {
        var decision = Decision()
        for (field, value) in incoming.sorted(by: { $0.key < $1.key }) where stored[field]?.value != value {
            decision.conflicts.append((field, stored[field]?.value ?? .null, value, body.device, body.sequence, change.stamp))
        }
        return decision
    }

    /// Which incoming fields win. A field written here without seeing the other's write (and the
    /// other way round) is concurrent: the later stamp wins and the other value is a conflict.
    /// `asUnit` decides the whole change by its stamp against the latest concurrent one.
    private mutating func decide(kind: SyncKind, identity: String, incoming: [String: SyncValue], stored: [String: SyncState.FieldState],
                        change: SyncChange, body: SyncLogBody, asUnit: Bool) throws -> Decision {
        var decision = Decision()
        var unitWins = true
        if asUnit {
            for (field, _) in incoming {
                if let current = stored[field], try isConcurrent(current, with: body), current.stamp > change.stamp { unitWins = false }
            }
        }
        for (field, value) in incoming.sorted(by: { $0.key < $1.key }) {
            guard let current = stored[field] else {
                if !asUnit || unitWins { decision.winners[field] = value }
                continue
            }
            if current.stamp == change.stamp && current.device == body.device { continue }
            let concurrent = try isConcurrent(current, with: body)
            let wins = asUnit ? unitWins : change.stamp > current.stamp
            if wins {
                decision.winners[field] = value
                if concurrent, current.value != value {
                    decision.conflicts.append((field, value, current.value, current.device, current.log, current.stamp))
                }
            } else if (concurrent || asUnit), current.value != value {
                // (A change that loses as a whole keeps every value it brought, conflicting or not.)
                decision.conflicts.append((field, current.value, value, body.device, body.sequence, change.stamp))
            }
        }
        return decision
    }

    /// Writes a record new here, resolving a clash with another record on a key that must be
    /// unique: the same scheduled dose logged on two devices is one dose (the one with the lower
    /// identity stays); two records from the same imported item both stay, the higher identity
    /// without the item's key; two profiles of one name both stay, the higher uid renamed. Every
    /// device decides alike, so all end the same. Returns the local key, nil when the record
    /// was merged into another.
    private mutating func write(_ kind: SyncKind, identity: String, fields: [String: SyncValue], local: String?, idHint: String?,
                                body: SyncLogBody, stamp: String) throws -> String? {
        var fields = fields
        for _ in 0..<20 {
            do {
                var key: String?
                try db.inSavepoint {
                    key = try kind.write(db, fields: fields, local: local, idHint: idHint)
                    return .commit
                }
                return key
            } catch SyncError.missingParent where kind.shape == .dose {
                // A dose logged on a medication another device removed meanwhile: the medication
                // comes back (a change of its own), as any record changed while removed elsewhere.
                guard let parent = fields["medication"]?.text, try restore(.medication, identity: parent, body: body) else {
                    throw SyncError.missingParent(kind: kind.name)
                }
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                guard let clash = try clashing(kind, identity: identity, fields: fields), clash.identity != identity else { throw error }
                switch kind.shape {
                case .dose:
                    mergedDoses += 1
                    // Kept under the identity that stays, settled: nothing to decide, only to see.
                    if identity < clash.identity {
                        let lost = try kind.row(db, local: clash.local).map(Self.doseSummary)
                        try conflict(kind: kind.name, identity: identity, field: "*", reason: "duplicate", kept: nil, lost: lost.map { .text($0) },
                                     lostDevice: device, lostLog: 0, lostStamp: stamp, settled: true)
                        try kind.remove(db, local: clash.local)
                    } else {
                        try conflict(kind: kind.name, identity: clash.identity, field: "*", reason: "duplicate", kept: nil,
                                     lost: .text(Self.doseSummary(fields)), lostDevice: body.device, lostLog: body.sequence, lostStamp: stamp,
                                     settled: true)
                        return nil
                    }
                case .profile:
                    let name = fields["name"]?.text ?? ""
                    if identity > clash.identity {
                        fields["name"] = .text(try freeProfileName(name))
                    } else {
                        try db.cachedStatement(sql: "UPDATE profile SET name = ? WHERE uid = ?").execute(arguments: [try freeProfileName(name), clash.identity])
                    }
                    try conflict(kind: kind.name, identity: max(identity, clash.identity), field: "name", reason: "duplicate",
                                 kept: fields["name"], lost: .text(name), lostDevice: body.device, lostLog: body.sequence, lostStamp: stamp)
                default:
                    if identity > clash.identity {
                        fields["source_key"] = .null
                    } else {
                        try db.cachedStatement(sql: "UPDATE \(kind.table) SET source_key = NULL WHERE id = ?").execute(arguments: [clash.local])
                    }
                }
            }
        }
        throw SyncError.damagedState("a \(kind.name) that clashes with records here")
    }

    /// Brings back a record removed here, from the fields last synced, with a conflict that says
    /// so; false when there is nothing to bring back.
    private mutating func restore(_ recordKind: RecordKind, identity: String, body: SyncLogBody) throws -> Bool {
        guard let kind = SyncKind.all.first(where: { $0.kind == recordKind }),
              try SyncState.record(db, kind: kind.name, identity: identity)?.removed == true else { return false }
        let stored = try SyncState.fields(db, kind: kind.name, identity: identity)
        guard let removal = stored[Self.removal] else { return false }
        let local = try write(kind, identity: identity, fields: stored.filter { !$0.key.hasPrefix("*") }.mapValues(\.value), local: nil,
                              idHint: nil, body: body, stamp: removal.stamp)
        try conflict(kind: kind.name, identity: identity, field: "*", reason: "changed_and_removed", kept: nil, lost: .text("removed"),
                     lostDevice: removal.device, lostLog: removal.log, lostStamp: removal.stamp)
        try clearRemoval(kind: kind.name, identity: identity)
        try SyncState.setRecord(db, kind: kind.name, identity: identity, .init(local: local, removed: local == nil))
        return local != nil
    }

    /// The record here that holds the unique key `fields` would take.
    private func clashing(_ kind: SyncKind, identity: String, fields: [String: SyncValue]) throws -> (identity: String, local: String)? {
        // A partial change names its parent only in its identity.
        let parent = identity.range(of: SyncKind.separator, options: kind.shape == .dose ? .backwards : []).map { String(identity[..<$0.lowerBound]) }
        let row: Row?
        switch kind.shape {
        case .profile:
            row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM profile WHERE name = ? COLLATE NOCASE"), arguments: [fields["name"]?.databaseValue ?? .null])
        case .dose:
            guard let medication = try (fields["medication"]?.text ?? parent).flatMap({ try SyncKind.medicationID(db, identity: $0) }) else { return nil }
            row = try Row.fetchOne(db, sql: "SELECT * FROM dose WHERE medication_id = ? AND scheduled_for = ?",
                                   arguments: [medication, fields["scheduled_for"]?.databaseValue ?? .null])
        default:
            guard try SyncKind.columns(db, table: kind.table).contains("source_key"),
                  let profile = fields["profile"]?.text ?? parent, let key = fields["source_key"], key != .null else { return nil }
            row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT * FROM \(kind.table) WHERE profile_id = (SELECT id FROM profile WHERE uid = ?) AND source_key = ?
                """), arguments: [profile, key.databaseValue])
        }
        guard let row else { return nil }
        return (try kind.identity(db, of: row), try kind.localKey(db, of: row))
    }

    private func freeProfileName(_ name: String) throws -> String {
        for number in 2... {
            let candidate = "\(name) (\(number))"
            if try !Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM profile WHERE name = ? COLLATE NOCASE)"), arguments: [candidate])! {
                return candidate
            }
        }
        return name
    }

    // MARK: Bookkeeping

    /// Whether the write `current` and the log `body` were made without either seeing the other.
    private mutating func isConcurrent(_ current: SyncState.FieldState, with body: SyncLogBody) throws -> Bool {
        if current.device == body.device { return false }
        if (body.vector[current.device] ?? 0) >= current.log { return false }
        if let vector = try vector(device: current.device, log: current.log), (vector[body.device] ?? 0) >= body.sequence { return false }
        return true
    }

    private mutating func vector(device: String, log: Int64) throws -> [String: Int64]? {
        let key = device + "/" + String(log)
        if let cached = vectors[key] { return cached }
        let vector = try SyncState.vector(db, device: device, sequence: log)
        vectors[key] = vector
        return vector
    }

    private mutating func conflict(kind: String, identity: String, field: String, reason: String, kept: SyncValue?, lost: SyncValue?,
                                   lostDevice: String, lostLog: Int64, lostStamp: String, settled: Bool = false) throws {
        let now = Timestamp.string(Date())
        try db.cachedStatement(sql: """
            INSERT INTO sync_conflict (id, kind, identity, field, reason, kept, lost, lost_device, lost_log, lost_stamp, at, resolved_at, resolution)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [try RecordID.generate(db, table: "sync_conflict"), kind, identity, field, reason, kept?.stored, lost?.stored,
                             lostDevice, lostLog, lostStamp, now, settled ? now : nil, settled ? "kept" : nil])
        if !settled { conflicts += 1 }
    }

    /// A dose as a person reads it: "taken 2026-11-29T08:00:00Z for 08:00".
    static func doseSummary(_ row: Row) -> String {
        let status: String = row["status"] ?? "", at: String = row["at"] ?? "", slot: String? = row["scheduled_for"]
        return "\(status) \(at)" + (slot.map { " for \($0.suffix(5))" } ?? "")
    }

    static func doseSummary(_ fields: [String: SyncValue]) -> String {
        let slot = fields["scheduled_for"]?.text
        return "\(fields["status"]?.text ?? "") \(fields["at"]?.text ?? "")" + (slot.map { " for \($0.suffix(5))" } ?? "")
    }

    private func hasOpenConflicts(kind: String, identity: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM sync_conflict WHERE kind = ? AND identity = ? AND resolved_at IS NULL)
            """), arguments: [kind, identity])!
    }

    /// A write that saw both sides of an open conflict on its field settles it.
    private func settle(kind: String, identity: String, field: String, vector: [String: Int64]) throws {
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT id, lost_device, lost_log FROM sync_conflict WHERE kind = ? AND identity = ? AND field = ? AND resolved_at IS NULL
            """), arguments: [kind, identity, field]) {
            let lostDevice: String = row["lost_device"], lostLog: Int64 = row["lost_log"]
            guard (vector[lostDevice] ?? 0) >= lostLog else { continue }
            try db.execute(sql: "UPDATE sync_conflict SET resolved_at = ?, resolution = 'superseded' WHERE id = ?",
                           arguments: [Timestamp.string(Date()), row["id"] as String])
        }
    }

    private func clearRemoval(kind: String, identity: String) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_field WHERE kind = ? AND identity = ? AND field = ?").execute(arguments: [kind, identity, Self.removal])
    }

    private func noteApplied(_ body: SyncLogBody) throws {
        try db.execute(sql: "INSERT INTO sync_log (device, seq, vector, changes, applied_at) VALUES (?, ?, ?, ?, ?)",
                       arguments: [body.device, body.sequence, String(decoding: try SyncJSON.encoder.encode(body.vector), as: UTF8.self),
                                   body.changes.count, Timestamp.string(Date())])
    }
}
