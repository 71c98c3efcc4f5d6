import CPHRVFS
import Foundation
import GRDB
import GRDBSQLite

/// vault.db: a GRDB `DatabaseQueue` on the system SQLite, every page encrypted by CPHRVFS.
///
/// The page key is registered with the VFS and only its handle appears in the URI
/// (`file:/…/vault.db?vfs=phr&phrkey=7`). Each connection is set up so that nothing can bypass the
/// cipher: temporary storage in memory, rollback journal (encrypted by the VFS), no memory mapping,
/// and `secure_delete` so removed records do not linger in free pages.
///
/// Crash safety comes from SQLite's rollback journal with `synchronous=FULL`; WAL is not used
/// because its shared-memory index and frame checksums would sit outside the cipher
/// (SECURITY.md, "Why a rollback journal").
public final class VaultDatabase: @unchecked Sendable {
    public let path: String
    let queue: DatabaseQueue
    let keyHandle: Int64
    /// Opened with SQLITE_OPEN_READONLY (`phr check`): nothing can be written through it.
    public let isReadOnly: Bool

    /// Opens (or, with `create`, creates) the database and brings its schema up to date.
    /// With `readOnly` the schema must already be current: nothing is migrated or written, so a
    /// vault on read-only media or without write permission can still be read and checked.
    init(path: String, pageKey: SecretBytes, create: Bool, readOnly: Bool = false) throws {
        self.path = path
        isReadOnly = readOnly && !create
        guard phr_vfs_register() == SQLITE_OK else { throw VaultError.io("cannot register the phr SQLite VFS") }
        if create && !FileSystem.exists(path) {
            // SQLite would create the file 0644 and give its journal the same mode.
            try FileDescriptor.createExclusive(path, mode: 0o600).close()
        } else if !create && !FileSystem.exists(path) {
            throw VaultError.notAVault(path: (path as NSString).deletingLastPathComponent, reason: "vault.db is missing")
        }
        let handle = pageKey.withUnsafeBytes { phr_key_register($0.u8) }
        guard handle > 0 else { throw VaultError.io("cannot register the page key (too many open vaults)") }
        keyHandle = handle
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.label = "vault"
        configuration.readonly = isReadOnly
        configuration.prepareDatabase { db in
            try VaultDatabase.prepare(db, creating: create)
        }
        do {
            queue = try DatabaseQueue(path: Self.uri(path: path, keyHandle: handle), configuration: configuration)
            if !isReadOnly {
                try Schema.migrator.migrate(queue)
            } else if try !queue.read({ db in try Schema.migrator.hasCompletedMigrations(db) }) {
                throw VaultError.io("\(path) needs a format upgrade, which cannot be done read-only")
            }
        } catch {
            let mapped = Self.map(error, keyHandle: handle, path: path)
            phr_key_unregister(handle)
            throw mapped
        }
    }

    deinit {
        try? queue.close()
        phr_key_unregister(keyHandle)
    }

    /// `file:` URI for SQLite (Debian builds with SQLITE_USE_URI=1). Characters with a meaning in
    /// URIs are percent-encoded so any path works.
    static func uri(path: String, keyHandle: Int64) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x21, 0x7f...:
                encoded += String(format: "%%%02X", byte)
            default:
                encoded += String(UnicodeScalar(byte))
            }
        }
        return "file:\(encoded)?vfs=\(PHR_VFS_NAME)&phrkey=\(keyHandle)"
    }

    static func prepare(_ db: Database, creating: Bool) throws {
        // The VFS vetoes any other value of temp_store, journal_mode and mmap_size.
        try db.execute(sql: "PRAGMA temp_store = MEMORY")
        try db.execute(sql: "PRAGMA journal_mode = DELETE")
        try db.execute(sql: "PRAGMA synchronous = FULL")
        try db.execute(sql: "PRAGMA secure_delete = ON")
        try db.execute(sql: "PRAGMA cell_size_check = ON")
        // Every page read from disk costs an AES-GCM decryption (about 1.2 us per 4 KiB here), so a
        // larger page cache than SQLite's 2 MiB default pays for itself; 32 MiB is small for a CLI.
        try db.execute(sql: "PRAGMA cache_size = -32768")
        try db.execute(sql: "PRAGMA trusted_schema = OFF")
        // Search ranks with phr_rank, FTS5's BM25 for the best K rows (CPHRVFS/rank.c).
        guard let connection = db.sqliteConnection, phr_rank_register(UnsafeMutableRawPointer(connection)) == SQLITE_OK else {
            throw VaultError.io("cannot register the search ranking function")
        }
        if creating {
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            if pages == 0 {
                try db.execute(sql: "PRAGMA page_size = \(PHR_PAGE_SIZE)")
                // Ask SQLite to leave PHR_PAGE_RESERVE bytes at the end of each page for the nonce
                // and tag. Only possible on an empty database; the VFS refuses to encrypt a page 1
                // whose header does not carry this value.
                var reserve = Int32(PHR_PAGE_RESERVE)
                let rc = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve)
                guard rc == SQLITE_OK else { throw VaultError.io("cannot reserve page bytes (SQLite error \(rc))") }
            }
        }
    }

    /// Runs `body` in a read transaction; errors are mapped to `VaultError` where they mean damage.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch {
            throw Self.map(error, keyHandle: keyHandle, path: path)
        }
    }

    /// Runs `body` in a write transaction (IMMEDIATE), committed when it returns.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.write(body)
        } catch {
            throw Self.map(error, keyHandle: keyHandle, path: path)
        }
    }

    /// Runs `body` outside any implicit transaction (for backups and checks that manage their own).
    public func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.writeWithoutTransaction(body)
        } catch {
            throw Self.map(error, keyHandle: keyHandle, path: path)
        }
    }

    /// A plaintext copy of the database in memory (never on disk), for checks SQLite only
    /// runs as writes, such as FTS5's integrity-check command, when this connection is read-only.
    func copyInMemory(_ db: Database) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "vault copy"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            try db.execute(sql: "PRAGMA page_size = \(PHR_PAGE_SIZE)")
        }
        let copy = try DatabaseQueue(configuration: configuration)
        do {
            try copy.writeWithoutTransaction { destination in try db.backup(to: destination) }
        } catch {
            throw Self.map(error, keyHandle: keyHandle, path: path)
        }
        return copy
    }

    /// Authenticates every page of vault.db (PHR_FCNTL_VERIFY).
    func verifyPages(_ db: Database) throws -> PhrVerifyResult {
        var result = PhrVerifyResult()
        let rc = sqlite3_file_control(db.sqliteConnection, "main", PHR_FCNTL_VERIFY, &result)
        guard rc == SQLITE_OK else { throw VaultError.io("cannot read \(path) (SQLite error \(rc))") }
        return result
    }

    /// The last page that failed authentication through this database's key, if any.
    func lastFailure() -> (file: String, page: UInt32)? {
        var kind: Int32 = 0
        var page: UInt32 = 0
        guard phr_key_last_failure(keyHandle, &kind, &page) == 1 else { return nil }
        return (kind == Int32(UInt8(ascii: "J")) ? "vault.db-journal" : "vault.db", page)
    }

    /// SQLITE_IOERR_DATA, a compound macro Swift does not import: what CPHRVFS returns for a page
    /// that fails authentication.
    static let ioerrData: Int32 = SQLITE_IOERR | (32 << 8)

    /// Turns SQLite errors that mean damage or contention into `VaultError`s. SQL text and
    /// arguments never reach the message (GRDB hides arguments by default).
    /// One line for an error no command turned into its own: SQLite's message without the SQL
    /// or its arguments (which can hold record contents).
    public static func describe(_ error: Error) -> String {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_CONSTRAINT:
                return "the vault refused the change (\(error.message ?? "a constraint failed"))"
            default:
                return "the vault database failed (\(error.message ?? "\(error.resultCode)"))"
            }
        }
        return (error as? LocalizedError)?.errorDescription ?? String(describing: type(of: error))
    }

    static func map(_ error: Error, keyHandle: Int64, path: String) -> Error {
        guard let dbError = error as? DatabaseError else { return error }
        let name = (path as NSString).lastPathComponent
        switch dbError.extendedResultCode.rawValue {
        case Self.ioerrData:
            var kind: Int32 = 0
            var page: UInt32 = 0
            if phr_key_last_failure(keyHandle, &kind, &page) == 1 {
                let file = kind == Int32(UInt8(ascii: "J")) ? "\(name)-journal" : name
                return VaultError.integrity(["page \(page) of \(file) failed authentication (tampered or damaged)"])
            }
            return VaultError.integrity(["a page of \(name) failed authentication (tampered or damaged)"])
        default:
            break
        }
        switch dbError.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return VaultError.integrity(["\(name) is damaged: \(dbError.message ?? "database disk image is malformed")"])
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return VaultError.busy(path: (path as NSString).deletingLastPathComponent)
        case .SQLITE_FULL:
            return VaultError.io("cannot write \(path): no space left on device")
        case .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY:
            return VaultError.io("cannot use \(path): \(dbError.message ?? "i/o error")")
        default:
            return error
        }
    }
}
