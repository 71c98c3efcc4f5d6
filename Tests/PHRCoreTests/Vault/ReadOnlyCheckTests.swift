import Foundation
import GRDB
import Testing
@testable import PHRCore

/// `phr check` needs no write access: it opens the database read-only, runs FTS5's
/// integrity-check (an INSERT) on a copy in memory, and still finds what it should.
@Suite struct ReadOnlyCheckTests {
    @Test func checkOpensReadOnlyChangesNothingAndStillFindsABrokenIndex() throws {
        let (vault, _, directory) = try TestSupport.makeVault("rocheck")
        defer { TestSupport.remove(directory) }
        let profile = try vault.database.read { try Profiles.resolve($0, name: nil) }
        try vault.database.write { db in
            try SearchIndex.replace(db, kind: "doc", recordID: "abc123", profileID: profile.id, entries: [
                .init(page: 1, title: "Lab report", tags: ["blood"], body: "Ferritin 12 ng/mL"),
            ])
        }
        let location = vault.location
        let database = location.database
        func stamp() -> (Int64?, Data?) { (FileSystem.fileSize(database), FileManager.default.contents(atPath: database)) }

        let before = stamp()
        let clean = try VaultCheck.run(location: location, keyFile: vault.keyFile, keys: vault.keys)
        #expect(clean.problems == [])
        #expect(clean.ftsTablesChecked == 2)
        #expect(stamp() == before, "checking wrote to vault.db")

        let readOnly = try Vault.open(at: location, keyFile: vault.keyFile, keys: vault.keys, readOnly: true)
        #expect(readOnly.database.isReadOnly)
        #expect(throws: (any Error).self) {
            try readOnly.database.write { db in try db.execute(sql: "DELETE FROM search_entry") }
        }

        // The index itself is damaged (its leaf pages are gone): the in-memory check must see it.
        try vault.database.write { db in try db.execute(sql: "DELETE FROM search_fts_data WHERE id > 10") }
        let broken = try VaultCheck.run(location: location, keyFile: vault.keyFile, keys: vault.keys)
        #expect(broken.problems == ["full-text index search_fts is inconsistent with its content"])
    }
}
