import Foundation
import GRDB

/// How one kind of record travels between devices: its identity (the same on every device, unlike
/// its short ID or a profile's number), its fields (its columns, with keys to other records
/// written as their identities), and how a row is written back from them.
///
/// Every RecordKind has one (a test walks RecordKind.all). Fields are the table's columns read
/// by name, so a column a migration adds travels without a change here; a field this device's
/// schema does not know is kept in `sync_field` and not written.
struct SyncKind: Sendable {
    enum Shape: Sendable {
        /// A profile, by its uid.
        case profile
        /// One row per profile (medical ID, health settings), by the profile's uid.
        case perProfile
        /// A goal, by profile, metric and first day.
        case goal
        /// A document, by profile and blob: the same file added for the same person on two
        /// devices is one document.
        case document
        /// A dose, by its medication's identity and its uid.
        case dose
        /// A record of a profile with a uid.
        case record
    }

    let kind: RecordKind
    let shape: Shape
    var name: String { kind.name }
    var table: String { kind.table }

    /// Joins the parts of an identity or a local key. Record text cannot hold control
    /// characters (RecordFields.refuseControlCharacters), so no part contains it.
    static let separator = "\u{1F}"

    static let all: [SyncKind] = RecordKind.all.map { kind in
        let shape: Shape
        switch kind {
        case .profile: shape = .profile
        case .medicalID, .healthSettings: shape = .perProfile
        case .goal: shape = .goal
        case .document: shape = .document
        case .dose: shape = .dose
        default: shape = .record
        }
        return SyncKind(kind: kind, shape: shape)
    }

    static func named(_ name: String) -> SyncKind? { all.first { $0.name == name } }

    /// Fields whose values must agree (the schema's CHECKs tie them): sent together whenever one
    /// changes, with one stamp, so a merge takes them from the same change.
    var mustAgree: [[String]] {
        switch kind {
        case .medication: return [["schedule", "times", "every_minutes"], ["status", "stopped_on"]]
        case .dose: return [["status", "forced"]]
        case .appointment: return [["start_local", "time_zone", "start_utc", "all_day", "duration_minutes"]]
        case .reminder: return [["kind", "mode", "window_start", "window_end", "medication", "before_minutes"]]
        case .logEntry: return [["metric", "at", "start_at", "diastolic", "pulse", "factor", "unit", "kind", "value"]]
        default: return []
        }
    }

    /// The order records are applied in: parents before children.
    var rank: Int { Self.all.firstIndex { $0.name == name } ?? Int.max }

    // MARK: Finding a row

    /// The local key of the record a journal entry names.
    func localKey(of entry: ChangeJournal.Entry) -> String {
        shape == .goal ? (entry.profile ?? "") + Self.separator + entry.record : entry.record
    }

    /// The local key of `row`.
    func localKey(_ db: Database, of row: Row) throws -> String {
        switch shape {
        case .profile: return row["uid"]
        case .perProfile: return try Self.profileUID(db, id: row["profile_id"])
        case .goal:
            let metric: String = row["metric"], since: String = row["since"]
            return try Self.profileUID(db, id: row["profile_id"]) + Self.separator + metric + "/" + since
        case .document, .dose, .record: return row["id"]
        }
    }

    /// The row `local` names, nil when there is none.
    func row(_ db: Database, local: String) throws -> Row? {
        let (sql, arguments) = try whereClause(local: local)
        return try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM \(table) WHERE \(sql)"), arguments: arguments)
    }

    private func whereClause(local: String) throws -> (String, StatementArguments) {
        switch shape {
        case .profile: return ("uid = ?", [local])
        case .perProfile: return ("profile_id = (SELECT id FROM profile WHERE uid = ?)", [local])
        case .goal:
            let parts = local.components(separatedBy: Self.separator)
            let key = parts.count == 2 ? parts[1] : ""
            guard let slash = key.firstIndex(of: "/") else { throw SyncError.damagedState("a goal key without a metric") }
            return ("profile_id = (SELECT id FROM profile WHERE uid = ?) AND metric = ? AND since = ?",
                    [parts[0], String(key[..<slash]), String(key[key.index(after: slash)...])])
        case .document, .dose, .record: return ("id = ?", [local])
        }
    }

    /// The local key of the record with `identity` here, nil when this device has none.
    func local(_ db: Database, identity: String) throws -> String? {
        let parts = identity.components(separatedBy: Self.separator)
        switch shape {
        case .profile, .perProfile:
            guard let row = try row(db, local: identity) else { return nil }
            return try localKey(db, of: row)
        case .goal:
            guard parts.count == 3 else { return nil }
            let local = parts[0] + Self.separator + parts[1] + "/" + parts[2]
            return try row(db, local: local) == nil ? nil : local
        case .document:
            return try Self.documentID(db, identity: identity)
        case .dose:
            guard let split = identity.range(of: Self.separator, options: .backwards),
                  let medication = try Self.medicationID(db, identity: String(identity[..<split.lowerBound])) else { return nil }
            return try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM dose WHERE medication_id = ? AND uid = ?"),
                                       arguments: [medication, String(identity[split.upperBound...])])
        case .record:
            guard let split = identity.range(of: Self.separator) else { return nil }
            return try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM \(table) WHERE profile_id = (SELECT id FROM profile WHERE uid = ?) AND uid = ?"),
                                       arguments: [String(identity[..<split.lowerBound]), String(identity[split.upperBound...])])
        }
    }

    // MARK: Identity and fields

    /// The record's identity across devices.
    func identity(_ db: Database, of row: Row) throws -> String {
        let separator = Self.separator
        switch shape {
        case .profile: return row["uid"]
        case .perProfile: return try Self.profileUID(db, id: row["profile_id"])
        case .goal:
            let metric: String = row["metric"], since: String = row["since"]
            return try Self.profileUID(db, id: row["profile_id"]) + separator + metric + separator + since
        case .document:
            let blob: String = row["blob_name"]
            return try Self.profileUID(db, id: row["profile_id"]) + separator + blob
        case .dose:
            let uid: String = row["uid"]
            return try Self.medicationIdentity(db, id: row["medication_id"]) + separator + uid
        case .record:
            let uid: String = row["uid"]
            return try Self.profileUID(db, id: row["profile_id"]) + separator + uid
        }
    }

    /// The record's fields: its columns without its local key, with references to a profile, a
    /// medication or a document as their identities, and for a document its tags, page text,
    /// page layout and blob.
    func fields(_ db: Database, of row: Row) throws -> [String: SyncValue] {
        var fields: [String: SyncValue] = [:]
        for (column, value) in row {
            switch column {
            case "id": continue
            case "profile_id":
                fields["profile"] = .text(try Self.profileUID(db, id: Int64.fromDatabaseValue(value) ?? -1))
            case "medication_id":
                fields["medication"] = try String.fromDatabaseValue(value).map { .text(try Self.medicationIdentity(db, id: $0)) } ?? .null
            case "document_id", "lab_document_id":
                let field = String(column.dropLast(3))
                fields[field] = try String.fromDatabaseValue(value).flatMap { try Self.documentIdentity(db, id: $0) }.map { .text($0) } ?? .null
            default:
                fields[column] = SyncValue(value)
            }
        }
        if shape == .document {
            let id: String = row["id"]
            fields.merge(try SyncDocumentParts.fields(db, documentID: id, blob: row["blob_name"])) { $1 }
        }
        return fields
    }

    // MARK: Writing

    /// Writes `fields` into the record `local` (nil or gone: a new record, which then needs every
    /// field), and returns its local key. References to records this device does not have are
    /// written as none where a column may be empty; a dose whose medication is missing throws.
    func write(_ db: Database, fields: [String: SyncValue], local: String?, idHint: String?) throws -> String {
        let known = try Self.columns(db, table: table)
        var columns: [(String, DatabaseValue)] = []
        for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
            switch field {
            case "profile":
                guard let uid = value.text, let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM profile WHERE uid = ?"), arguments: [uid]) else {
                    throw SyncError.missingParent(kind: name)
                }
                columns.append(("profile_id", id.databaseValue))
            case "medication":
                let id = try value.text.flatMap { try Self.medicationID(db, identity: $0) }
                if id == nil, shape == .dose { throw SyncError.missingParent(kind: name) }
                columns.append(("medication_id", id?.databaseValue ?? .null))
            case "document", "lab_document":
                let id = try value.text.flatMap { try Self.documentID(db, identity: $0) }
                columns.append((field + "_id", id?.databaseValue ?? .null))
            default:
                if known.contains(field) { columns.append((field, value.databaseValue)) }
            }
        }
        let existing = try local.flatMap { try row(db, local: $0) }
        if shape == .document, let blob = fields["blob"] { try SyncDocumentParts.registerBlob(db, fields: fields, blob: blob) }
        if existing != nil, let local {
            let settable = columns.filter { $0.0 != "id" }
            if !settable.isEmpty {
                let (clause, keyArguments) = try whereClause(local: local)
                var arguments = StatementArguments(settable.map { $0.1 })
                arguments += keyArguments
                let sql = "UPDATE \(table) SET \(settable.map { "\($0.0.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")) WHERE \(clause)"
                try db.cachedStatement(sql: sql).execute(arguments: arguments)
            }
        } else {
            var all = columns
            if known.contains("id"), shape != .profile {
                let wanted = idHint ?? ""
                let shaped = (4...16).contains(wanted.count) && wanted.allSatisfy { RecordID.alphabet.contains($0) }
                let free = try shaped && !RecordID.exists(db, table: table, id: wanted)
                all.append(("id", (free ? wanted : try RecordID.generate(db, table: table)).databaseValue))
            }
            let sql = "INSERT INTO \(table) (\(all.map { $0.0.quotedDatabaseIdentifier }.joined(separator: ", "))) VALUES (\(all.map { _ in "?" }.joined(separator: ", ")))"
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(all.map { $0.1 }))
        }
        // The row as written, found again by what identifies it.
        let written: Row?
        switch shape {
        case .profile: written = try row(db, local: fields["uid"]?.text ?? local ?? "")
        case .document, .dose, .record:
            if let existing { written = try row(db, local: existing["id"]) } else {
                written = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM \(table) WHERE rowid = ?"), arguments: [db.lastInsertedRowID])
            }
        case .perProfile, .goal:
            if existing != nil, let local {
                written = try row(db, local: local)
                break
            }
            let profile = columns.first { $0.0 == "profile_id" }?.1 ?? .null
            if shape == .perProfile {
                written = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM \(table) WHERE profile_id = ?"), arguments: [profile])
            } else {
                let metric = columns.first { $0.0 == "metric" }?.1 ?? .null, since = columns.first { $0.0 == "since" }?.1 ?? .null
                written = try Row.fetchOne(db, sql: "SELECT * FROM \(table) WHERE profile_id = ? AND metric = ? AND since = ?",
                                           arguments: [profile, metric, since])
            }
        }
        guard let written else { throw SyncError.damagedState("a \(name) written by sync cannot be found again") }
        let key = try localKey(db, of: written)
        if shape == .document {
            try SyncDocumentParts.write(db, documentID: key, fields: fields)
        }
        try reindex(db, row: written)
        return key
    }

    /// Removes the record `local` and its search entries.
    func remove(_ db: Database, local: String) throws {
        guard let row = try row(db, local: local) else { return }
        if let searchKind = searchKind, shape != .perProfile {
            try SearchIndex.remove(db, kind: searchKind, recordID: row["id"])
        }
        let (clause, arguments) = try whereClause(local: local)
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(clause)").execute(arguments: arguments)
        if shape == .document {
            let blob: String = row["blob_name"]
            if try !Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM document WHERE blob_name = ?)"), arguments: [blob])! {
                try db.cachedStatement(sql: "DELETE FROM blob WHERE name = ?").execute(arguments: [blob])
            }
        }
    }

    /// The kind's name in the search index, nil for kinds that are not searched.
    private var searchKind: String? {
        switch kind {
        case .document: return DocumentStore.kind
        case .medication: return MedicationStore.kind
        case .appointment: return AppointmentStore.kind
        case .contact: return ContactStore.kind
        case .allergy: return AllergyStore.kind
        case .condition: return ConditionStore.kind
        case .immunization: return ImmunizationStore.kind
        case .procedure: return ProcedureStore.kind
        case .familyHistory: return FamilyHistoryStore.kind
        case .observation: return ObservationStore.kind
        case .logEntry: return LogStore.kind
        default: return nil
        }
    }

    /// Rewrites the search entry of a row written by sync, as its store would.
    private func reindex(_ db: Database, row: Row) throws {
        switch kind {
        case .medication: try reindex(MedicationStore.self, db, row)
        case .appointment: try reindex(AppointmentStore.self, db, row)
        case .contact: try reindex(ContactStore.self, db, row)
        case .allergy: try reindex(AllergyStore.self, db, row)
        case .condition: try reindex(ConditionStore.self, db, row)
        case .immunization: try reindex(ImmunizationStore.self, db, row)
        case .procedure: try reindex(ProcedureStore.self, db, row)
        case .familyHistory: try reindex(FamilyHistoryStore.self, db, row)
        case .observation: try reindex(ObservationStore.self, db, row)
        case .logEntry:
            if let entry = try LogEntry.fetchOne(db, key: row["id"] as String) { try LogStore.index(db, entry, profileID: row["profile_id"]) }
        case .medicalID:
            if let id = try MedicalID.fetchOne(db, key: row["profile_id"] as Int64) { try MedicalIDStore.index(db, id, profileID: row["profile_id"]) }
        default: break
        }
    }

    private func reindex<Store: ProfileRecordStore>(_ store: Store.Type, _ db: Database, _ row: Row) throws {
        guard let record = try Store.Record.fetchOne(db, key: row["id"] as String) else { return }
        try Store.index(db, record, profileID: row["profile_id"])
    }

    // MARK: References

    static func profileUID(_ db: Database, id: Int64) throws -> String {
        guard let uid = try String.fetchOne(db, cachedSQL: "SELECT uid FROM profile WHERE id = ?", [id]) else {
            throw SyncError.damagedState("a record of a profile that does not exist")
        }
        return uid
    }

    static func medicationIdentity(_ db: Database, id: String) throws -> String {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT p.uid AS profile, m.uid AS uid FROM medication m JOIN profile p ON p.id = m.profile_id WHERE m.id = ?
            """), arguments: [id]) else { throw SyncError.damagedState("a dose of a medication that does not exist") }
        return (row["profile"] as String) + separator + (row["uid"] as String)
    }

    static func documentIdentity(_ db: Database, id: String) throws -> String? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT p.uid AS profile, d.blob_name AS blob FROM document d JOIN profile p ON p.id = d.profile_id WHERE d.id = ?
            """), arguments: [id]).map { ($0["profile"] as String) + separator + ($0["blob"] as String) }
    }

    static func medicationID(_ db: Database, identity: String) throws -> String? {
        guard let split = identity.range(of: separator) else { return nil }
        return try String.fetchOne(db.cachedStatement(sql: """
            SELECT m.id FROM medication m JOIN profile p ON p.id = m.profile_id WHERE p.uid = ? AND m.uid = ?
            """), arguments: [String(identity[..<split.lowerBound]), String(identity[split.upperBound...])])
    }

    static func documentID(_ db: Database, identity: String) throws -> String? {
        guard let split = identity.range(of: separator) else { return nil }
        return try String.fetchOne(db.cachedStatement(sql: """
            SELECT d.id FROM document d JOIN profile p ON p.id = d.profile_id WHERE p.uid = ? AND d.blob_name = ?
            """), arguments: [String(identity[..<split.lowerBound]), String(identity[split.upperBound...])])
    }

    static func columns(_ db: Database, table: String) throws -> Set<String> {
        Set(try db.columns(in: table).map(\.name))
    }
}

extension String {
    fileprivate static func fetchOne(_ db: Database, cachedSQL sql: String, _ arguments: StatementArguments) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
