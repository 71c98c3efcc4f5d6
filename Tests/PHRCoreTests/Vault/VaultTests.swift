import Foundation
import GRDB
import Testing
@testable import PHRCore

/// Creating, opening, re-keying and leaking nothing: the vault as a whole, in process.
@Suite struct VaultTests {
    static func reopen(_ location: VaultLocation, with secret: String) throws -> Vault {
        let keyFile = try Vault.readKeyFile(at: location)
        return try Vault.open(at: location, keyFile: keyFile,
                              keys: Vault.unlock(keyFile: keyFile, secret: TestSupport.secret(secret)))
    }

    static func fileHashes(_ directory: String) throws -> [String: String] {
        var hashes: [String: String] = [:]
        for file in TestSupport.files(under: directory) {
            hashes[file] = try SHA256Hasher.hash(Array(FileManager.default.contents(atPath: file)!)).hex
        }
        return hashes
    }

    @Test func aNewVaultHasTheDocumentedLayoutAndModes() throws {
        let (vault, recoveryKey, directory) = try TestSupport.makeVault()
        defer { TestSupport.remove(directory) }
        let root = vault.location.root
        #expect(Set(FileSystem.contents(of: root)) == ["VERSION", "blobs", "keys.json", "vault.db"])
        for (path, mode) in [(root, 0o700), (vault.location.blobs, 0o700), (vault.location.database, 0o600),
                             (vault.location.keyFile, 0o600), (vault.location.versionFile, 0o600)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
        }
        #expect(RecoveryKey.parse(recoveryKey) != nil)
        let head = Array(FileManager.default.contents(atPath: vault.location.database)!.prefix(24))
        #expect(Array(head[0..<16]) != Array("SQLite format 3\0".utf8))
        #expect(Array(head[0..<16]) == Array("phr db format 1\0".utf8))
        #expect(head[16] == 0x10 && head[17] == 0x00, "page size 4096")
        #expect(head[20] == 32, "header byte 20 holds the reserve")
    }

    @Test func creatingOverAnExistingVaultIsRefused() throws {
        let (vault, _, directory) = try TestSupport.makeVault()
        defer { TestSupport.remove(directory) }
        #expect(throws: VaultError.alreadyExists(path: vault.location.root)) {
            _ = try Vault.create(at: vault.location, passphrase: TestSupport.secret("another passphrase"),
                                 parameters: TestSupport.cheapKDF)
        }
    }

    @Test func shortPassphrasesAreRefused() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(throws: VaultError.passphraseRejected("the passphrase is too short: use at least 8 characters")) {
            _ = try Vault.create(at: VaultLocation(path: "\(directory)/v"), passphrase: TestSupport.secret("short"),
                                 parameters: TestSupport.cheapKDF)
        }
        #expect(!FileSystem.exists("\(directory)/v"))
    }

    @Test func theRecoveryKeyOpensTheVaultAndAWrongPassphraseChangesNothing() throws {
        let (vault, recoveryKey, directory) = try TestSupport.makeVault()
        defer { TestSupport.remove(directory) }
        let location = vault.location
        try vault.database.write { db in try db.execute(sql: "CREATE TABLE note (body TEXT)") }
        let before = try Self.fileHashes(location.root)
        let keyFile = try Vault.readKeyFile(at: location)
        #expect(throws: VaultError.wrongPassphrase) {
            _ = try Vault.unlock(keyFile: keyFile, secret: TestSupport.secret("not the passphrase"))
        }
        #expect(try Self.fileHashes(location.root) == before)
        _ = try Self.reopen(location, with: recoveryKey.lowercased())
    }

    @Test func unicodePassphrasesAreNormalised() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let location = VaultLocation(path: "\(directory)/v")
        let composed = "Ma\u{00EF}s cr\u{00E8}me br\u{00FB}l\u{00E9}e"  // NFC
        _ = try Vault.create(at: location, passphrase: TestSupport.secret(composed), parameters: TestSupport.cheapKDF)
        let decomposed = composed.decomposedStringWithCanonicalMapping  // as typed on another system
        #expect(Array(decomposed.utf8) != Array(composed.utf8))
        _ = try Self.reopen(location, with: decomposed)
    }

    @Test func aMarkerNeverReachesTheDiskInPlaintextEvenMidTransaction() throws {
        let (vault, _, directory) = try TestSupport.makeVault()
        defer { TestSupport.remove(directory) }
        let marker = "MARKER-ferritin-7f3a9c"
        try vault.database.write { db in
            try db.execute(sql: "CREATE TABLE note (body TEXT)")
            try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: [marker])
        }
        #expect(TestSupport.anyFile(under: directory, contains: Array(marker.utf8)) == nil)
        // A transaction too big for the page cache spills pages to vault.db and journals the old
        // ones before it commits: look at every file while it is open.
        try vault.database.write { db in
            try db.execute(sql: "PRAGMA cache_size = 8")
            for index in 0..<2000 {
                try db.execute(sql: "INSERT INTO note VALUES (?)", arguments: ["\(marker) row \(index) " + String(repeating: "x", count: 200)])
            }
            try db.execute(sql: "UPDATE note SET body = body || ? WHERE rowid % 3 = 0", arguments: [marker])
            #expect(FileSystem.exists(vault.location.journal), "the rollback journal exists mid-transaction")
            #expect(TestSupport.anyFile(under: directory, contains: Array(marker.utf8)) == nil)
            #expect(TestSupport.anyFile(under: directory, contains: Array("row 1999".utf8)) == nil)
        }
        #expect(TestSupport.anyFile(under: directory, contains: Array(marker.utf8)) == nil)
        // Every file but VERSION/keys.json is noise to someone without the key.
        let db = try #require(FileManager.default.contents(atPath: vault.location.database))
        #expect(db.range(of: Data("CREATE TABLE".utf8)) == nil)
    }

    @Test func temporaryFilesWalAndMemoryMappingAreRefused() throws {
        let (vault, _, directory) = try TestSupport.makeVault()
        defer { TestSupport.remove(directory) }
        try vault.database.withConnection { db throws in
            for pragma in ["PRAGMA temp_store = FILE", "PRAGMA journal_mode = WAL", "PRAGMA journal_mode = OFF",
                           "PRAGMA mmap_size = 1000000", "PRAGMA page_size = 8192"] {
                #expect(throws: (any Error).self, "\(pragma)") { try db.execute(sql: pragma) }
            }
            let tempStore = try String.fetchOne(db, sql: "PRAGMA temp_store")
            let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode")
            #expect(tempStore == "2", "still MEMORY")
            #expect(journalMode == "delete")
            // A plaintext copy of the database cannot be made through the VFS.
            #expect(throws: (any Error).self) { try db.execute(sql: "VACUUM INTO ?", arguments: ["\(directory)/copy.db"]) }
            #expect(!FileSystem.exists("\(directory)/copy.db") || FileSystem.fileSize("\(directory)/copy.db") == 0)
        }
        // Sorting more than the cache holds stays in memory (temp_store=MEMORY) and works.
        try vault.database.write { db in
            try db.execute(sql: "CREATE TABLE t (x TEXT)")
            for index in 0..<3000 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [String(index * 7919 % 3001)]) }
            try db.execute(sql: "PRAGMA cache_size = 4")
            let sorted = try String.fetchAll(db, sql: "SELECT x FROM t ORDER BY x || 'z' DESC LIMIT 3")
            #expect(sorted.count == 3)
            try db.execute(sql: "CREATE INDEX t_x ON t (x)")
        }
        #expect(FileSystem.contents(of: vault.location.root).sorted() == ["VERSION", "blobs", "keys.json", "vault.db"])
    }

    @Test func changingThePassphraseRewritesOnlyTheKeyFile() throws {
        let (vault, recoveryKey, directory) = try TestSupport.makeVault()
        defer { TestSupport.remove(directory) }
        let location = vault.location
        try vault.database.write { db in
            try db.execute(sql: "CREATE TABLE note (body TEXT)")
            try db.execute(sql: "INSERT INTO note VALUES ('kept')")
        }
        _ = try vault.blobs.store(bytes: Array("a document".utf8))
        let before = try Self.fileHashes(location.root)
        try Vault.changePassphrase(at: location, current: TestSupport.secret(TestSupport.passphrase),
                                   new: TestSupport.secret("a new passphrase"), parameters: TestSupport.cheapKDF)
        let after = try Self.fileHashes(location.root)
        #expect(after.filter { !$0.key.hasSuffix("keys.json") } == before.filter { !$0.key.hasSuffix("keys.json") },
                "no page or blob was rewritten")
        #expect(after[location.keyFile] != before[location.keyFile])
        #expect(throws: VaultError.wrongPassphrase) { _ = try Self.reopen(location, with: TestSupport.passphrase) }
        let reopened = try Self.reopen(location, with: "a new passphrase")
        #expect(try reopened.database.read { try String.fetchOne($0, sql: "SELECT body FROM note") } == "kept")
        _ = try Self.reopen(location, with: recoveryKey)
        // The recovery key can set a new passphrase when the old one is lost.
        try Vault.changePassphrase(at: location, current: TestSupport.secret(recoveryKey),
                                   new: TestSupport.secret("third passphrase"), parameters: TestSupport.cheapKDF)
        _ = try Self.reopen(location, with: "third passphrase")
    }

    @Test func replacingTheRecoveryKeyRetiresTheOldOne() throws {
        let (vault, oldRecovery, directory) = try TestSupport.makeVault()
        defer { TestSupport.remove(directory) }
        let newRecovery = try Vault.replaceRecoveryKey(at: vault.location, current: TestSupport.secret(TestSupport.passphrase),
                                                       parameters: TestSupport.cheapKDF)
        #expect(newRecovery != oldRecovery)
        #expect(throws: VaultError.wrongPassphrase) { _ = try Self.reopen(vault.location, with: oldRecovery) }
        _ = try Self.reopen(vault.location, with: newRecovery)
        _ = try Self.reopen(vault.location, with: TestSupport.passphrase)
    }

    @Test func aDamagedOrForeignKeyFileIsReportedNotTrusted() throws {
        let (vault, _, directory) = try TestSupport.makeVault()
        defer { TestSupport.remove(directory) }
        let location = vault.location
        var text = try String(contentsOfFile: location.keyFile, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"log2_n\" : 10", with: "\"log2_n\" : 40")
        try text.write(toFile: location.keyFile, atomically: true, encoding: .utf8)
        #expect(throws: VaultError.keyFileInvalid(path: location.keyFile, reason: "passphrase slot has out-of-range scrypt parameters")) {
            _ = try Vault.readKeyFile(at: location)
        }
        try "{\"format\": \"something else\"}".write(toFile: location.keyFile, atomically: true, encoding: .utf8)
        #expect(throws: VaultError.self) { _ = try Vault.readKeyFile(at: location) }
    }

    @Test func openingSomethingElseSaysSo() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        #expect(throws: VaultError.notFound(path: "\(directory)/nothing")) {
            _ = try Vault.readKeyFile(at: VaultLocation(path: "\(directory)/nothing"))
        }
        try FileManager.default.createDirectory(atPath: "\(directory)/other", withIntermediateDirectories: true)
        try "hello".write(toFile: "\(directory)/other/file.txt", atomically: true, encoding: .utf8)
        #expect(throws: VaultError.notAVault(path: "\(directory)/other", reason: "VERSION is missing")) {
            _ = try Vault.readKeyFile(at: VaultLocation(path: "\(directory)/other"))
        }
    }

    @Test func vaultPathsWithSpacesAndURIcharactersWork() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        let location = VaultLocation(path: "\(directory)/my vault?#%20 Ωμέγα")
        let (vault, _) = try Vault.create(at: location, passphrase: TestSupport.secret(TestSupport.passphrase),
                                          parameters: TestSupport.cheapKDF)
        try vault.database.write { db in try db.execute(sql: "CREATE TABLE x (y)") }
        #expect(FileSystem.exists("\(location.root)/vault.db"))
        _ = try Self.reopen(location, with: TestSupport.passphrase)
    }
    @Test func vaultPathsAreCanonicalWhetherOrNotTheyExistYet() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        try FileManager.default.createDirectory(atPath: "\(directory)/real/vault", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/link", withDestinationPath: "\(directory)/real")
        let real = VaultLocation(path: "\(directory)/real/vault").root
        #expect(real.hasSuffix("/real/vault") && !real.contains("//"))
        #expect(VaultLocation(path: "\(directory)/link/vault").root == real, "a symbolic link is resolved")
        #expect(VaultLocation(path: "\(directory)//real/./x/../vault/").root == real)
        // Not there yet (phr init): the existing part resolved, the rest tidied.
        #expect(VaultLocation(path: "\(directory)/link/new/./a/../b").root == real.replacingOccurrences(of: "/vault", with: "/new/b"))
        #expect(VaultLocation(path: "/nonexistent-phr-dir/../x//y/").root == "/x/y")
        #expect(VaultLocation(path: "/").root == "/")
    }
}
