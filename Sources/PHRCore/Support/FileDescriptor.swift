import Foundation
import Glibc

extension FileDescriptor {
    /// Opens a file the user named as input (an export to import, a calendar) without ever
    /// blocking: a FIFO, socket or device would hang open(2) or read(2) until someone writes to
    /// it, so only a regular file, or with `allowDirectory` a folder, is taken; anything else
    /// throws `InputFileError.notAFile` naming what it is (the rule `phr doc add` follows).
    public static func openInput(_ path: String, allowDirectory: Bool = false) throws -> FileDescriptor {
        try openInput(InputPath(path), allowDirectory: allowDirectory)
    }

    /// `openInput` of a path as the bytes the file system knows it by (a name that is not
    /// UTF-8 opens too); messages name it by `InputPath.display`.
    public static func openInput(_ input: InputPath, allowDirectory: Bool = false) throws -> FileDescriptor {
        let path = input.display
        let fd = input.open(O_RDONLY | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw POSIXIOError(operation: "open", path: path, code: errno) }
        let file = FileDescriptor(fd: fd, path: path)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw POSIXIOError(operation: "read", path: path, code: errno) }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || (allowDirectory && type == S_IFDIR) else {
            throw InputFileError.notAFile(path: path, what: DocumentImporter.describe(mode: info.st_mode))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return file
    }
}

/// File-system helpers with the durability rules of the vault format: write a temporary file,
/// fsync it, rename it over the target, fsync the directory.
public enum FileSystem {
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    public static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    public static func syncDirectory(_ path: String) throws {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXIOError(operation: "open", path: path, code: errno) }
        defer { Glibc.close(fd) }
        if fsync(fd) != 0 { throw POSIXIOError(operation: "fsync", path: path, code: errno) }
    }

    /// Creates a directory with mode 0700 (exactly), failing if it exists.
    public static func makePrivateDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0 { throw POSIXIOError(operation: "create directory", path: path, code: errno) }
        chmod(path, 0o700)
    }

    /// Creates `path` and missing parents with mode 0700; existing directories are left as they are.
    public static func makePrivateDirectories(_ path: String) throws {
        if isDirectory(path) { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path { try makePrivateDirectories(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw POSIXIOError(operation: "create directory", path: path, code: errno)
        }
    }

    /// Atomically replaces `path` with `bytes` (mode 0600): temp file, fsync, rename, fsync dir.
    public static func atomicWrite(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temp = "\(path).tmp-\(try SecureRandom.bytes(6).hex)"
        do {
            let file = try FileDescriptor.createExclusive(temp, mode: mode)
            try file.write(bytes)
            try file.sync()
            try file.close()
            if rename(temp, path) != 0 { throw POSIXIOError(operation: "rename", path: temp, code: errno) }
        } catch {
            unlink(temp)
            throw error
        }
        try syncDirectory(directory.isEmpty ? "." : directory)
    }

    /// Removes a directory tree (used for temporary restore and init directories only).
    public static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Entries of a directory, without "." and "..".
    public static func contents(of path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? []
    }
}

/// An advisory `flock(2)` on a file or directory, released on `unlock` or deinit.
public final class FileLock {
    private var fd: Int32

    public enum Mode { case shared, exclusive }

    /// Blocks until the lock is granted.
    public init(path: String, mode: Mode) throws {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXIOError(operation: "open", path: path, code: errno) }
        while flock(descriptor, mode == .shared ? LOCK_SH : LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            Glibc.close(descriptor)
            throw POSIXIOError(operation: "lock", path: path, code: code)
        }
        fd = descriptor
    }

    private init(descriptor: Int32) { fd = descriptor }

    /// The lock if it can be had at once, nil if another open file holds a conflicting one.
    /// (flock locks belong to open files: a second open in the same process conflicts too.)
    public static func attempt(path: String, mode: Mode) throws -> FileLock? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXIOError(operation: "open", path: path, code: errno) }
        while flock(descriptor, (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            Glibc.close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw POSIXIOError(operation: "lock", path: path, code: code)
        }
        return FileLock(descriptor: descriptor)
    }

    /// Releases the lock now rather than when the object goes.
    public func release() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    deinit { release() }
}

/// A path given as input that names no regular file.
public enum InputFileError: PHRError, Equatable {
    case notAFile(path: String, what: String)

    public var exitStatus: ExitStatus { .noInput }
    public var message: Message {
        switch self {
        case let .notAFile(path, what): return "\(path): not a regular file (\(what))"
        }
    }
    public var hint: Message? { "give the path of a file; to read from a pipe, save it to a file first" }
}
