import Foundation
import GRDB
import Testing
@testable import PHRCore

/// Tampering is detected, named and never crashes; backups round-trip and refuse damage.
@Suite struct VaultIntegrityTests {
    /// A vault with enough rows for many pages and two blobs.
    static func populatedVault() throws -> (Vault, String, [BlobStore.StoredBlob]) {
        let (vault, _, directory) = try TestSupport.makeVault("integrity")
        let blobs = [try vault.blobs.store(bytes: Array(repeating: 0x41, count: 150_000)),
                     try vault.blobs.store(bytes: Array("a small document".utf8))]
        try vault.database.write { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
            for index in 0..<400 {
                try db.execute(sql: "INSERT INTO note (body) VALUES (?)", arguments: ["note \(index) " + String(repeating: "lorem ", count: 30)])
            }
            for blob in blobs { try vault.blobs.register(blob, in: db) }
        }
        return (vault, directory, blobs)
    }

    static func flip(_ path: String, at offset: Int) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let byte = try #require(try handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data([byte ^ 0x20]))
    }

    static func check(_ vault: Vault) throws -> VaultCheck.Report {
        try VaultCheck.run(location: vault.location, keyFile: vault.keyFile, keys: vault.keys)
    }

    @Test func aHealthyVaultPassesCheck() throws {
        let (vault, directory, _) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        let report = try Self.check(vault)
        #expect(report.problems == [])
        #expect(report.blobsChecked == 2)
        #expect(report.blobBytesChecked == 150_016)
        #expect(report.pagesChecked == Int(FileSystem.fileSize(vault.location.database)! / 4096))
    }

    /// (page, offset within the page): content, nonce and tag of the first, a middle and the last page.
    @Test(arguments: [(1, 100), (1, 4070), (1, 4080), (0, 2000), (0, 4066), (0, 4085), (-1, 3000), (-1, 4090)])
    func aFlippedByteInAPageIsNamedByCheckAndReadsFailCleanly(pageSelector: Int, offset: Int) throws {
        let (vault, directory, _) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        let pageCount = Int(FileSystem.fileSize(vault.location.database)! / 4096)
        // The middle page of the note table's data: with dozens of empty tables and indexes in
        // the schema, the file's middle page can be an empty index root, which no read touches.
        let notePages = try vault.database.read { db in
            try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = 'note' AND pagetype = 'leaf' ORDER BY pageno")
        }
        let page = pageSelector == 1 ? 1 : pageSelector == 0 ? notePages[notePages.count / 2] : pageCount
        let location = vault.location
        let keyFile = vault.keyFile
        let keys = vault.keys
        try Self.flip(location.database, at: (page - 1) * 4096 + offset)

        let report = try VaultCheck.run(location: location, keyFile: keyFile, keys: keys)
        #expect(report.problems.contains("page \(page) of vault.db failed authentication (tampered or damaged)"), "\(report.problems)")

        // Reading everything through a fresh connection fails with an integrity error, not a crash.
        let readAll = {
            let reopened = try Vault.open(at: location, keyFile: keyFile, keys: keys)
            _ = try reopened.database.read { db in
                for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'") {
                    _ = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)")
                }
                _ = try String.fetchAll(db, sql: "PRAGMA quick_check")
            }
        }
        #expect {
            try readAll()
        } throws: { error in
            guard case VaultError.integrity(let problems) = error else { return false }
            return problems.first?.contains("failed authentication") == true
        }
    }

    @Test func aTruncatedDatabaseIsReported() throws {
        let (vault, directory, _) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        let size = FileSystem.fileSize(vault.location.database)!
        #expect(truncate(vault.location.database, off_t(size - 1000)) == 0)
        let report = try Self.check(vault)
        #expect(report.problems.contains { $0.contains("partial page") }, "\(report.problems)")
    }

    @Test func aFlippedByteInABlobIsNamed() throws {
        let (vault, directory, blobs) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        try Self.flip(vault.blobs.path(for: blobs[0].name), at: 24 + 65552 + 10)
        let report = try Self.check(vault)
        #expect(report.problems == ["blob \(blobs[0].name.prefix(12)) failed authentication: chunk 2 failed authentication"])
        var released = 0
        #expect(throws: VaultError.self) { try vault.blobs.read(name: blobs[0].name) { released += $0.count } }
        #expect(released == 65536, "only the authenticated first chunk was released")
    }

    @Test func aMissingOrSwappedBlobIsNamed() throws {
        let (vault, directory, blobs) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        let first = vault.blobs.path(for: blobs[0].name)
        let second = vault.blobs.path(for: blobs[1].name)
        try FileManager.default.removeItem(atPath: first)
        try FileManager.default.copyItem(atPath: second, toPath: first)
        var report = try Self.check(vault)
        #expect(report.problems.contains("blob \(blobs[0].name.prefix(12)) does not hold the content its name promises"))
        try FileManager.default.removeItem(atPath: first)
        report = try Self.check(vault)
        #expect(report.problems == ["blob \(blobs[0].name.prefix(12)) is missing from blobs/"])
    }

    @Test func storingTheSameContentTwiceKeepsOneBlob() throws {
        let (vault, directory, blobs) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        let again = try vault.blobs.store(bytes: Array("a small document".utf8))
        #expect(again.name == blobs[1].name)
        #expect(!again.isNew)
        #expect(vault.blobs.namesOnDisk().count == 2)
        #expect(FileSystem.contents(of: "\(vault.location.blobs)/tmp").isEmpty)
        // The name is keyed: it is not the plain SHA-256 of the content.
        #expect(blobs[1].name != blobs[1].sha256.hex)
        #expect(blobs[1].sha256.hex == (try SHA256Hasher.hash(Array("a small document".utf8))).hex)
    }

    // MARK: Backups

    static func dump(_ vault: Vault) throws -> [String] {
        try vault.database.read { db in
            try String.fetchAll(db, sql: "SELECT id || ':' || body FROM note ORDER BY id")
                + String.fetchAll(db, sql: "SELECT name || ':' || size FROM blob ORDER BY name")
        }
    }

    @Test func backupThenRestoreGivesTheSameVault() throws {
        let (vault, directory, blobs) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        let backupPath = "\(directory)/vault.phrbak"
        let summary = try VaultBackup.write(vault, to: backupPath)
        #expect(summary.blobs == 2)
        #expect(TestSupport.anyFile(under: directory, contains: Array("note 399".utf8)) == nil)
        #expect(throws: VaultError.alreadyExists(path: backupPath)) { _ = try VaultBackup.write(vault, to: backupPath) }

        let target = VaultLocation(path: "\(directory)/restored")
        let restored = try VaultBackup.restore(from: backupPath, to: target) { _ in TestSupport.secret(TestSupport.passphrase) }
        #expect(restored.blobs == 2)
        #expect(restored.check.problems == [])
        let reopened = try VaultTests.reopen(target, with: TestSupport.passphrase)
        #expect(try Self.dump(reopened) == (try Self.dump(vault)))
        var copy: [UInt8] = []
        try reopened.blobs.read(name: blobs[0].name) { copy += $0 }
        #expect(copy == Array(repeating: 0x41, count: 150_000))
        #expect(try Self.check(reopened).problems == [])
        // Restoring over a vault is refused.
        #expect(throws: VaultError.alreadyExists(path: target.root)) {
            _ = try VaultBackup.restore(from: backupPath, to: target) { _ in TestSupport.secret(TestSupport.passphrase) }
        }
    }

    @Test(arguments: [("flip", 60), ("flip", -40), ("flip", -5), ("truncate", -1), ("truncate", -33), ("append", 1)])
    func aDamagedBackupRestoresNothing(damage: String, position: Int) throws {
        let (vault, directory, _) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        let backupPath = "\(directory)/vault.phrbak"
        _ = try VaultBackup.write(vault, to: backupPath)
        let size = Int(FileSystem.fileSize(backupPath)!)
        let offset = position >= 0 ? position : size + position
        switch damage {
        case "flip": try Self.flip(backupPath, at: offset)
        case "truncate": #expect(truncate(backupPath, off_t(offset)) == 0)
        default:
            let handle = try #require(FileHandle(forWritingAtPath: backupPath))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0]))
            try handle.close()
        }
        let target = VaultLocation(path: "\(directory)/restored")
        #expect(throws: (any Error).self) {
            _ = try VaultBackup.restore(from: backupPath, to: target) { _ in TestSupport.secret(TestSupport.passphrase) }
        }
        #expect(!FileSystem.exists(target.root))
        #expect(FileSystem.contents(of: directory).filter { $0.hasPrefix(".phr-restore") }.isEmpty)
    }

    /// The damage a backup must see before it copies: a tampered page, a partial last page, a
    /// flipped, truncated or swapped blob. Each fails the backup (nothing written, nothing
    /// left beside it) and names the damage; `skipDamaged` writes the sound part and says what
    /// it left out; restore takes that backup only with `partial`.
    @Test(arguments: ["page", "partial-page", "blob-flip", "blob-truncate", "blob-swap"])
    func aDamagedVaultGivesNoBackupUnlessAskedForTheSoundPart(damage: String) throws {
        let (vault, directory, blobs) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        let notePage = try vault.database.read { db in
            try Int.fetchOne(db, sql: "SELECT max(pageno) FROM dbstat WHERE name = 'note' AND pagetype = 'leaf'")!
        }
        let big = vault.blobs.path(for: blobs[0].name)
        switch damage {
        case "page": try Self.flip(vault.location.database, at: (notePage - 1) * 4096 + 700)
        case "partial-page":
            let handle = try #require(FileHandle(forWritingAtPath: vault.location.database))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 7, count: 100))
            try handle.close()
        case "blob-flip": try Self.flip(big, at: 70_000)
        case "blob-truncate": #expect(truncate(big, 65_536) == 0)
        default:
            try FileManager.default.removeItem(atPath: big)
            try FileManager.default.copyItem(atPath: vault.blobs.path(for: blobs[1].name), toPath: big)
        }
        let backupPath = "\(directory)/vault.phrbak"
        var named: [String] = []
        #expect {
            _ = try VaultBackup.write(vault, to: backupPath)
        } throws: { error in
            guard case VaultError.integrity(let problems) = error else { return false }
            named = problems
            return true
        }
        #expect(!FileSystem.exists(backupPath))
        #expect(FileSystem.contents(of: directory).filter { $0.contains("phrbak") }.isEmpty, "nothing left beside it")
        switch damage {
        case "page": #expect(named == ["page \(notePage) of vault.db failed authentication (tampered or damaged)"])
        case "partial-page": #expect(named == ["vault.db ends with 100 bytes of a partial page (truncated or damaged)"])
        default: #expect(named.count == 1 && named[0].hasPrefix("blob \(blobs[0].name.prefix(12))"), "\(named)")
        }

        let summary = try VaultBackup.write(vault, to: backupPath, skipDamaged: true)
        #expect(summary.damage.count == 1, "\(summary.damage)")
        #expect(summary.blobs == (damage.hasPrefix("blob") ? 1 : 2))
        let target = VaultLocation(path: "\(directory)/restored")
        #expect {
            _ = try VaultBackup.restore(from: backupPath, to: target) { _ in TestSupport.secret(TestSupport.passphrase) }
        } throws: { error in
            guard case VaultError.backupIncomplete(_, let listed) = error else { return false }
            return listed == summary.damage && (error as? PHRError)?.exitStatus == .integrity
        }
        #expect(!FileSystem.exists(target.root))
        let restored = try VaultBackup.restore(from: backupPath, to: target, partial: true) { _ in TestSupport.secret(TestSupport.passphrase) }
        #expect(restored.damage == summary.damage)
        #expect(FileSystem.exists(target.root))
        if damage.hasPrefix("blob") {
            #expect(restored.check.problems == ["blob \(blobs[0].name.prefix(12)) is missing from blobs/"])
            // Everything sound came back: the database and the other blob.
            let reopened = try VaultTests.reopen(target, with: TestSupport.passphrase)
            var copy: [UInt8] = []
            try reopened.blobs.read(name: blobs[1].name) { copy += $0 }
            #expect(copy == Array("a small document".utf8))
            #expect(try Self.dump(reopened).count == 402)
        } else {
            #expect(!restored.check.isHealthy, "the damaged page came back as it was")
        }
    }

    /// A vault.db that is not a whole number of pages is damage for every command, not only
    /// for `phr check`.
    @Test func aPartialLastPageIsDamageWhenOpening() throws {
        let (vault, directory, _) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        let handle = try #require(FileHandle(forWritingAtPath: vault.location.database))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0, count: 1000))
        try handle.close()
        #expect(throws: VaultError.integrity(["vault.db ends with 1000 bytes of a partial page (truncated or damaged)"])) {
            _ = try Vault.open(at: vault.location, keyFile: vault.keyFile, keys: vault.keys)
        }
    }

    @Test func restoringWithTheWrongPassphraseFails() throws {
        let (vault, directory, _) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        _ = try VaultBackup.write(vault, to: "\(directory)/b")
        #expect(throws: VaultError.wrongPassphrase) {
            _ = try VaultBackup.restore(from: "\(directory)/b", to: VaultLocation(path: "\(directory)/r")) { _ in TestSupport.secret("wrong passphrase") }
        }
    }

    @Test func aBackupIsConsistentWhileAnotherConnectionWrites() async throws {
        let (vault, directory, _) = try Self.populatedVault()
        defer { TestSupport.remove(directory) }
        // A second, independent connection (as another phr process would have) writes in a loop.
        let writer = try Vault.open(at: vault.location, keyFile: vault.keyFile, keys: vault.keys)
        let stop = ManagedAtomicFlag()
        let started = ManagedAtomicFlag()
        let writing = Task.detached {
            var written = 0
            while !stop.isSet {
                try writer.database.write { db in
                    try db.execute(sql: "INSERT INTO note (body) VALUES ('concurrent')")
                    try db.execute(sql: "UPDATE note SET body = body || '+' WHERE id % 5 = 0")
                }
                written += 1
                if written == 3 { started.set() }
            }
            return written
        }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        for round in 0..<5 {
            _ = try VaultBackup.write(vault, to: "\(directory)/b\(round)")
            try await Task.sleep(for: .milliseconds(20))
        }
        stop.set()
        let written = try await writing.value
        #expect(written > 3)
        for round in 0..<5 {
            let target = VaultLocation(path: "\(directory)/r\(round)")
            let restored = try VaultBackup.restore(from: "\(directory)/b\(round)", to: target) { _ in TestSupport.secret(TestSupport.passphrase) }
            #expect(restored.check.problems == [])
        }
    }
}

/// A flag another task can set (tests only).
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Debian 12's SQLite (3.40.1) reports "NULL value in T.C" from `PRAGMA integrity_check` for a
/// WITHOUT ROWID table whose primary-key columns are not its first columns in key order (fixed
/// in 3.41): `phr check` would call a healthy vault damaged. Every such table of the schema
/// keeps its key columns first.
@Suite struct SchemaShapeTests {
    @Test func withoutRowidTablesDeclareTheirKeyColumnsFirst() throws {
        let (vault, _, directory) = try TestSupport.makeVault("schema-shape")
        defer { TestSupport.remove(directory) }
        let misordered = try vault.database.read { db -> [String] in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%WITHOUT ROWID%'")
            #expect(tables.count > 10)
            return try tables.filter { table in
                let columns = try Row.fetchAll(db, sql: "SELECT cid, pk FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
                return columns.contains { row in
                    let pk: Int = row["pk"], cid: Int = row["cid"]
                    return pk > 0 && pk - 1 != cid
                }
            }
        }
        #expect(misordered == [])
    }
}
