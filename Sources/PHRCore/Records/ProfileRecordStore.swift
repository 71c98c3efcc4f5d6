import GRDB

/// A record as its table row, mapped by GRDB: `init(row:)` reads it and `encode(to:)` writes it,
/// each column named once beside the property it holds. `profile_id` is not a property: a record
/// never moves between profiles, so inserts add it (`ProfileRow`) and updates leave it alone.
protocol RowBacked: FetchableRecord, PersistableRecord {
    var id: String { get }
    var updatedAt: String { get set }
}

/// A record with the profile it is inserted into: its own columns plus `profile_id`.
struct ProfileRow<Record: PersistableRecord>: PersistableRecord {
    static var databaseTableName: String { Record.databaseTableName }
    var record: Record
    var profileID: Int64

    func encode(to container: inout PersistenceContainer) throws {
        try record.encode(to: &container)
        container["profile_id"] = profileID
    }
}

/// The rows of one kind of record in one profile. A store says what is its own (table, columns,
/// search entry); resolving IDs, reading, removing and writing rows with their search entries
/// are written once, here.
protocol ProfileRecordStore {
    associatedtype Record: RowBacked
    /// The record kind in IDs, errors and the search index.
    static var kind: String { get }
    var vault: Vault { get }
    var profile: Profile { get }
    /// The record whose ID starts with `prefix`, in this profile (a requirement, so a store
    /// that also resolves by name is asked in every case).
    func resolve(_ db: Database, _ prefix: String) throws -> Record
    /// Replaces the record's search entry.
    static func index(_ db: Database, _ record: Record, profileID: Int64) throws
}

extension ProfileRecordStore {
    static var table: String { Record.databaseTableName }

    func resolve(_ db: Database, _ prefix: String) throws -> Record {
        try RecordRows.resolve(db, Record.self, kind: Self.kind, prefix: prefix, profileID: profile.id)
    }

    func record(_ prefix: String) throws -> Record {
        try vault.database.read { db in try resolve(db, prefix) }
    }

    /// Deletes the record and its search entry; returns what it was.
    func removeRecord(_ prefix: String) throws -> Record {
        try vault.database.write { db in
            let record = try resolve(db, prefix)
            try RecordRows.delete(db, table: Self.table, kind: Self.kind, id: record.id)
            return record
        }
    }

    /// Every record of the profile, oldest first.
    static func all(_ db: Database, profileID: Int64) throws -> [Record] {
        try RecordRows.all(db, Record.self, profileID: profileID)
    }

    static func insert(_ db: Database, _ record: Record, profileID: Int64) throws {
        try RecordFields.refuseControlCharacters(inStringsOf: record)
        try ProfileRow(record: record, profileID: profileID).insert(db)
        try index(db, record, profileID: profileID)
    }

    static func update(_ db: Database, _ record: Record, profileID: Int64) throws {
        try RecordFields.refuseControlCharacters(inStringsOf: record)
        try record.update(db)
        try index(db, record, profileID: profileID)
    }
}

/// A store whose `edit` changes a record field by field from an Input (nil keeps a field).
protocol EditableRecordStore: ProfileRecordStore {
    associatedtype Input
    /// Whose clock stamps `updated_at`.
    var time: TimeContext { get }
    func apply(_ input: Input, to record: inout Record) throws
}

extension EditableRecordStore {
    /// Applies `input` to the record and stamps it updated.
    func editRecord(_ prefix: String, _ input: Input) throws -> Record {
        try vault.database.write { db in
            var record = try resolve(db, prefix)
            try apply(input, to: &record)
            record.updatedAt = Timestamp.string(time.now)
            try Self.update(db, record, profileID: profile.id)
            return record
        }
    }
}
