import Foundation
import GRDB

extension FamilyHistory {
    /// The columns by their Codable keys; the source from its own columns.
    public init(row: Row) throws {
        self = try FetchableRecordDecoder().decode(Self.self, from: row)
        source = RecordSourceColumns.read(row)
    }

    public static let databaseTableName = "family_history"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["relation"] = relation
        container["relation_code"] = relationCode
        container["condition"] = condition
        container["onset_age"] = onsetAge
        container["cause_of_death"] = causeOfDeath
        container["notes"] = notes
        container["codes"] = JSONColumn.encode(codes)
        RecordSourceColumns.write(source, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}

/// The family history of one profile: which blood relative has or had which condition.
public struct FamilyHistoryStore: EditableRecordStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let kind = "family"

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `family add` and `family edit` take; for edit nil keeps and "" clears.
    public struct Input: Sendable {
        public var relation: String?
        public var condition: String?
        /// Years: "52".
        public var onsetAge: String?
        /// "yes" or "no"; "" when not said.
        public var causeOfDeath: String?
        public var notes: String?
        public init() {}
    }

    @discardableResult
    public func add(_ input: Input) throws -> FamilyHistory {
        let relation = try RecordFields.text(input.relation ?? "", field: Field.argument("relation"), limit: RecordFields.maximumLabelLength)
        let condition = try RecordFields.text(input.condition ?? "", field: Field.argument("condition"), limit: RecordFields.maximumNameLength)
        var entry = FamilyHistory(id: "", uid: "", relation: relation, relationCode: FamilyHistory.roleCode(for: relation), condition: condition,
                                  onsetAge: nil, causeOfDeath: nil, notes: nil, codes: [], source: nil,
                                  createdAt: Timestamp.string(time.now), updatedAt: Timestamp.string(time.now))
        try apply(input, to: &entry)
        return try vault.database.write { db in
            (entry.id, entry.uid) = try RecordRows.newIdentity(db, table: Self.table)
            try Self.insert(db, entry, profileID: profile.id)
            return entry
        }
    }

    func apply(_ input: Input, to entry: inout FamilyHistory) throws {
        if let relation = input.relation {
            entry.relation = try RecordFields.text(relation, field: Field.relation, limit: RecordFields.maximumLabelLength)
            entry.relationCode = FamilyHistory.roleCode(for: entry.relation)
        }
        if let condition = input.condition {
            entry.condition = try RecordFields.text(condition, field: Field.condition, limit: RecordFields.maximumNameLength)
        }
        if let text = input.onsetAge {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                entry.onsetAge = nil
            } else {
                guard let years = Int(trimmed.hasSuffix("y") ? String(trimmed.dropLast()) : trimmed) else {
                    throw RecordError.invalidField(field: Field.onsetAge, reason: "'\(trimmed)' is not an age in years")
                }
                entry.onsetAge = try RecordFields.count(years, field: Field.onsetAge, minimum: 0, maximum: 150)
            }
        }
        if let text = input.causeOfDeath {
            switch text.lowercased().trimmingCharacters(in: .whitespaces) {
            case "": entry.causeOfDeath = nil
            case "yes", "true", "1": entry.causeOfDeath = true
            case "no", "false", "0": entry.causeOfDeath = false
            default: throw RecordError.invalidField(field: Field.causeOfDeath, reason: "'\(text)' is not yes or no")
            }
        }
        entry.notes = try FieldChange.apply(input.notes, to: entry.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true)
    }

    /// By relative (parents, siblings, children, then the others, each by name), then condition.
    public func list() throws -> [FamilyHistory] {
        Self.ordered(try vault.database.read { db in try Self.all(db, profileID: profile.id) })
    }

    /// The order family history is shown in, everywhere: nearest relatives first (the order of
    /// `FamilyHistory.roleCodes`), then by relation and condition.
    static func ordered(_ entries: [FamilyHistory]) -> [FamilyHistory] {
        func rank(_ entry: FamilyHistory) -> Int {
            entry.relationCode.flatMap { code in FamilyHistory.roleCodes.firstIndex { $0.code == code } } ?? FamilyHistory.roleCodes.count
        }
        return entries.sorted {
            (rank($0), $0.relation.lowercased(), $0.condition.lowercased(), $0.id) < (rank($1), $1.relation.lowercased(), $1.condition.lowercased(), $1.id)
        }
    }

    public func get(_ prefix: String) throws -> FamilyHistory {
        try record(prefix)
    }

    @discardableResult
    public func edit(_ prefix: String, _ input: Input) throws -> FamilyHistory {
        try editRecord(prefix, input)
    }

    @discardableResult
    public func remove(_ prefix: String) throws -> FamilyHistory {
        try removeRecord(prefix)
    }

    static func index(_ db: Database, _ entry: FamilyHistory, profileID: Int64) throws {
        let body = [entry.relation, entry.onsetAge.map { "at \($0)" }, entry.causeOfDeath == true ? "cause of death" : nil, entry.notes,
                    CodingText.searchable(entry.codes)].compactMap { $0 }.joined(separator: "\n")
        try SearchIndex.replace(db, kind: kind, recordID: entry.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: "\(entry.condition) (\(entry.relation))", tags: ["family", "family history"], body: body, type: entry.relation),
        ])
    }
}

extension FamilyHistory: RowBacked {}
