import Foundation
import GRDB

/// Creating, listing and choosing profiles.
public enum Profiles {
    /// The name `phr init` gives the first profile.
    public static let initialName = Profile.initialName

    static func defaultID(_ db: Database) throws -> Int64? {
        try String.fetchOne(db, sql: "SELECT value FROM vault_info WHERE key = 'default_profile'").flatMap { Int64($0) }
    }

    public static func all(_ db: Database) throws -> [Profile] {
        let defaultID = try defaultID(db)
        return try Row.fetchAll(db, sql: "SELECT id, name, relation, created_at FROM profile ORDER BY id").map { row in
            Profile(id: row["id"], name: row["name"], relation: Profile.Relation(rawValue: row["relation"]) ?? .other,
                    createdAt: row["created_at"], isDefault: row["id"] == defaultID)
        }
    }

    /// Adds a profile; the first one becomes the default.
    @discardableResult
    public static func create(_ db: Database, name: String, relation: Profile.Relation) throws -> Profile {
        let trimmed = RecordFields.oneLine(name).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw RecordError.invalidField(field: Field.path("name"), reason: "a profile needs a name") }
        guard trimmed.count <= 64 else { throw RecordError.invalidField(field: Field.path("name"), reason: "at most 64 characters") }
        try RecordFields.refuseControlCharacters(trimmed, field: Field.path("name"))
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM profile WHERE name = ? COLLATE NOCASE)", arguments: [trimmed])! {
            throw RecordError.profileExists(trimmed)
        }
        let now = Timestamp.string(Date())
        try db.execute(sql: "INSERT INTO profile (name, relation, created_at, uid) VALUES (?, ?, ?, lower(hex(randomblob(16))))",
                       arguments: [trimmed, relation.rawValue, now])
        let id = db.lastInsertedRowID
        if try defaultID(db) == nil { try setDefault(db, id: id) }
        return try all(db).first { $0.id == id }!
    }

    public static func setDefault(_ db: Database, id: Int64) throws {
        try db.execute(sql: "INSERT INTO vault_info (key, value) VALUES ('default_profile', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       arguments: [String(id)])
    }

    /// Makes the profile called `name` the default and returns it.
    @discardableResult
    public static func makeDefault(_ db: Database, name: String) throws -> Profile {
        let profile = try resolve(db, name: name)
        try setDefault(db, id: profile.id)
        return try all(db).first { $0.id == profile.id }!
    }

    /// Parses a relation typed on the command line (`self` is reserved for the first profile
    /// but accepted, for a vault whose first profile is someone else).
    public static func relation(_ text: String, field: Field = Field.relation) throws -> Profile.Relation {
        guard let relation = Profile.Relation(rawValue: text.lowercased().trimmingCharacters(in: .whitespaces)) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is not a relation; use child, parent, partner or other")
        }
        return relation
    }

    /// The profile called `name` (case-insensitive), or the default profile when `name` is nil.
    public static func resolve(_ db: Database, name: String?) throws -> Profile {
        let profiles = try all(db)
        if let name, !name.isEmpty {
            guard let profile = profiles.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                throw RecordError.profileNotFound(name)
            }
            return profile
        }
        guard let profile = profiles.first(where: \.isDefault) ?? profiles.first else {
            throw RecordError.profileNotFound(initialName)
        }
        return profile
    }
}
