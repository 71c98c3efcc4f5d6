import Foundation
import GRDB

extension Condition {
    /// The columns by their Codable keys; the source from its own columns.
    public init(row: Row) throws {
        self = try FetchableRecordDecoder().decode(Self.self, from: row)
        source = RecordSourceColumns.read(row)
    }

    public static let databaseTableName = "condition"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["name"] = name
        container["status"] = status
        container["since"] = since?.description
        container["resolved"] = resolved?.description
        container["notes"] = notes
        container["codes"] = JSONColumn.encode(codes)
        RecordSourceColumns.write(source, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}

/// The conditions of one profile.
public struct ConditionStore: EditableRecordStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let kind = "condition"

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `condition add` and `condition edit` take; for edit nil keeps and "" clears a field.
    public struct Input: Sendable {
        public var name: String?
        public var since: String?
        /// A date marks it resolved; "" makes it active again.
        public var resolved: String?
        public var status: String?
        public var notes: String?
        public init() {}
    }

    @discardableResult
    public func add(_ input: Input) throws -> Condition {
        let name = try RecordFields.text(input.name ?? "", field: Field.argument("name"), limit: RecordFields.maximumNameLength)
        var condition = Condition(id: "", uid: "", name: name, status: .active, since: nil, resolved: nil, notes: nil, codes: [],
                                  source: nil, createdAt: Timestamp.string(time.now), updatedAt: Timestamp.string(time.now))
        try apply(input, to: &condition)
        return try vault.database.write { db in
            (condition.id, condition.uid) = try RecordRows.newIdentity(db, table: Self.table)
            try Self.insert(db, condition, profileID: profile.id)
            return condition
        }
    }

    func apply(_ input: Input, to condition: inout Condition) throws {
        if let name = input.name { condition.name = try RecordFields.text(name, field: Field.name, limit: RecordFields.maximumNameLength) }
        if let text = input.since { condition.since = text.isEmpty ? nil : try RecordFields.partialDate(text, field: Field.since) }
        if let text = input.resolved {
            condition.resolved = text.isEmpty ? nil : try RecordFields.partialDate(text, field: Field.resolved)
            condition.status = condition.resolved == nil ? .active : .resolved
        }
        if let text = input.status { condition.status = try RecordFields.choice(text, field: Field.status, as: Condition.Status.self) }
        if let since = condition.since, let resolved = condition.resolved, resolved.lastDay < since.firstDay {
            throw RecordError.invalidField(field: Field.resolved, reason: "\(resolved) is before \(Field.since) \(since)")
        }
        condition.notes = try FieldChange.apply(input.notes, to: condition.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true)
    }

    /// Current ones first, then by date (newest first) and name.
    public func list() throws -> [Condition] {
        Self.ordered(try vault.database.read { db in try Self.all(db, profileID: profile.id) })
    }

    /// The order conditions are shown in, everywhere: current ones first, the most recent
    /// onset first, then by name.
    static func ordered(_ conditions: [Condition]) -> [Condition] {
        func key(_ c: Condition) -> (Int, String, String, String) {
            // Newest first: invert the date's order by sorting its text descending below.
            (c.isCurrent ? 0 : 1, c.since?.description ?? "", c.name.lowercased(), c.id)
        }
        return conditions.sorted { a, b in
            let (ka, kb) = (key(a), key(b))
            if ka.0 != kb.0 { return ka.0 < kb.0 }
            if ka.1 != kb.1 { return ka.1 > kb.1 }
            return (ka.2, ka.3) < (kb.2, kb.3)
        }
    }

    public func get(_ prefix: String) throws -> Condition {
        try record(prefix)
    }

    @discardableResult
    public func edit(_ prefix: String, _ input: Input) throws -> Condition {
        try editRecord(prefix, input)
    }

    @discardableResult
    public func remove(_ prefix: String) throws -> Condition {
        try removeRecord(prefix)
    }

    static func index(_ db: Database, _ condition: Condition, profileID: Int64) throws {
        let body = [condition.status.rawValue, condition.notes, CodingText.searchable(condition.codes)].compactMap { $0 }.joined(separator: "\n")
        try SearchIndex.replace(db, kind: kind, recordID: condition.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: condition.name, tags: ["condition"], body: body, type: condition.status.rawValue,
                              date: condition.since?.firstDay.description),
        ])
    }
}

extension Condition: RowBacked {}
