import Foundation
import GRDB

extension Allergy {
    /// The columns by their Codable keys; the source from its own columns.
    public init(row: Row) throws {
        self = try FetchableRecordDecoder().decode(Self.self, from: row)
        source = RecordSourceColumns.read(row)
    }

    public static let databaseTableName = "allergy"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["substance"] = substance
        container["reaction"] = reaction
        container["severity"] = severity?.rawValue
        container["criticality"] = criticality
        container["category"] = category
        container["status"] = status
        container["since"] = since?.description
        container["notes"] = notes
        container["codes"] = JSONColumn.encode(codes)
        RecordSourceColumns.write(source, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}

/// The allergies of one profile.
public struct AllergyStore: EditableRecordStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let kind = "allergy"

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `allergy add` and `allergy edit` take; for edit nil keeps and "" clears a field.
    public struct Input: Sendable {
        public var substance: String?
        public var reaction: String?
        public var severity: String?
        public var category: String?
        public var status: String?
        public var since: String?
        public var notes: String?
        public init() {}
    }

    @discardableResult
    public func add(_ input: Input) throws -> Allergy {
        let substance = try RecordFields.text(input.substance ?? "", field: Field.argument("substance"), limit: RecordFields.maximumNameLength)
        var allergy = Allergy(id: "", uid: "", substance: substance, reaction: nil, severity: nil, criticality: nil, category: nil,
                              status: .active, since: nil, notes: nil, codes: [], source: nil,
                              createdAt: Timestamp.string(time.now), updatedAt: Timestamp.string(time.now))
        try apply(input, to: &allergy)
        return try vault.database.write { db in
            (allergy.id, allergy.uid) = try RecordRows.newIdentity(db, table: Self.table)
            try Self.insert(db, allergy, profileID: profile.id)
            return allergy
        }
    }

    func apply(_ input: Input, to allergy: inout Allergy) throws {
        if let substance = input.substance { allergy.substance = try RecordFields.text(substance, field: Field.substance, limit: RecordFields.maximumNameLength) }
        allergy.reaction = try FieldChange.apply(input.reaction, to: allergy.reaction, field: Field.reaction)
        if let text = input.severity {
            allergy.severity = text.isEmpty ? nil : Allergy.Severity(rawValue: try RecordFields.choice(
                text, field: Field.severity, allowed: Allergy.Severity.allCases.map(\.rawValue)))
        }
        if let text = input.category {
            allergy.category = text.isEmpty ? nil : try RecordFields.choice(text, field: Field.category, as: Allergy.Category.self)
        }
        if let text = input.status { allergy.status = try RecordFields.choice(text, field: Field.status, as: Allergy.Status.self) }
        if let text = input.since { allergy.since = text.isEmpty ? nil : try RecordFields.partialDate(text, field: Field.since) }
        allergy.notes = try FieldChange.apply(input.notes, to: allergy.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true)
    }

    /// Active ones first, the most dangerous first, then by name.
    public func list() throws -> [Allergy] {
        Self.ordered(try vault.database.read { db in try Self.all(db, profileID: profile.id) })
    }

    /// The order allergies are shown in, everywhere: active first, the most dangerous first, then by name.
    static func ordered(_ allergies: [Allergy]) -> [Allergy] {
        allergies.sorted {
            ($0.status == .active ? 0 : 1, $0.dangerRank, $0.substance.lowercased(), $0.id)
                < ($1.status == .active ? 0 : 1, $1.dangerRank, $1.substance.lowercased(), $1.id)
        }
    }

    public func get(_ prefix: String) throws -> Allergy {
        try record(prefix)
    }

    @discardableResult
    public func edit(_ prefix: String, _ input: Input) throws -> Allergy {
        try editRecord(prefix, input)
    }

    @discardableResult
    public func remove(_ prefix: String) throws -> Allergy {
        try removeRecord(prefix)
    }

    static func index(_ db: Database, _ allergy: Allergy, profileID: Int64) throws {
        let body = [allergy.reaction, allergy.severity.map { "\($0.rawValue) reaction" }, allergy.category?.rawValue, allergy.notes,
                    CodingText.searchable(allergy.codes)].compactMap { $0 }.joined(separator: "\n")
        try SearchIndex.replace(db, kind: kind, recordID: allergy.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: allergy.substance, tags: ["allergy"] + (allergy.category.map { [$0.rawValue] } ?? []), body: body,
                              type: allergy.status.rawValue, date: allergy.since?.firstDay.description),
        ])
    }
}

extension Allergy: RowBacked {}
