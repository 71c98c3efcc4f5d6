import Foundation
import GRDB

extension Contact {
    /// The columns by their Codable keys; the source from its own columns.
    public init(row: Row) throws {
        self = try FetchableRecordDecoder().decode(Self.self, from: row)
        source = RecordSourceColumns.read(row)
    }

    public static let databaseTableName = "contact"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["name"] = name
        container["phone"] = phone
        container["relation"] = relation
        container["email"] = email
        container["emergency"] = emergency
        container["notes"] = notes
        RecordSourceColumns.write(source, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}

/// The contacts of one profile.
public struct ContactStore: EditableRecordStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let kind = "contact"

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `contact add` and `contact edit` take; for edit nil keeps and "" clears a field.
    public struct Input: Sendable {
        public var name: String?
        public var phone: String?
        public var relation: String?
        public var email: String?
        public var emergency: Bool?
        public var notes: String?
        public init() {}
    }

    @discardableResult
    public func add(_ input: Input) throws -> Contact {
        let name = try RecordFields.text(input.name ?? "", field: Field.argument("name"), limit: RecordFields.maximumNameLength)
        let phone = try RecordFields.phone(input.phone ?? "", field: Field.phone)
        var contact = Contact(id: "", uid: "", name: name, phone: phone, relation: nil, email: nil, emergency: false, notes: nil,
                              source: nil, createdAt: Timestamp.string(time.now), updatedAt: Timestamp.string(time.now))
        try apply(input, to: &contact)
        return try vault.database.write { db in
            (contact.id, contact.uid) = try RecordRows.newIdentity(db, table: Self.table)
            try Self.insert(db, contact, profileID: profile.id)
            return contact
        }
    }

    func apply(_ input: Input, to contact: inout Contact) throws {
        if let name = input.name { contact.name = try RecordFields.text(name, field: Field.name, limit: RecordFields.maximumNameLength) }
        if let phone = input.phone { contact.phone = try RecordFields.phone(phone, field: Field.phone) }
        contact.relation = try FieldChange.apply(input.relation, to: contact.relation, field: Field.relation, limit: RecordFields.maximumLabelLength)
        if let email = input.email { contact.email = email.isEmpty ? nil : try RecordFields.email(email, field: Field.email) }
        if let emergency = input.emergency { contact.emergency = emergency }
        contact.notes = try FieldChange.apply(input.notes, to: contact.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true)
    }

    /// Emergency contacts first, then by name.
    public func list(emergencyOnly: Bool = false) throws -> [Contact] {
        Self.ordered(try vault.database.read { db in try Self.all(db, profileID: profile.id) }.filter { !emergencyOnly || $0.emergency })
    }

    /// The order contacts are shown in, everywhere: emergency contacts first, then by name.
    static func ordered(_ contacts: [Contact]) -> [Contact] {
        contacts.sorted { ($0.emergency ? 0 : 1, $0.name.lowercased(), $0.id) < ($1.emergency ? 0 : 1, $1.name.lowercased(), $1.id) }
    }

    public func get(_ prefix: String) throws -> Contact {
        try record(prefix)
    }

    @discardableResult
    public func edit(_ prefix: String, _ input: Input) throws -> Contact {
        try editRecord(prefix, input)
    }

    @discardableResult
    public func remove(_ prefix: String) throws -> Contact {
        try removeRecord(prefix)
    }

    static func index(_ db: Database, _ contact: Contact, profileID: Int64) throws {
        let body = [contact.relation, contact.phone, contact.email, contact.notes].compactMap { $0 }.joined(separator: "\n")
        try SearchIndex.replace(db, kind: kind, recordID: contact.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: contact.name, tags: contact.emergency ? ["emergency"] : [], body: body,
                              type: contact.emergency ? "emergency" : nil),
        ])
    }
}

extension Contact: RowBacked {}
