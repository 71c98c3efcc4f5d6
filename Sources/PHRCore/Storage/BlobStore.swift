import Foundation
import GRDB
import Glibc

/// The encrypted files under `blobs/`: document originals, each a `BlobStream`.
///
/// A blob is named by HMAC-SHA256(blob-name key, plaintext) in hex, so equal content is stored once
/// and the name reveals nothing to someone holding a known file (its plain SHA-256 would).
/// Files live at `blobs/<first two hex digits>/<name>`; writes go to `blobs/tmp/` first (already
/// encrypted), are fsynced and renamed into place, then the `blob` row is committed by the caller.
/// Writers and backups hold a shared lock on `blobs/`; files are deleted only under the exclusive
/// lock and only when no row references them (`Vault.leftovers`), so neither a running backup nor
/// a `doc add` of the same content ever loses a file.
public final class BlobStore: @unchecked Sendable {
    public let root: String
    let keys: VaultKeys?

    /// What `store` wrote (or found already present).
    public struct StoredBlob: Equatable, Sendable {
        public let name: String
        public let size: Int64
        /// SHA-256 of the plaintext (kept inside the encrypted database only).
        public let sha256: [UInt8]
        /// False when identical content was already in the store.
        public let isNew: Bool
    }

    /// `keys` may be nil to list and size blobs without being able to read them.
    init(root: String, keys: VaultKeys?) {
        self.root = root
        self.keys = keys
    }

    var temporaryDirectory: String { "\(root)/tmp" }

    public func path(for name: String) -> String {
        "\(root)/\(name.prefix(2))/\(name)"
    }

    /// Encrypts everything `source` yields (it fills a buffer and returns the byte count, 0 at the
    /// end) into the store, streaming: memory stays bounded whatever the size.
    public func store(from source: (UnsafeMutableRawBufferPointer) throws -> Int) throws -> StoredBlob {
        let keys = try requireKeys()
        try FileSystem.makePrivateDirectories(temporaryDirectory)
        let tempPath = "\(temporaryDirectory)/\(try SecureRandom.bytes(12).hex).part"
        let file = try FileDescriptor.createExclusive(tempPath)
        do {
            let nameMAC = try HMACSHA256(key: keys.blobNameKey)
            let hasher = try SHA256Hasher()
            var output = [UInt8]()
            output.reserveCapacity(1 << 20)
            let encryptor = try BlobEncryptor(key: keys.blobKey) { sealed in
                output.append(contentsOf: sealed)
                if output.count >= 1 << 20 {
                    try file.write(output)
                    output.removeAll(keepingCapacity: true)
                    TestPause.here(.blobPart)
                }
            }
            var buffer = [UInt8](repeating: 0, count: 256 << 10)
            defer { wipe(&buffer) }
            var size: Int64 = 0
            while true {
                let count = try buffer.withUnsafeMutableBytes { try source($0) }
                if count == 0 { break }
                try buffer.withUnsafeBytes { bytes in
                    let chunk = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
                    try nameMAC.update(chunk)
                    try hasher.update(chunk)
                    try encryptor.write(chunk)
                }
                size += Int64(count)
            }
            try encryptor.finish()
            try file.write(output)
            try file.sync()
            try file.close()
            let name = try nameMAC.finalize().hex
            let digest = try hasher.finalize()
            let finalPath = path(for: name)
            if FileSystem.exists(finalPath) {
                unlink(tempPath)
                return StoredBlob(name: name, size: size, sha256: digest, isNew: false)
            }
            let shard = (finalPath as NSString).deletingLastPathComponent
            try FileSystem.makePrivateDirectories(shard)
            guard rename(tempPath, finalPath) == 0 else {
                throw POSIXIOError(operation: "rename", path: tempPath, code: errno)
            }
            try FileSystem.syncDirectory(shard)
            return StoredBlob(name: name, size: size, sha256: digest, isNew: true)
        } catch {
            unlink(tempPath)
            throw error
        }
    }

    /// Stores in-memory bytes (small blobs and tests).
    public func store(bytes: [UInt8]) throws -> StoredBlob {
        var offset = 0
        return try store { buffer in
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
            offset += count
            return count
        }
    }

    /// Decrypts blob `name`, handing authenticated plaintext to `sink` chunk by chunk, and checks at
    /// the end that the content matches the name. Throws `VaultError.integrity` on any failure;
    /// a sink that must not act on partial content writes to a temporary file.
    @discardableResult
    public func read(name: String, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        try read(name: name, at: path(for: name), sink: sink)
    }

    /// `read` of the file at `filePath`, which must hold blob `name`.
    @discardableResult
    private func read(name: String, at filePath: String, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.openForReading(filePath)
        } catch let error as POSIXIOError where error.code == ENOENT {
            throw VaultError.integrity(["blob \(name.prefix(12)) is missing from blobs/"])
        }
        let keys = try requireKeys()
        let nameMAC = try HMACSHA256(key: keys.blobNameKey)
        let size: Int64
        do {
            size = try BlobDecryptor.decrypt(key: keys.blobKey, source: { try file.readFully(into: $0) }) { chunk in
                try nameMAC.update(chunk)
                try sink(chunk)
            }
        } catch let error as BlobStreamError {
            throw VaultError.integrity(["blob \(name.prefix(12)) failed authentication: \(error)"])
        }
        guard try nameMAC.finalize().hex == name else {
            throw VaultError.integrity(["blob \(name.prefix(12)) does not hold the content its name promises"])
        }
        return size
    }

    private func requireKeys() throws -> VaultKeys {
        guard let keys else { throw VaultError.locked(path: (root as NSString).deletingLastPathComponent) }
        return keys
    }

    /// Authenticates a whole blob without keeping its plaintext.
    public func verify(name: String) throws -> Int64 {
        try read(name: name) { _ in }
    }

    /// A new file in the store's temporary directory, for a blob that arrives from elsewhere.
    public func temporaryPath() throws -> String {
        try FileSystem.makePrivateDirectories(temporaryDirectory)
        return "\(temporaryDirectory)/\(try SecureRandom.bytes(12).hex).part"
    }

    /// Takes a blob file that came from another device (sync) into the store once it
    /// authenticates as blob `name` (every chunk, and the content against the name); the file at
    /// `filePath` is gone afterwards either way.
    public func adopt(name: String, from filePath: String) throws {
        defer { unlink(filePath) }
        guard name.count == 64, name.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw VaultError.integrity(["a blob name that is not a blob's"])
        }
        try read(name: name, at: filePath) { _ in }
        let destination = path(for: name)
        try FileSystem.makePrivateDirectories((destination as NSString).deletingLastPathComponent)
        guard rename(filePath, destination) == 0 else { throw POSIXIOError(operation: "rename", path: destination, code: errno) }
        try FileSystem.syncDirectory((destination as NSString).deletingLastPathComponent)
    }

    /// Every blob file name present on disk (not the temporary ones).
    public func namesOnDisk() -> [String] {
        var names: [String] = []
        for shard in FileSystem.contents(of: root) where shard.count == 2 {
            for name in FileSystem.contents(of: "\(root)/\(shard)") where name.count == 64 && name.hasPrefix(shard) {
                names.append(name)
            }
        }
        return names
    }

    /// Registers a stored blob in the database (inside the caller's transaction).
    public func register(_ blob: StoredBlob, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO blob (name, size, sha256, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(name) DO NOTHING
            """, arguments: [blob.name, blob.size, Data(blob.sha256), Timestamp.string(Date())])
    }

    /// The shared lock a writer of blobs holds from before it stores a file until the row that
    /// references it is committed (or the attempt is given up): leftovers are removed only under
    /// the exclusive lock, so a blob being added is never taken for one (`Vault.leftovers`).
    public func writerLock() throws -> FileLock {
        try FileLock(path: root, mode: .shared)
    }
}
