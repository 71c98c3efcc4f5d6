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
            if try !exists(db, table: table, id: id) { return id }
        }
    }

    /// A new random (version 4) UUID in lowercase, for a record's `uid`: what
    /// `UUID().uuidString.lowercased()` gives, from OpenSSL's generator. Foundation's `UUID()`
    /// opens, reads and closes /dev/urandom for each one: a twentieth of an import of 5,500
    /// records.
    public static func newUID() throws -> String {
        var bytes = try SecureRandom.bytes(16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether `table` has a record `id` (a statement compiled once: imports ask for every record).
    static func exists(_ db: Database, table: String, id: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(table.quotedDatabaseIdentifier) WHERE id = ?)"), arguments: [id])!
    }

    /// The full ID of the one record in `table` whose ID starts with `prefix` (case-insensitive),
    /// optionally within a profile. Throws `RecordError.notFound` or `.ambiguous`.
    public static func resolve(_ db: Database, table: String, kind: String, prefix: String,
                               profileID: Int64? = nil) throws -> String {
        let typed = prefix.lowercased().trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty, typed.allSatisfy({ alphabet.contains($0) }) else {
            throw RecordError.notFound(kind: kind, id: prefix)
        }
        // A range on the primary key (IDs are lowercase letters and digits, all below "~"): the
        // index finds the prefix's IDs without reading every row of the table.
        var sql = "SELECT id FROM \(table.quotedDatabaseIdentifier) WHERE id >= ? AND id < ?"
        var arguments: StatementArguments = [typed, typed + "~"]
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
