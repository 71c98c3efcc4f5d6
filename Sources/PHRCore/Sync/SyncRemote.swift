import CPHRSystem
import Foundation
import Glibc

/// Storage a vault syncs through. phr only ever adds files, each written once under a name no
/// other device writes (its blobs by content, its change logs under its own device id), so a file
/// syncer, a USB disk or an object store never has two versions of one name to reconcile.
///
/// Layout under the remote's root:
/// - `phr-sync.json`: which vault this is (a keyed hash of the sync key, never the vault's ID);
/// - `blobs/NAME`: a document's encrypted file, as it is in the vault;
/// - `logs/DEVICE/SEQUENCE.log`: one device's change logs, numbered from 1.
public protocol SyncRemote: Sendable {
    /// How the user named it (`/media/usb/phr`).
    var description: String { get }
    /// The file names in `directory` (relative to the root), empty when it does not exist.
    func list(_ directory: String) throws -> [String]
    /// The whole file at `path`; nil when there is none.
    func read(_ path: String, limit: Int) throws -> [UInt8]?
    /// Creates `path` with `bytes` unless it exists; true when this call created it.
    func create(_ path: String, bytes: [UInt8]) throws -> Bool
    /// Copies the local file `source` to `path` unless it exists; true when this call created it.
    func create(_ path: String, copying source: String) throws -> Bool
    /// Copies `path` into a new local file `destination` (mode 0600).
    func fetch(_ path: String, to destination: String) throws
    /// The names of the blobs the remote holds.
    func blobNames() throws -> Set<String>
    /// Uploads the blobs `names` from a vault's blob directory `root` (laid out as the remote's:
    /// `ab/abcdef...`); returns how many it sent. `progress` hears how many are done.
    func upload(blobs names: [String], from root: String, progress: (Int) -> Void) throws -> Int
}

extension SyncRemote {
    /// Where blob `name` lives on a remote: sharded by its first two characters, as in the vault.
    public static func blobPath(_ name: String) -> String { "blobs/\(name.prefix(2))/\(name)" }

    /// Whether `name` is shaped like a blob's name (64 lowercase hex digits).
    static func isBlobName(_ name: String) -> Bool {
        name.count == 64 && name.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}

/// A folder: a USB disk, a network mount, or a folder Syncthing or Nextcloud distributes. A new
/// file is written under a temporary name file syncers ignore (`.syncthing.*.tmp`), flushed, and
/// then linked to its name, which fails if the name exists: a file appears whole or not at all.
public struct FolderRemote: SyncRemote {
    public let root: String
    public var description: String { root }

    public init(root: String) {
        self.root = root
    }

    public func list(_ directory: String) throws -> [String] {
        let path = root + "/" + directory
        guard FileSystem.isDirectory(path) else { return [] }
        return FileSystem.contents(of: path).filter { !$0.hasPrefix(".") }
    }

    /// Opens a file of the remote for reading: never through a symbolic link, never a FIFO or a
    /// device (a hostile folder could hold either); nil when there is none.
    private func openRegular(_ full: String) throws -> FileDescriptor? {
        let fd = Glibc.open(full, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw SyncError.remote(POSIXIOError(operation: "open", path: full, code: errno).localizedDescription)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(fd)
            throw SyncError.remote("\(full) is not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return FileDescriptor(fd: fd, path: full)
    }

    public func read(_ path: String, limit: Int) throws -> [UInt8]? {
        let full = root + "/" + path
        guard let file = try openRegular(full) else { return nil }
        do {
            return try file.readToEnd(limit: limit)
        } catch let error as POSIXIOError {
            throw SyncError.remote(error.localizedDescription)
        }
    }

    public func create(_ path: String, bytes: [UInt8]) throws -> Bool {
        try place(path) { file in try file.write(bytes) }
    }

    public func create(_ path: String, copying source: String) throws -> Bool {
        try place(path) { file in
            let input = try FileDescriptor.openForReading(source)
            // In the kernel where it can (copy_file_range), else through a buffer.
            while true {
                let copied = phr_copy_file_range(input.fd, file.fd, 8 << 20)
                if copied > 0 { continue }
                if copied == 0 { break }
                if errno == EINTR { continue }
                guard errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL else {
                    throw POSIXIOError(operation: "copy", path: source, code: errno)
                }
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                while true {
                    let count = try buffer.withUnsafeMutableBytes { try input.readFully(into: $0) }
                    if count == 0 { break }
                    try buffer.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                    if count < buffer.count { break }
                }
                break
            }
            try input.close()
        }
    }

    public func blobNames() throws -> Set<String> {
        var names = Set<String>()
        for shard in try list("blobs") where shard.count == 2 {
            for name in try list("blobs/\(shard)") where Self.isBlobName(name) && name.hasPrefix(shard) { names.insert(name) }
        }
        return names
    }

    /// Four files at a time (as `rclone copy` transfers four), each copied by the kernel.
    public func upload(blobs names: [String], from root: String, progress: (Int) -> Void) throws -> Int {
        let lock = NSLock()
        nonisolated(unsafe) var sent = 0
        nonisolated(unsafe) var failure: Error?
        let batch = 4
        for start in stride(from: 0, to: names.count, by: batch * 8) {
            progress(start)
            let slice = Array(names[start..<min(start + batch * 8, names.count)])
            DispatchQueue.concurrentPerform(iterations: min(batch, slice.count)) { worker in
                for index in stride(from: worker, to: slice.count, by: batch) {
                    let name = slice[index]
                    do {
                        let created = try create(Self.blobPath(name), copying: "\(root)/\(name.prefix(2))/\(name)")
                        lock.lock()
                        if created { sent += 1 }
                        lock.unlock()
                    } catch {
                        lock.lock()
                        failure = failure ?? error
                        lock.unlock()
                    }
                }
            }
            if let failure { throw failure }
        }
        return sent
    }

    public func fetch(_ path: String, to destination: String) throws {
        let source = root + "/" + path
        do {
            guard let input = try openRegular(source) else { throw SyncError.remote("\(source) has not arrived") }
            let output = try FileDescriptor.createExclusive(destination)
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = try buffer.withUnsafeMutableBytes { try input.readFully(into: $0) }
                if count == 0 { break }
                try buffer.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                if count < buffer.count { break }
            }
            try output.sync()
            try output.close()
        } catch let error as POSIXIOError {
            throw SyncError.remote(error.localizedDescription)
        }
    }

    /// Writes a new file through a temporary name and links it into place.
    private func place(_ path: String, write: (FileDescriptor) throws -> Void) throws -> Bool {
        let full = root + "/" + path
        let directory = (full as NSString).deletingLastPathComponent
        do {
            try FileSystem.makeDirectories(directory)
            if access(full, F_OK) == 0 { return false }
            let temporary = directory + "/.syncthing.phr-\(try SecureRandom.bytes(8).hex).tmp"
            let file = try FileDescriptor.createExclusive(temporary, mode: 0o644)
            defer { unlink(temporary) }
            try write(file)
            try file.sync()
            try file.close()
            if link(temporary, full) != 0 {
                if errno == EEXIST { return false }
                throw POSIXIOError(operation: "link", path: full, code: errno)
            }
            try FileSystem.syncDirectory(directory)
            return true
        } catch let error as POSIXIOError {
            throw SyncError.remote(error.localizedDescription)
        }
    }
}

extension FileSystem {
    /// Creates `path` and its missing parents (mode 0755: a shared folder's own permissions
    /// decide who reads it; everything phr puts there is encrypted).
    static func makeDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw POSIXIOError(operation: "create directory", path: path, code: errno)
        }
    }
}
