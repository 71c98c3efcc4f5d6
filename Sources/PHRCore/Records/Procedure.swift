import Foundation
import GRDB

extension Procedure.Status: DatabaseValueConvertible {}

extension Procedure {
    /// The columns by their Codable keys; the source from its own columns.
    public init(row: Row) throws {
        self = try FetchableRecordDecoder().decode(Self.self, from: row)
        source = RecordSourceColumns.read(row)
    }

    public static let databaseTableName = "procedure"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["name"] = name
        container["date"] = date?.description
        container["status"] = status
        container["body_site"] = bodySite
        container["performer"] = performer
        container["notes"] = notes
        container["codes"] = JSONColumn.encode(codes)
        RecordSourceColumns.write(source, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}

/// The procedures of one profile: operations, scopes, biopsies.
public struct ProcedureStore: EditableRecordStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let kind = "procedure"

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `procedure add` and `procedure edit` take; for edit nil keeps and "" clears.
    public struct Input: Sendable {
        public var name: String?
        public var date: String?
        public var status: String?
        public var bodySite: String?
        public var performer: String?
        public var notes: String?
        public init() {}
    }

    @discardableResult
    public func add(_ input: Input) throws -> Procedure {
        let name = try RecordFields.text(input.name ?? "", field: Field.argument("name"), limit: RecordFields.maximumNameLength)
        var procedure = Procedure(id: "", uid: "", name: name, date: nil, status: .completed, bodySite: nil, performer: nil, notes: nil,
                                  codes: [], source: nil, createdAt: Timestamp.string(time.now), updatedAt: Timestamp.string(time.now))
        try apply(input, to: &procedure)
        return try vault.database.write { db in
            (procedure.id, procedure.uid) = try RecordRows.newIdentity(db, table: Self.table)
            try Self.insert(db, procedure, profileID: profile.id)
            return procedure
        }
    }

    func apply(_ input: Input, to procedure: inout Procedure) throws {
        if let name = input.name { procedure.name = try RecordFields.text(name, field: Field.name, limit: RecordFields.maximumNameLength) }
        if let text = input.date { procedure.date = text.isEmpty ? nil : try RecordFields.partialDate(text, field: Field.date) }
        if let text = input.status { procedure.status = try RecordFields.choice(text, field: Field.status, as: Procedure.Status.self) }
        if let date = procedure.date, date.firstDay > time.today(), procedure.status == .completed {
            throw RecordError.invalidField(field: Field.date, reason: "\(date) is in the future; a planned procedure is an appointment")
        }
        procedure.bodySite = try FieldChange.apply(input.bodySite, to: procedure.bodySite, field: Field.bodySite, limit: RecordFields.maximumLabelLength)
        procedure.performer = try FieldChange.apply(input.performer, to: procedure.performer, field: Field.performer,
                                                    limit: RecordFields.maximumNameLength)
        procedure.notes = try FieldChange.apply(input.notes, to: procedure.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true)
    }

    /// Newest first; undated ones last, by name.
    public func list() throws -> [Procedure] {
        Self.ordered(try vault.database.read { db in try Self.all(db, profileID: profile.id) })
    }

    /// The order procedures are shown in, everywhere: the most recent first, undated ones last,
    /// then by name.
    static func ordered(_ procedures: [Procedure]) -> [Procedure] {
        procedures.sorted { a, b in
            switch (a.date, b.date) {
            case let (x?, y?) where x != y: return x > y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return (a.name.lowercased(), a.id) < (b.name.lowercased(), b.id)
            }
        }
    }

    public func get(_ prefix: String) throws -> Procedure {
        try record(prefix)
    }

    @discardableResult
    public func edit(_ prefix: String, _ input: Input) throws -> Procedure {
        try editRecord(prefix, input)
    }

    @discardableResult
    public func remove(_ prefix: String) throws -> Procedure {
        try removeRecord(prefix)
    }

    static func index(_ db: Database, _ procedure: Procedure, profileID: Int64) throws {
        let body = [procedure.bodySite, procedure.performer, procedure.notes, CodingText.searchable(procedure.codes)]
            .compactMap { $0 }.joined(separator: "\n")
        try SearchIndex.replace(db, kind: kind, recordID: procedure.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: procedure.name, tags: ["procedure", "surgery"], body: body, type: procedure.status.rawValue,
                              date: procedure.date?.firstDay.description),
        ])
    }
}

extension Procedure: RowBacked {}
