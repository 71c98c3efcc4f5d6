import CPHRVFS
import Foundation
import GRDB
import GRDBSQLite

/// `phr check`: authenticates every database page and every blob, then runs SQLite's and FTS5's
/// own consistency checks and compares the blob table with the files on disk.
public struct VaultCheck {
    /// What the check found. `problems` make it fail (exit 80); `warnings` do not.
    public struct Report: Codable, Sendable, Equatable {
        public var pagesChecked: Int = 0
        public var blobsChecked: Int = 0
        public var blobBytesChecked: Int64 = 0
        public var ftsTablesChecked: Int = 0
        public var problems: [String] = []
        public var warnings: [Message] = []
        /// What interrupted commands left behind (nil when the database could not be read).
        public var leftovers: Leftovers?

        public var isHealthy: Bool { problems.isEmpty }

        enum CodingKeys: String, CodingKey {
            case pagesChecked = "pages_checked"
            case blobsChecked = "blobs_checked"
            case blobBytesChecked = "blob_bytes_checked"
            case ftsTablesChecked = "fts_tables_checked"
            case problems, warnings, leftovers
        }
    }

    /// Progress: a phase name, work done and total (same unit within a phase).
    public typealias Progress = (_ phase: String, _ done: Int64, _ total: Int64) -> Void

    /// Checks the vault at `location` with `keys`. Never throws for damage it can describe; throws
    /// only when it cannot run at all.
    /// With `repair`, leftovers of interrupted commands are removed (see `Vault.leftovers`).
    public static func run(location: VaultLocation, keyFile: KeyFile, keys: VaultKeys, repair: Bool = false,
                           progress: Progress = { _, _, _ in }) throws -> Report {
        var report = Report()
        let vault: Vault
        do {
            // Checking needs no write access: the database is opened read-only, so a vault on
            // read-only media, or one the user may only read, can be verified. Only a hot journal
            // (a crash in the middle of a write) needs a writable database, to be rolled back, and
            // `repair`, which deletes staged text of interrupted commands.
            vault = try Vault.open(at: location, keyFile: keyFile, keys: keys, readOnly: !repair && !hasHotJournal(location))
        } catch VaultError.integrity(let problems) {
            // SQLite cannot open it: authenticate the raw pages ourselves to say which are bad,
            // and still authenticate every blob.
            report.problems = problems
            var pages = PhrVerifyResult()
            let rc = keys.pageKey.withUnsafeBytes { phr_verify_file(location.database, $0.u8, &pages) }
            if rc == SQLITE_OK { record(pages, into: &report) }
            checkBlobs(BlobStore(root: location.blobs, keys: keys), referenced: nil, into: &report, progress: progress)
            return report
        }
        return try run(vault, report: report, repair: repair, progress: progress)
    }

    /// Whether vault.db has a non-empty rollback journal beside it, which SQLite rolls back on
    /// the next read (and cannot through a read-only connection).
    static func hasHotJournal(_ location: VaultLocation) -> Bool {
        (FileSystem.fileSize(location.database + "-journal") ?? 0) > 0
    }

    static func record(_ pages: PhrVerifyResult, into report: inout Report) {
        let name = "vault.db"
        report.pagesChecked = Int(pages.pageCount)
        let listed = min(Int(pages.badCount), Int(PHR_VERIFY_MAX_REPORTED))
        let badPages = withUnsafeBytes(of: pages.badPages) { Array($0.bindMemory(to: UInt32.self).prefix(listed)) }
        for page in badPages {
            let problem = "page \(page) of \(name) failed authentication (tampered or damaged)"
            if !report.problems.contains(problem) { report.problems.append(problem) }
        }
        if pages.badCount > UInt32(listed) {
            report.problems.append("\(pages.badCount - UInt32(listed)) more pages of \(name) failed authentication")
        }
        if pages.trailingBytes != 0 {
            report.problems.append("\(name) ends with \(pages.trailingBytes) bytes of a partial page (truncated or damaged)")
        }
    }

    static func run(_ vault: Vault, report initial: Report, repair: Bool, progress: Progress) throws -> Report {
        var report = initial
        let database = vault.database

        // Reading the schema rolls back a hot journal left by a crash (authenticating it) and
        // authenticates page 1.
        var opened = true
        do {
            _ = try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch VaultError.integrity(let problems) {
            opened = false
            report.problems += problems
        }

        let pages = try database.withConnection { db in try database.verifyPages(db) }
        progress("pages", Int64(pages.pageCount), Int64(pages.pageCount))
        record(pages, into: &report)

        var referenced: [String: Int64] = [:]
        if opened && pages.badCount == 0 {
            do {
                try database.withConnection { db in
                    let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                    if integrity != ["ok"] { report.problems += integrity.prefix(20).map { "SQLite integrity_check: \($0)" } }
                    let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
                    if !foreignKeys.isEmpty {
                        report.problems.append("\(foreignKeys.count) rows reference records that do not exist")
                    }
                    let ftsTables = try String.fetchAll(db, sql: """
                        SELECT name FROM sqlite_master
                        WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5(%'
                        ORDER BY name
                        """)
                    // The FTS5 integrity-check command is an INSERT; it changes nothing, and the
                    // savepoint is rolled back anyway. A read-only connection cannot run it, so
                    // there it runs on a copy of the (authenticated) database in memory.
                    func checkFTS(_ db: Database) throws {
                        for table in ftsTables {
                            try db.inSavepoint {
                                do {
                                    try db.execute(sql: "INSERT INTO \(table.quotedDatabaseIdentifier)(\(table.quotedDatabaseIdentifier)) VALUES ('integrity-check')")
                                } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
                                    report.problems.append("full-text index \(table) is inconsistent with its content")
                                }
                                return .rollback
                            }
                            report.ftsTablesChecked += 1
                        }
                    }
                    if database.isReadOnly, !ftsTables.isEmpty {
                        try database.copyInMemory(db).writeWithoutTransaction(checkFTS)
                    } else {
                        try checkFTS(db)
                    }
                    for row in try Row.fetchAll(db, sql: "SELECT name, size FROM blob") {
                        referenced[row["name"]] = row["size"]
                    }
                }
            } catch VaultError.integrity(let problems) {
                report.problems += problems
            }
        }

        let readable = opened && pages.badCount == 0
        checkBlobs(vault.blobs, referenced: readable ? referenced : nil, into: &report, progress: progress)
        if readable {
            // Only a healthy database can say which blobs are orphans.
            let leftovers = try vault.leftovers(remove: repair && report.isHealthy)
            report.leftovers = leftovers
            report.warnings += leftovers.descriptions
        }
        return report
    }

    /// Authenticates every blob file; with `referenced` (name to size from the blob table) also
    /// reports missing and unreferenced files.
    static func checkBlobs(_ blobs: BlobStore, referenced: [String: Int64]?, into report: inout Report,
                           progress: Progress) {
        let onDisk = Set(blobs.namesOnDisk())
        if let referenced {
            for missing in referenced.keys.sorted() where !onDisk.contains(missing) {
                report.problems.append("blob \(missing.prefix(12)) is missing from blobs/")
            }
        }
        let toVerify = onDisk.sorted()
        let totalBytes = toVerify.reduce(Int64(0)) { $0 + (FileSystem.fileSize(blobs.path(for: $1)) ?? 0) }
        var doneBytes: Int64 = 0
        for blob in toVerify {
            do {
                let size = try blobs.verify(name: blob)
                report.blobsChecked += 1
                report.blobBytesChecked += size
                if let expected = referenced?[blob], expected != size {
                    report.problems.append("blob \(blob.prefix(12)) holds \(size) bytes, the database expects \(expected)")
                }
            } catch VaultError.integrity(let problems) {
                report.problems += problems
            } catch {
                report.problems.append("blob \(blob.prefix(12)) cannot be read: \(error.localizedDescription)")
            }
            doneBytes += FileSystem.fileSize(blobs.path(for: blob)) ?? 0
            progress("blobs", doneBytes, totalBytes)
        }
    }
}
