import CPHRVFS
import Foundation
import GRDB
import GRDBSQLite
import Glibc

/// `phr backup` and `phr restore`: the whole vault as one self-contained file.
///
/// The backup holds the vault's files as they are on disk (database pages and blobs are already
/// encrypted and authenticated), framed as records and closed by an HMAC-SHA256 over every byte
/// before it under the backup subkey, so a truncated, reordered or altered backup is refused.
/// Format: Schemas/vault-format-v1.md, "Backup file".
///
/// Consistency while another phr process writes: the database is copied under SQLite's SHARED
/// lock (no writer can change the file meanwhile), and a shared lock on `blobs/` keeps every blob
/// the copied database references on disk until it has been copied.
public enum VaultBackup {
    static let magic: [UInt8] = Array("phrbkup".utf8) + [1]
    static let maxNameLength = 255

    enum Tag: UInt8 {
        case version = 0x56  // V
        case keys = 0x4b     // K
        case database = 0x44 // D
        case blob = 0x42     // B
        case end = 0x45      // E
    }

    public struct Summary: Codable, Sendable, Equatable {
        public var path: String
        public var bytes: Int64
        public var databaseBytes: Int64
        public var blobs: Int

        enum CodingKeys: String, CodingKey {
            case path, bytes
            case databaseBytes = "database_bytes"
            case blobs
        }
    }

    public typealias Progress = (_ done: Int64, _ total: Int64) -> Void

    // MARK: Writing

    /// Writes a backup of `vault` to `path` (via a temporary file renamed into place).
    public static func write(_ vault: Vault, to path: String, overwrite: Bool = false,
                             progress: Progress = { _, _ in }) throws -> Summary {
        if FileSystem.exists(path) && !overwrite { throw VaultError.alreadyExists(path: path) }
        let directory = (path as NSString).deletingLastPathComponent
        let temp = "\(path).part-\(try SecureRandom.bytes(6).hex)"
        let out = try FileDescriptor.createExclusive(temp)
        do {
            let writer = try RecordWriter(file: out, key: vault.keys.backupKey)
            try writer.raw(magic)
            let version = try FileDescriptor.openForReading(vault.location.versionFile).readToEnd(limit: 4096)
            try writer.record(.version, name: "VERSION", bytes: version)
            let keys = try FileDescriptor.openForReading(vault.location.keyFile).readToEnd(limit: 1 << 20)
            try writer.record(.keys, name: "keys.json", bytes: keys)

            let blobLock = try FileLock(path: vault.location.blobs, mode: .shared)
            defer { withExtendedLifetime(blobLock) {} }
            var blobNames: [String] = []
            var databaseBytes: Int64 = 0
            try vault.database.withConnection { db in
                try db.inTransaction(.deferred) {
                    // The first read takes the SHARED lock (and rolls back a crashed writer's journal).
                    blobNames = try String.fetchAll(db, sql: "SELECT name FROM blob ORDER BY name")
                    var size: Int64 = 0
                    var rc = sqlite3_file_control(db.sqliteConnection, "main", PHR_FCNTL_RAW_SIZE, &size)
                    guard rc == SQLITE_OK else { throw VaultError.io("cannot read \(vault.location.database)") }
                    databaseBytes = size
                    let blobBytes = blobNames.reduce(Int64(0)) { $0 + (FileSystem.fileSize(vault.blobs.path(for: $1)) ?? 0) }
                    let total = size + blobBytes
                    try writer.header(.database, name: "vault.db", length: UInt64(size))
                    var buffer = [UInt8](repeating: 0, count: 1 << 20)
                    var offset: Int64 = 0
                    while offset < size {
                        let amount = Int(min(Int64(buffer.count), size - offset))
                        rc = buffer.withUnsafeMutableBytes { bytes in
                            var request = PhrRawRead(buffer: bytes.baseAddress, amount: Int32(amount), offset: offset)
                            return sqlite3_file_control(db.sqliteConnection, "main", PHR_FCNTL_RAW_READ, &request)
                        }
                        guard rc == SQLITE_OK else { throw VaultError.io("cannot read \(vault.location.database)") }
                        try buffer.withUnsafeBytes { try writer.body(UnsafeRawBufferPointer(rebasing: $0[0..<amount])) }
                        offset += Int64(amount)
                        progress(offset, total)
                    }
                    return .commit
                }
            }
            var done = databaseBytes
            let total = databaseBytes + blobNames.reduce(Int64(0)) { $0 + (FileSystem.fileSize(vault.blobs.path(for: $1)) ?? 0) }
            for name in blobNames {
                let blobPath = vault.blobs.path(for: name)
                let input: FileDescriptor
                do {
                    input = try FileDescriptor.openForReading(blobPath)
                } catch let error as POSIXIOError where error.code == ENOENT {
                    throw VaultError.integrity(["blob \(name.prefix(12)) is missing from blobs/"])
                }
                let length = try input.size()
                try writer.header(.blob, name: name, length: UInt64(length))
                try copy(from: input, length: length) { chunk in
                    try writer.body(chunk)
                    done += Int64(chunk.count)
                    progress(done, total)
                }
            }
            try writer.finish()
            try out.sync()
            try out.close()
            guard rename(temp, path) == 0 else { throw POSIXIOError(operation: "rename", path: temp, code: errno) }
            try FileSystem.syncDirectory(directory.isEmpty ? "." : directory)
            return Summary(path: path, bytes: FileSystem.fileSize(path) ?? 0, databaseBytes: databaseBytes, blobs: blobNames.count)
        } catch {
            unlink(temp)
            throw error
        }
    }

    static func copy(from input: FileDescriptor, length: Int64, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var remaining = length
        while remaining > 0 {
            let amount = Int(min(Int64(buffer.count), remaining))
            let read = try buffer.withUnsafeMutableBytes { try input.readFully(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<amount])) }
            guard read == amount else { throw VaultError.io("\(input.path) changed size while being copied") }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<amount])) }
            remaining -= Int64(amount)
        }
    }

    /// Frames records and keeps the running HMAC.
    final class RecordWriter {
        let file: FileDescriptor
        let mac: HMACSHA256
        var pending = [UInt8]()

        init(file: FileDescriptor, key: SecretBytes) throws {
            self.file = file
            mac = try HMACSHA256(key: key)
        }

        func raw(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { try body($0) }
        }

        func header(_ tag: Tag, name: String, length: UInt64) throws {
            let nameBytes = Array(name.utf8)
            precondition(nameBytes.count <= maxNameLength)
            var header: [UInt8] = [tag.rawValue, UInt8(nameBytes.count >> 8), UInt8(nameBytes.count & 0xff)]
            header += nameBytes
            for i in 0..<8 { header.append(UInt8(truncatingIfNeeded: length >> UInt64(8 * (7 - i)))) }
            try raw(header)
        }

        func body(_ bytes: UnsafeRawBufferPointer) throws {
            try mac.update(bytes)
            pending.append(contentsOf: bytes)
            if pending.count >= 1 << 20 { try flush() }
        }

        func record(_ tag: Tag, name: String, bytes: [UInt8]) throws {
            try header(tag, name: name, length: UInt64(bytes.count))
            try raw(bytes)
        }

        func flush() throws {
            try file.write(pending)
            pending.removeAll(keepingCapacity: true)
        }

        func finish() throws {
            try header(.end, name: "", length: 32)
            let tag = try mac.finalize()
            pending += tag
            try flush()
        }
    }

    // MARK: Restoring

    public struct RestoreSummary: Codable, Sendable, Equatable {
        public var path: String
        public var blobs: Int
        public var check: VaultCheck.Report
    }

    /// Restores `backupPath` into `location`, which must not exist or be an empty directory.
    /// `secret` is asked for once the key file has been read (the passphrase as it was when the
    /// backup was made, or the recovery key). Everything is verified (the backup's HMAC, then a
    /// full `phr check`) in a staging directory before it is renamed into place.
    public static func restore(from backupPath: String, to location: VaultLocation,
                               secret: (KeyFile) throws -> SecretBytes,
                               progress: Progress = { _, _ in }) throws -> RestoreSummary {
        if FileSystem.exists(location.root) {
            guard FileSystem.isDirectory(location.root), FileSystem.contents(of: location.root).isEmpty else {
                throw VaultError.alreadyExists(path: location.root)
            }
        }
        let input: FileDescriptor
        do {
            input = try FileDescriptor.openForReading(backupPath)
        } catch let error as POSIXIOError where error.code == ENOENT {
            throw VaultError.backupInvalid(path: backupPath, reason: "no such file")
        }
        let total = try input.size()
        let parent = (location.root as NSString).deletingLastPathComponent
        try FileSystem.makePrivateDirectories(parent)
        let staging = "\(parent)/.phr-restore-\(try SecureRandom.bytes(6).hex)"
        try FileSystem.makePrivateDirectory(staging)
        do {
            let stagingLocation = VaultLocation(path: staging)
            let reader = RecordReader(file: input, path: backupPath)
            guard try reader.rawExact(magic.count) == magic else {
                throw VaultError.backupInvalid(path: backupPath, reason: "it does not start like a phr backup")
            }
            // VERSION and keys.json come first; with the key file read, the secret can unlock
            // the backup key and every later byte is authenticated as it streams by.
            var record = try reader.nextHeader()
            guard record.tag == .version, record.length <= 4096 else { throw reader.invalid("VERSION record missing") }
            let version = try reader.bodyExact(Int(record.length))
            try FileSystem.atomicWrite(version, to: stagingLocation.versionFile)
            record = try reader.nextHeader()
            guard record.tag == .keys, record.length <= 1 << 20 else { throw reader.invalid("key file record missing") }
            let keyBytes = try reader.bodyExact(Int(record.length))
            let keyFile = try KeyFile.decode(keyBytes, path: "\(backupPath) (keys.json)")
            let keys = try Vault.unlock(keyFile: keyFile, secret: try secret(keyFile))
            let mac = try HMACSHA256(key: keys.backupKey)
            try mac.update(magic)
            try mac.update(reader.consumed)
            reader.mac = mac
            try FileSystem.atomicWrite(keyBytes, to: stagingLocation.keyFile)
            try FileSystem.makePrivateDirectory(stagingLocation.blobs)

            var blobCount = 0
            var sawDatabase = false
            while true {
                record = try reader.nextHeader()
                switch record.tag {
                case .database:
                    guard !sawDatabase else { throw reader.invalid("two database records") }
                    sawDatabase = true
                    try reader.copyBody(length: record.length, to: stagingLocation.database) { progress($0, total) }
                case .blob:
                    guard record.name.count == 64, record.name.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                        throw reader.invalid("a blob record has a bad name")
                    }
                    let shard = "\(stagingLocation.blobs)/\(record.name.prefix(2))"
                    if !FileSystem.exists(shard) { try FileSystem.makePrivateDirectory(shard) }
                    try reader.copyBody(length: record.length, to: "\(shard)/\(record.name)") { progress($0, total) }
                    blobCount += 1
                case .end:
                    guard record.length == 32 else { throw reader.invalid("bad end record") }
                    let expected = try mac.finalize()
                    reader.mac = nil
                    let stored = try reader.bodyExact(32)
                    guard constantTimeEqual(expected, stored) else {
                        throw VaultError.backupInvalid(path: backupPath, reason: "authentication failed (altered or damaged)")
                    }
                    guard try reader.rawExact(1, allowShort: true).isEmpty else {
                        throw VaultError.backupInvalid(path: backupPath, reason: "data after the end record")
                    }
                    guard sawDatabase else { throw reader.invalid("no database record") }
                    try FileSystem.syncDirectory(stagingLocation.blobs)
                    let report = try VaultCheck.run(location: stagingLocation, keyFile: keyFile, keys: keys)
                    guard report.isHealthy else { throw VaultError.integrity(report.problems) }
                    try FileSystem.syncDirectory(staging)
                    guard rename(staging, location.root) == 0 else {
                        throw POSIXIOError(operation: "rename", path: staging, code: errno)
                    }
                    try FileSystem.syncDirectory(parent)
                    return RestoreSummary(path: location.root, blobs: blobCount, check: report)
                default:
                    throw reader.invalid("unexpected record")
                }
            }
        } catch {
            FileSystem.removeTree(staging)
            throw error
        }
    }

    /// Reads records, feeding every byte to the HMAC once it is set.
    final class RecordReader {
        let file: FileDescriptor
        let path: String
        var mac: HMACSHA256?
        /// Bytes read before the MAC key was known (VERSION and keys.json records).
        var consumed = [UInt8]()
        var offset: Int64 = 0

        init(file: FileDescriptor, path: String) {
            self.file = file
            self.path = path
        }

        func invalid(_ reason: String) -> VaultError {
            VaultError.backupInvalid(path: path, reason: reason)
        }

        func rawExact(_ count: Int, allowShort: Bool = false) throws -> [UInt8] {
            let bytes = try file.read(upTo: count)
            guard bytes.count == count || allowShort else { throw invalid("truncated") }
            offset += Int64(bytes.count)
            return bytes
        }

        func bodyExact(_ count: Int) throws -> [UInt8] {
            let bytes = try rawExact(count)
            try feed(bytes)
            return bytes
        }

        private func feed(_ bytes: [UInt8]) throws {
            if let mac { try mac.update(bytes) } else { consumed += bytes }
        }

        func nextHeader() throws -> (tag: Tag, name: String, length: UInt64) {
            let head = try bodyExact(3)
            guard let tag = Tag(rawValue: head[0]) else { throw invalid("unknown record type") }
            let nameLength = Int(head[1]) << 8 | Int(head[2])
            guard nameLength <= maxNameLength else { throw invalid("record name too long") }
            let name = String(decoding: try bodyExact(nameLength), as: UTF8.self)
            let lengthBytes = try bodyExact(8)
            let length = lengthBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard length <= UInt64(Int64.max) else { throw invalid("record too large") }
            return (tag, name, length)
        }

        func copyBody(length: UInt64, to destination: String, progress: (Int64) -> Void) throws {
            let out = try FileDescriptor.createExclusive(destination)
            try VaultBackup.copy(from: file, length: Int64(length)) { chunk in
                try mac?.update(chunk)
                try out.write(chunk)
                offset += Int64(chunk.count)
                progress(offset)
            }
            try out.sync()
            try out.close()
        }
    }
}
