import Foundation
import GRDB

/// One row per profile, keyed by `profile_id` (added by `ProfileRow`); read through the Codable
/// keys, which are the column names.
extension MedicalID: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "medical_id"

    public func encode(to container: inout PersistenceContainer) {
        container["name"] = name
        container["date_of_birth"] = dateOfBirth?.description
        container["sex"] = sex?.rawValue
        container["blood_type"] = bloodType
        container["organ_donor"] = organDonor
        container["height_cm"] = heightCm
        container["weight_kg"] = weightKg
        container["notes"] = notes
        container["identifiers"] = JSONColumn.encode(identifiers)
        container["updated_at"] = updatedAt
    }
}

/// Reading and setting the medical ID of one profile.
public struct MedicalIDStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `id set` takes; nil keeps and "" clears a field.
    public struct Input: Sendable {
        public var name: String?
        public var dateOfBirth: String?
        public var sex: String?
        public var bloodType: String?
        public var organDonor: String?
        public var height: String?
        public var weight: String?
        public var notes: String?
        public init() {}
    }

    /// The medical ID, or nil if none was set.
    public func get() throws -> MedicalID? {
        try vault.database.read { db in try Self.fetch(db, profileID: profile.id) }
    }

    @discardableResult
    public func set(_ input: Input) throws -> MedicalID {
        try vault.database.write { db in
            var id = try Self.fetch(db, profileID: profile.id) ?? .empty(updatedAt: "")
            id.name = try FieldChange.apply(input.name, to: id.name, field: Field.name, limit: RecordFields.maximumNameLength)
            if let text = input.dateOfBirth {
                let date = text.isEmpty ? nil : try RecordFields.date(text, field: Field.dob)
                if let date, date > time.today() { throw RecordError.invalidField(field: Field.dob, reason: "\(date) is in the future") }
                id.dateOfBirth = date
            }
            if let text = input.sex {
                id.sex = text.isEmpty ? nil : MedicalID.Sex(rawValue: try RecordFields.choice(
                    Self.expandSex(text), field: Field.sex, allowed: MedicalID.Sex.allCases.map(\.rawValue)))
            }
            if let text = input.bloodType { id.bloodType = text.isEmpty ? nil : try RecordFields.bloodType(text, field: Field.bloodType) }
            if let text = input.organDonor { id.organDonor = text.isEmpty ? nil : try RecordFields.yesNo(text, field: Field.organDonor) }
            if let text = input.height { id.heightCm = text.isEmpty ? nil : try RecordFields.height(text, field: Field.height) }
            if let text = input.weight { id.weightKg = text.isEmpty ? nil : try RecordFields.weight(text, field: Field.weight) }
            id.notes = try FieldChange.apply(input.notes, to: id.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true)
            id.updatedAt = Timestamp.string(time.now)
            try Self.save(db, id, profileID: profile.id)
            return id
        }
    }

    static func expandSex(_ text: String) -> String {
        switch text.lowercased() {
        case "f": return "female"
        case "m": return "male"
        default: return text
        }
    }

    static func fetch(_ db: Database, profileID: Int64) throws -> MedicalID? {
        try MedicalID.fetchOne(db, key: profileID)
    }

    static func save(_ db: Database, _ id: MedicalID, profileID: Int64) throws {
        try RecordFields.refuseControlCharacters(inStringsOf: id)
        try ProfileRow(record: id, profileID: profileID).upsert(db)
        try index(db, id, profileID: profileID)
    }

    /// Replaces the profile's medical-ID search entry.
    static func index(_ db: Database, _ id: MedicalID, profileID: Int64) throws {
        // Medical notes are searchable ("pacemaker", "epilepsy"); the rest is not text worth finding.
        // The entry is the profile's ("kind:profile"), one per profile, keyed by its number.
        let body = [id.notes].compactMap { $0 }.joined(separator: "\n")
        let recordID = String(format: "%04d", profileID)
        if body.isEmpty {
            try SearchIndex.remove(db, kind: "profile", recordID: recordID)
        } else {
            try SearchIndex.replace(db, kind: "profile", recordID: recordID, profileID: profileID, entries: [
                SearchIndex.Entry(title: "Medical ID" + (id.name.map { ": \($0)" } ?? ""), tags: ["medical-id"], body: body),
            ])
        }
    }
}
