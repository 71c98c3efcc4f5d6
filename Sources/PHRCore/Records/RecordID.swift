import Foundation
import GRDB

/// Short, typable record IDs: six characters of lowercase Crockford base32 (no i, l, o, u), so
/// they survive being read aloud or copied by hand. Any unique prefix finds a record.
public enum RecordID {
    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
    public static let length = 6

    /// A new random ID not yet used in `table`.
    public static func generate(_ db: Database, table: String) throws -> String {
        while true {
            let bytes = try SecureRandom.bytes(length)
            let id = String(bytes.map { alphabet[Int($0) % alphabet.count] })
            if try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table.quotedDatabaseIdentifier) WHERE id = ?)", arguments: [id])! {
                return id
            }
        }
    }

    /// The full ID of the one record in `table` whose ID starts with `prefix` (case-insensitive),
    /// optionally within a profile. Throws `RecordError.notFound` or `.ambiguous`.
    public static func resolve(_ db: Database, table: String, kind: String, prefix: String,
                               profileID: Int64? = nil) throws -> String {
        let typed = prefix.lowercased().trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty, typed.allSatisfy({ alphabet.contains($0) }) else {
            throw RecordError.notFound(kind: kind, id: prefix)
        }
        var sql = "SELECT id FROM \(table.quotedDatabaseIdentifier) WHERE substr(id, 1, ?) = ?"
        var arguments: StatementArguments = [typed.count, typed]
        if let profileID {
            sql += " AND profile_id = ?"
            arguments += [profileID]
        }
        let matches = try String.fetchAll(db, sql: sql + " ORDER BY id LIMIT 6", arguments: arguments)
        if matches.count == 1 { return matches[0] }
        if matches.contains(typed) { return typed }
        if matches.isEmpty { throw RecordError.notFound(kind: kind, id: prefix) }
        throw RecordError.ambiguous(kind: kind, prefix: prefix, matches: Array(matches.prefix(5)))
    }
}
