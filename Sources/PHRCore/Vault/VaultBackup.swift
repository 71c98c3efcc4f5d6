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
        /// What a backup made with `skipDamaged` left out or copied damaged, one line each.
        case damage = 0x58   // X
    }

    public struct Summary: Codable, Sendable, Equatable {
        public var path: String
        public var bytes: Int64
        public var databaseBytes: Int64
        public var blobs: Int
        /// What `skipDamaged` left out or copied as it was, one line each; empty for a whole backup.
        public var damage: [String] = []

        enum CodingKeys: String, CodingKey {
            case path, bytes
            case databaseBytes = "database_bytes"
            case blobs, damage
        }
    }

    public typealias Progress = (_ done: Int64, _ total: Int64) -> Void

    // MARK: Writing

    /// Writes a backup of `vault` to `path`, authenticating everything it copies: every database
    /// page (AES-GCM) and every blob (its stream and the name it promises).
    ///
    /// Damage fails the backup (`VaultError.integrity`, naming each damaged part) and writes
    /// nothing, unless `skipDamaged`: then damaged blobs are left out, damaged database pages are
    /// copied as they are (the database is one unit), and both are listed in the backup's damage
    /// record and in the summary. `restore` refuses such a backup unless asked for a partial restore.
    /// The file appears at `path` only when complete (`OutputFile`).
    public static func write(_ vault: Vault, to path: String, overwrite: Bool = false, skipDamaged: Bool = false,
                             progress: Progress = { _, _ in }) throws -> Summary {
        let out = try OutputFile(destination: path, replace: overwrite, exists: { VaultError.alreadyExists(path: $0) })
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
            var damage: [String] = []
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
                    let trailing = Int(size % Int64(PHR_PAGE_SIZE))
                    if trailing != 0 {
                        let problem = "vault.db ends with \(trailing) bytes of a partial page (truncated or damaged)"
                        guard skipDamaged else { throw VaultError.integrity([problem]) }
                        damage.append(problem)
                    }
                    try writer.header(.database, name: "vault.db", length: UInt64(size))
                    let pageSize = Int(PHR_PAGE_SIZE)
                    var buffer = [UInt8](repeating: 0, count: 256 * pageSize)
                    var plain = [UInt8](repeating: 0, count: pageSize)
                    defer { wipe(&plain) }
                    var badPages: [Int64] = []
                    var offset: Int64 = 0
                    while offset < size {
                        let amount = Int(min(Int64(buffer.count), size - offset))
                        rc = buffer.withUnsafeMutableBytes { bytes in
                            var request = PhrRawRead(buffer: bytes.baseAddress, amount: Int32(amount), offset: offset)
                            return sqlite3_file_control(db.sqliteConnection, "main", PHR_FCNTL_RAW_READ, &request)
                        }
                        guard rc == SQLITE_OK else { throw VaultError.io("cannot read \(vault.location.database)") }
                        // Authenticate each whole page before it goes into the backup.
                        var start = 0
                        while start + pageSize <= amount {
                            let page = (offset + Int64(start)) / Int64(pageSize) + 1
                            let result = buffer.withUnsafeBytes { raw in
                                plain.withUnsafeMutableBytes { out in
                                    vault.keys.pageKey.withUnsafeBytes { key in
                                        phr_page_decrypt(key.u8, UInt32(truncatingIfNeeded: page), Int32(PHR_FILE_DB),
                                                         raw.u8! + start, out.u8m)
                                    }
                                }
                            }
                            if result != Int32(PHR_OK) { badPages.append(page) }
                            start += pageSize
                        }
                        if !badPages.isEmpty && !skipDamaged {
                            throw VaultError.integrity(Self.describe(badPages: badPages))
                        }
                        try buffer.withUnsafeBytes { try writer.body(UnsafeRawBufferPointer(rebasing: $0[0..<amount])) }
                        offset += Int64(amount)
                        progress(offset, total)
                    }
                    damage += Self.describe(badPages: badPages)
                    return .commit
                }
            }

            // Blobs: authenticated first, so that a damaged one is known before its record starts.
            var sound: [String] = []
            var damagedBlobs: [String] = []
            for name in blobNames {
                do {
                    _ = try vault.blobs.verify(name: name)
                    sound.append(name)
                } catch VaultError.integrity(let problems) {
                    damagedBlobs += problems
                }
            }
            if !damagedBlobs.isEmpty {
                guard skipDamaged else { throw VaultError.integrity(damagedBlobs) }
                damage += damagedBlobs.map { "left out: \($0)" }
            }
            var done = databaseBytes
            let total = databaseBytes + sound.reduce(Int64(0)) { $0 + (FileSystem.fileSize(vault.blobs.path(for: $1)) ?? 0) }
            for name in sound {
                let input = try FileDescriptor.openForReading(vault.blobs.path(for: name))
                let length = try input.size()
                try writer.header(.blob, name: name, length: UInt64(length))
                // Authenticated again as it is copied: the bytes in the backup are the bytes checked.
                let nameMAC = try HMACSHA256(key: vault.keys.blobNameKey)
                var copied: Int64 = 0
                do {
                    try BlobDecryptor.decrypt(key: vault.keys.blobKey, source: { buffer in
                        let count = try input.readFully(into: buffer)
                        guard copied + Int64(count) <= length else {
                            throw VaultError.io("\(input.path) changed size while being copied")
                        }
                        try writer.body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                        copied += Int64(count)
                        done += Int64(count)
                        progress(done, total)
                        return count
                    }) { chunk in try nameMAC.update(chunk) }
                } catch let error as BlobStreamError {
                    throw VaultError.integrity(["blob \(name.prefix(12)) failed authentication while being copied: \(error)"])
                }
                guard copied == length else { throw VaultError.io("\(input.path) changed size while being copied") }
                guard try nameMAC.finalize().hex == name else {
                    throw VaultError.integrity(["blob \(name.prefix(12)) does not hold the content its name promises"])
                }
            }
            if !damage.isEmpty {
                try writer.record(.damage, name: "damage", bytes: Array(damage.joined(separator: "\n").utf8))
            }
            try writer.finish()
            try out.commit()
            return Summary(path: path, bytes: FileSystem.fileSize(path) ?? 0, databaseBytes: databaseBytes,
                           blobs: sound.count, damage: damage)
        } catch {
            out.abandon()
            throw error
        }
    }

    static func describe(badPages: [Int64]) -> [String] {
        guard !badPages.isEmpty else { return [] }
        let listed = badPages.prefix(20).map(String.init).joined(separator: ", ")
        let more = badPages.count > 20 ? " and \(badPages.count - 20) more" : ""
        return ["\(badPages.count == 1 ? "page" : "pages") \(listed)\(more) of vault.db failed authentication (tampered or damaged)"]
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
        let file: OutputFile
        let mac: HMACSHA256
        var pending = [UInt8]()

        init(file: OutputFile, key: SecretBytes) throws {
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

        func body(_ bytes: [UInt8]) throws {
            try bytes.withUnsafeBytes { try body($0) }
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
        /// What the backup itself says it left out or copied damaged (a `--skip-damaged` backup).
        public var damage: [String] = []

        enum CodingKeys: String, CodingKey {
            case path, blobs, check, damage
        }
    }

    /// Restores `backupPath` into `location`, which must not exist or be an empty directory.
    /// `secret` is asked for once the key file has been read (the passphrase as it was when the
    /// backup was made, or the recovery key). Everything is verified (the backup's HMAC, then a
    /// full `phr check`) in a staging directory before it is renamed into place.
    ///
    /// A backup made with `skipDamaged` is refused unless `partial`: then its sound part is
    /// restored, and the summary lists what the backup left out and what the check still finds.
    public static func restore(from backupPath: String, to location: VaultLocation, partial: Bool = false,
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
            throw VaultError.backupMissing(path: backupPath)
        }
        let total = try input.size()
        let parent = (location.root as NSString).deletingLastPathComponent
        try FileSystem.makePrivateDirectories(parent)
        let staging = try StagingDirectory(parent: parent, prefix: StagingDirectory.restorePrefix)
        do {
            let stagingLocation = VaultLocation(path: staging.path)
            let reader = RecordReader(file: input, path: backupPath)
            guard try reader.rawExact(magic.count, allowShort: true) == magic else {
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
            var damage: [String] = []
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
                case .damage:
                    guard damage.isEmpty, record.length <= 1 << 20 else { throw reader.invalid("bad damage record") }
                    damage = String(decoding: try reader.bodyExact(Int(record.length)), as: UTF8.self)
                        .split(separator: "\n").map(String.init)
                case .end:
                    guard record.length == 32 else { throw reader.invalid("bad end record") }
                    let expected = try mac.finalize()
                    reader.mac = nil
                    let stored = try reader.bodyExact(32)
                    guard constantTimeEqual(expected, stored) else {
                        throw VaultError.backupDamaged(path: backupPath, reason: "authentication failed (altered or damaged)")
                    }
                    guard try reader.rawExact(1, allowShort: true).isEmpty else {
                        throw VaultError.backupDamaged(path: backupPath, reason: "data after the end record")
                    }
                    guard sawDatabase else { throw reader.invalid("no database record") }
                    if !damage.isEmpty && !partial {
                        throw VaultError.backupIncomplete(path: backupPath, damage: damage)
                    }
                    try FileSystem.syncDirectory(stagingLocation.blobs)
                    let report = try VaultCheck.run(location: stagingLocation, keyFile: keyFile, keys: keys)
                    guard report.isHealthy || partial else { throw VaultError.integrity(report.problems) }
                    try staging.rename(to: location.root)
                    return RestoreSummary(path: location.root, blobs: blobCount, check: report, damage: damage)
                default:
                    throw reader.invalid("unexpected record")
                }
            }
        } catch {
            staging.remove()
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

        /// A backup that started as one but is damaged, truncated or altered (exit 80).
        func invalid(_ reason: String) -> VaultError {
            VaultError.backupDamaged(path: path, reason: reason)
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
            let out: FileDescriptor
            do {
                out = try FileDescriptor.createExclusive(destination)
            } catch let error as POSIXIOError where error.code == EEXIST {
                // Only an altered backup names the same file twice.
                throw invalid("two records for the same file")
            }
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
