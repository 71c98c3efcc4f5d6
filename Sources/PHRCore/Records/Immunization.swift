import Foundation
import GRDB

extension Immunization {
    /// The columns by their Codable keys; the source from its own columns.
    public init(row: Row) throws {
        self = try FetchableRecordDecoder().decode(Self.self, from: row)
        source = RecordSourceColumns.read(row)
    }

    public static let databaseTableName = "immunization"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["vaccine"] = vaccine
        container["date"] = date?.description
        container["dose_number"] = doseNumber
        container["lot"] = lot
        container["notes"] = notes
        container["codes"] = JSONColumn.encode(codes)
        RecordSourceColumns.write(source, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}

/// The immunizations of one profile.
public struct ImmunizationStore: EditableRecordStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let kind = "immunization"

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `immunization add` and `immunization edit` take; for edit nil keeps and "" clears.
    public struct Input: Sendable {
        public var vaccine: String?
        public var date: String?
        public var dose: String?
        public var lot: String?
        public var notes: String?
        public init() {}
    }

    @discardableResult
    public func add(_ input: Input) throws -> Immunization {
        let vaccine = try RecordFields.text(input.vaccine ?? "", field: Field.argument("vaccine"), limit: RecordFields.maximumNameLength)
        // Without a date it is kept undated: a vaccination card or an export may not say when.
        var immunization = Immunization(id: "", uid: "", vaccine: vaccine, date: nil, doseNumber: nil, lot: nil, notes: nil,
                                        codes: [], source: nil, createdAt: Timestamp.string(time.now),
                                        updatedAt: Timestamp.string(time.now))
        try apply(input, to: &immunization)
        return try vault.database.write { db in
            (immunization.id, immunization.uid) = try RecordRows.newIdentity(db, table: Self.table)
            try Self.insert(db, immunization, profileID: profile.id)
            return immunization
        }
    }

    func apply(_ input: Input, to immunization: inout Immunization) throws {
        if let vaccine = input.vaccine { immunization.vaccine = try RecordFields.text(vaccine, field: Field.vaccine, limit: RecordFields.maximumNameLength) }
        if let text = input.date { immunization.date = text.isEmpty ? nil : try RecordFields.partialDate(text, field: Field.date) }
        if let date = immunization.date, date.firstDay > time.today() {
            throw RecordError.invalidField(field: Field.date, reason: "\(date) is in the future")
        }
        if let text = input.dose {
            immunization.doseNumber = text.isEmpty ? nil : try RecordFields.count(
                MedicationStore.integer(text, field: Field.dose), field: Field.dose, minimum: 1, maximum: 20)
        }
        immunization.lot = try FieldChange.apply(input.lot, to: immunization.lot, field: Field.lot, limit: RecordFields.maximumLabelLength)
        immunization.notes = try FieldChange.apply(input.notes, to: immunization.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true)
    }

    /// Newest first.
    public func list() throws -> [Immunization] {
        Self.ordered(try vault.database.read { db in try Self.all(db, profileID: profile.id) })
    }

    /// The order immunizations are shown in, everywhere: newest first, then by vaccine.
    static func ordered(_ immunizations: [Immunization]) -> [Immunization] {
        // Undated ones last.
        immunizations.sorted { a, b in
            switch (a.date, b.date) {
            case let (x?, y?) where x != y: return x > y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return (a.vaccine.lowercased(), a.id) < (b.vaccine.lowercased(), b.id)
            }
        }
    }

    public func get(_ prefix: String) throws -> Immunization {
        try record(prefix)
    }

    @discardableResult
    public func edit(_ prefix: String, _ input: Input) throws -> Immunization {
        try editRecord(prefix, input)
    }

    @discardableResult
    public func remove(_ prefix: String) throws -> Immunization {
        try removeRecord(prefix)
    }

    static func index(_ db: Database, _ immunization: Immunization, profileID: Int64) throws {
        let body = [immunization.doseNumber.map { "dose \($0)" }, immunization.lot.map { "lot \($0)" }, immunization.notes,
                    CodingText.searchable(immunization.codes)].compactMap { $0 }.joined(separator: "\n")
        try SearchIndex.replace(db, kind: kind, recordID: immunization.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: immunization.vaccine, tags: ["immunization", "vaccine"], body: body,
                              date: immunization.date?.firstDay.description),
        ])
    }
}

extension Immunization: RowBacked {}
