import Foundation
import GRDB
import Testing
@testable import PHRCore

/// The write side of the full-text index: entries go in, change and go out with their record.
@Suite struct SearchIndexTests {
    static func matches(_ vault: Vault, _ query: String) throws -> [String] {
        try vault.database.read { db in
            try String.fetchAll(db, sql: """
                SELECT e.record_id || ':' || ifnull(e.page, 0) FROM search_fts f JOIN search_entry e ON e.id = f.rowid
                WHERE search_fts MATCH ? ORDER BY e.record_id, e.page
                """, arguments: [query])
        }
    }

    @Test func entriesAreIndexedReplacedAndRemoved() throws {
        let (vault, _, directory) = try TestSupport.makeVault("search")
        defer { TestSupport.remove(directory) }
        let profile = try vault.database.read { try Profiles.resolve($0, name: nil) }
        try vault.database.write { db in
            try SearchIndex.replace(db, kind: "doc", recordID: "abc123", profileID: profile.id, entries: [
                .init(page: 1, title: "Lab report", tags: ["blood"], body: "Ferritin 12 ng/mL, Lévothyrox"),
                .init(page: 2, title: "Lab report", tags: ["blood"], body: "Haemoglobin 11.4 g/dL, code A-1312/B"),
            ])
        }
        #expect(try Self.matches(vault, "ferritin") == ["abc123:1"])
        #expect(try Self.matches(vault, "levothyrox") == ["abc123:1"], "diacritics are folded")
        #expect(try Self.matches(vault, "1312") == ["abc123:2"])
        #expect(try Self.matches(vault, "blood") == ["abc123:1", "abc123:2"])
        try vault.database.write { db in
            try SearchIndex.updateMetadata(db, kind: "doc", recordID: "abc123", title: "Iron panel", tags: ["anaemia"], type: "lab", date: "2025-03-18")
        }
        #expect(try Self.matches(vault, "blood") == [])
        #expect(try Self.matches(vault, "anaemia AND ferritin") == ["abc123:1"])
        try vault.database.write { db in try SearchIndex.remove(db, kind: "doc", recordID: "abc123") }
        #expect(try Self.matches(vault, "ferritin OR haemoglobin OR iron") == [])
        let report = try VaultCheck.run(location: vault.location, keyFile: vault.keyFile, keys: vault.keys)
        #expect(report.problems == [])
        #expect(report.ftsTablesChecked == 2, "the word index and the trigram index")
    }
    /// Whether FTS5 would find segments of `table` to merge: a merge run in a savepoint that is
    /// rolled back, which changes rows only if there was more than one segment.
    static func hasSeveralSegments(_ vault: Vault, _ table: String) throws -> Bool {
        try vault.database.write { db in
            var merged = false
            try db.inSavepoint {
                let before = db.totalChangesCount
                try db.execute(sql: "INSERT INTO \(table) (\(table), rank) VALUES ('merge', -1000)")
                merged = db.totalChangesCount - before >= 2
                return .rollback
            }
            return merged
        }
    }

    @Test func aBulkChangeMergesTheIndexAndASmallOneLeavesItToFTS5() throws {
        let (vault, _, directory) = try TestSupport.makeVault("search")
        defer { TestSupport.remove(directory) }
        let profile = try vault.database.read { try Profiles.resolve($0, name: nil) }
        // Twelve transactions, as twelve single `phr doc add` commands would write them.
        for document in 0..<12 {
            try vault.database.write { db in
                try SearchIndex.replace(db, kind: "doc", recordID: "doc\(document)", profileID: profile.id, entries: (1...4).map { page in
                    .init(page: page, title: "Report \(document)", body: "ferritin page \(page) of report \(document) 血液検査")
                })
            }
        }
        #expect(try Self.hasSeveralSegments(vault, "search_fts"))
        #expect(try Self.hasSeveralSegments(vault, "search_cjk_fts"))
        let total = try vault.database.read { try SearchIndex.indexedRows($0) }
        #expect(total == 48)
        let before = try Self.matches(vault, "ferritin")
        // Two rows of 48 are under a sixteenth: left alone.
        #expect(try vault.database.write { try SearchIndex.compactAfterBulkChange($0, addedRows: 2) } == false)
        #expect(try Self.hasSeveralSegments(vault, "search_fts"))
        #expect(try vault.database.write { try SearchIndex.compactAfterBulkChange($0, rowsBefore: 40) } == true)
        #expect(try !Self.hasSeveralSegments(vault, "search_fts"))
        #expect(try !Self.hasSeveralSegments(vault, "search_cjk_fts"))
        #expect(try Self.matches(vault, "ferritin") == before)
        #expect(before.count == 48)
        let report = try VaultCheck.run(location: vault.location, keyFile: vault.keyFile, keys: vault.keys)
        #expect(report.problems == [])
    }
}
