import Foundation
import Glibc

import Foundation
import Glibc

/// A POSIX file descriptor with the few operations phr needs, throwing `POSIXIOError`.
///
/// phr uses raw descriptors rather than FileHandle to control creation modes (0600, O_EXCL,
/// O_NOFOLLOW), to fsync files and directories, and to read in fixed-size chunks without buffering
/// whole files in memory.
public final class FileDescriptor {
    public let fd: Int32
    public let path: String
    private var closed = false

    public init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Opens an existing file for reading.
    public static func openForReading(_ path: String) throws -> FileDescriptor {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXIOError(operation: "open", path: path, code: errno) }
        return FileDescriptor(fd: fd, path: path)
    }

    /// Creates a new file (failing if it exists) with the given mode, for writing.
    public static func createExclusive(_ path: String, mode: mode_t = 0o600) throws -> FileDescriptor {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw POSIXIOError(operation: "create", path: path, code: errno) }
        // The umask may have removed bits; make the mode exact.
        fchmod(fd, mode)
        return FileDescriptor(fd: fd, path: path)
    }

    /// Replaces the file at `path` with `bytes` at once: written to a new 0600 file beside it
    /// (never following a link), then renamed over it, so a reader sees the old file or the new.
    public static func replacePrivately(_ bytes: [UInt8], at path: String) throws {
        let temporary = path + ".\(getpid()).tmp"
        unlink(temporary)
        let file = try createExclusive(temporary)
        do {
            try file.write(bytes)
            try file.close()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw POSIXIOError(operation: "rename", path: path, code: code)
        }
    }

    deinit { if !closed { Glibc.close(fd) } }

    public func close() throws {
        guard !closed else { return }
        closed = true
        if Glibc.close(fd) != 0 { throw POSIXIOError(operation: "close", path: path, code: errno) }
    }

    /// Reads up to `buffer.count` bytes, retrying until full or end of file. Returns the count read.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var total = 0
        while total < buffer.count {
            let n = Glibc.read(fd, buffer.baseAddress! + total, buffer.count - total)
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIXIOError(operation: "read", path: path, code: errno)
            }
            if n == 0 { break }
            total += n
        }
        return total
    }

    /// Reads up to `count` bytes (fewer only at end of file).
    public func read(upTo count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let n = try out.withUnsafeMutableBytes { try readFully(into: $0) }
        out.removeLast(count - n)
        return out
    }

    /// Reads the rest of the file. Only for small files (key files, manifests).
    public func readToEnd(limit: Int = 16 << 20) throws -> [UInt8] {
        var out = [UInt8]()
        while true {
            let chunk = try read(upTo: 64 << 10)
            out += chunk
            if out.count > limit { throw POSIXIOError(operation: "read", path: path, code: EFBIG) }
            if chunk.count < 64 << 10 { return out }
        }
    }

    public func write(_ buffer: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < buffer.count {
            let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIXIOError(operation: "write", path: path, code: errno)
            }
            done += n
        }
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    public func sync() throws {
        if fsync(fd) != 0 { throw POSIXIOError(operation: "fsync", path: path, code: errno) }
    }

    public func size() throws -> Int64 {
        var info = stat()
        if fstat(fd, &info) != 0 { throw POSIXIOError(operation: "stat", path: path, code: errno) }
        return Int64(info.st_size)
    }
}

/// An I/O failure, naming the operation and the file.
public struct POSIXIOError: Error, LocalizedError, Equatable {
    public let operation: String
    public let path: String
    public let code: Int32

    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    public var errorDescription: String? {
        "cannot \(operation) \(path): \(String(cString: strerror(code)).lowercased())"
    }
}
