import CPHRSystem
import Foundation
import Glibc

/// A file phr writes for the user (an export, a share bundle, a report, a backup), mode 0600,
/// that gets its name only once it is complete: a failed or interrupted write never leaves a
/// partial file under the destination's name, nor a partial copy of it anywhere else.
///
/// The file is written unnamed (O_TMPFILE) in the destination's directory and linked into
/// place at the end, so even SIGKILL or a power cut leaves nothing behind: the kernel frees an
/// unnamed file with its last descriptor. Where the file system cannot make unnamed files (some
/// network and FUSE file systems), it is written under a hidden name (`.NAME.phr-XXXXXXXX.tmp`)
/// that is removed on failure, on SIGINT, SIGTERM and SIGHUP, and, after SIGKILL, by the next
/// phr command (`UnfinishedOutputs`).
///
/// Without `replace`, an existing destination is refused (also one that appears meanwhile:
/// link(2) never replaces); with it, the complete file replaces the destination atomically.
public final class OutputFile {
    public let destination: String
    private let file: FileDescriptor
    private let replace: Bool
    private let exists: (String) -> Error
    /// The temporary's name when the file system cannot make unnamed files.
    private let temporaryName: String?
    private var cleanupSlot: Int32 = -1
    private var marker: UnfinishedOutputs.Marker?
    private var finished = false

    #if DEBUG
    /// Test hook: write named temporaries as on a file system without O_TMPFILE.
    nonisolated(unsafe) static var namedTemporariesOnly = ProcessEnvironment["PHR_TEST_NAMED_TEMPORARIES"] == "1"
    #endif

    /// - Parameter exists: the error for a destination that exists when `replace` is false.
    public init(destination: String, replace: Bool, exists: @escaping (String) -> Error) throws {
        if !replace, FileSystem.exists(destination) { throw exists(destination) }
        let directory = (destination as NSString).deletingLastPathComponent
        let parent = directory.isEmpty ? "." : directory
        self.destination = destination
        self.replace = replace
        self.exists = exists
        _ = phr_cleanup_install()
        var unnamed: Int32 = -1
        #if DEBUG
        let tryUnnamed = !Self.namedTemporariesOnly
        #else
        let tryUnnamed = true
        #endif
        if tryUnnamed {
            unnamed = phr_tmpfile_open(parent, 0o600)
            if unnamed < 0 && ![EOPNOTSUPP, EISDIR, EINVAL, ENOSYS].contains(errno) {
                throw POSIXIOError(operation: "create", path: destination, code: errno)
            }
        }
        if unnamed >= 0 {
            fchmod(unnamed, 0o600)
            file = FileDescriptor(fd: unnamed, path: destination)
            temporaryName = nil
            return
        }
        let name = "\(parent)/\(Self.temporaryName(for: (destination as NSString).lastPathComponent))"
        // The marker is written first: a SIGKILL after the file exists always leaves its marker.
        marker = try? UnfinishedOutputs.remember(name)
        do {
            file = try FileDescriptor.createExclusive(name, mode: 0o600)
        } catch let error as POSIXIOError {
            marker?.forget()
            // The temporary name means nothing to the user; the destination does.
            throw POSIXIOError(operation: "create", path: destination, code: error.code)
        }
        temporaryName = name
        cleanupSlot = phr_cleanup_remember(name)
    }

    deinit { if !finished { abandon() } }

    /// `.NAME.phr-XXXXXXXX.tmp`: hidden, recognisable as phr's own, never a name the user chose.
    static func temporaryName(for name: String) -> String {
        let random = ((try? SecureRandom.bytes(4)) ?? [0, 0, 0, 0]).hex
        return ".\(name).phr-\(random).tmp"
    }

    /// Whether `name` (a last path component) has the shape of `temporaryName(for:)`.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let stem = name.dropLast(4)
        guard let dash = stem.range(of: ".phr-", options: .backwards) else { return false }
        let random = stem[dash.upperBound...]
        return random.count == 8 && random.allSatisfy(\.isHexDigit)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try file.write(bytes)
        } catch let error as POSIXIOError {
            throw POSIXIOError(operation: error.operation, path: destination, code: error.code)
        }
        if !bytes.isEmpty { TestPause.here(.output) }
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Flushes the file to disk and gives it its name.
    public func commit() throws {
        defer { finished = true }
        do {
            try file.sync()
            if let temporaryName {
                try file.close()
                try name(temporaryName)
            } else {
                try nameUnnamed()
                try file.close()
            }
            let directory = (destination as NSString).deletingLastPathComponent
            try FileSystem.syncDirectory(directory.isEmpty ? "." : directory)
        } catch {
            if let temporaryName { unlink(temporaryName) }
            release()
            throw error
        }
        release()
    }

    private func nameUnnamed() throws {
        if !replace {
            guard phr_tmpfile_link(file.fd, destination) == 0 else { throw linkError(errno) }
            return
        }
        // rename(2) needs a name: link under a temporary one first, remembered for signals.
        let directory = (destination as NSString).deletingLastPathComponent
        let name = "\(directory.isEmpty ? "." : directory)/\(Self.temporaryName(for: (destination as NSString).lastPathComponent))"
        let slot = phr_cleanup_remember(name)
        // A named, complete plaintext file exists until the rename: remembered for the next
        // command too, in case a SIGKILL or a power cut falls in between.
        let marker = try? UnfinishedOutputs.remember(name)
        defer {
            phr_cleanup_forget(slot)
            marker?.forget()
        }
        guard phr_tmpfile_link(file.fd, name) == 0 else { throw linkError(errno) }
        guard rename(name, destination) == 0 else {
            let code = errno
            unlink(name)
            throw POSIXIOError(operation: "rename", path: destination, code: code)
        }
    }

    private func name(_ temporary: String) throws {
        if replace {
            guard rename(temporary, destination) == 0 else { throw POSIXIOError(operation: "rename", path: destination, code: errno) }
        } else {
            guard link(temporary, destination) == 0 else { throw linkError(errno) }
            unlink(temporary)
        }
    }

    private func linkError(_ code: Int32) -> Error {
        code == EEXIST ? exists(destination) : POSIXIOError(operation: "create", path: destination, code: code)
    }

    private func release() {
        phr_cleanup_forget(cleanupSlot)
        cleanupSlot = -1
        marker?.forget()
        marker = nil
    }

    /// Removes the unfinished file.
    public func abandon() {
        guard !finished else { return }
        finished = true
        try? file.close()
        if let temporaryName { unlink(temporaryName) }
        release()
    }

    /// Writes `bytes` to `destination` in one go.
    public static func write(_ bytes: [UInt8], to destination: String, replace: Bool,
                             exists: @escaping (String) -> Error) throws {
        let output = try OutputFile(destination: destination, replace: replace, exists: exists)
        do {
            try output.write(bytes)
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
    }
}

/// Named temporaries of `OutputFile`s still being written, so that one left by a killed phr
/// (SIGKILL, a crash, a power cut) is removed by the next phr command.
///
/// Each is remembered by a marker file in `$XDG_STATE_HOME/phr/unfinished/` (else
/// `~/.local/state/phr/unfinished/`) holding the temporary's absolute path, and locked (flock)
/// by the writing process for as long as it writes. A marker whose lock can be taken belongs to
/// a process that is gone: its temporary, if it still has the shape phr gives its temporaries,
/// and the marker are removed. Markers hold a file name, never content.
public enum UnfinishedOutputs {
    static var directory: String? {
        if let state = ProcessEnvironment["XDG_STATE_HOME"], state.hasPrefix("/") { return "\(state)/phr/unfinished" }
        guard let home = ProcessEnvironment["HOME"], home.hasPrefix("/") else { return nil }
        return "\(home)/.local/state/phr/unfinished"
    }

    /// A marker, locked while its output is written.
    final class Marker {
        let path: String
        private let lock: FileLock

        init(path: String, lock: FileLock) {
            self.path = path
            self.lock = lock
        }

        func forget() {
            unlink(path)
            withExtendedLifetime(lock) {}
        }
    }

    static func remember(_ temporary: String) throws -> Marker? {
        guard let directory else { return nil }
        try FileSystem.makePrivateDirectories(directory)
        let absolute = temporary.hasPrefix("/") ? temporary : FileManager.default.currentDirectoryPath + "/" + temporary
        let path = "\(directory)/\(try SecureRandom.bytes(8).hex)"
        // Written and locked under a name the sweep passes over, then renamed: a marker is never
        // seen unlocked (the lock belongs to the inode, which the rename keeps).
        let draft = path + ".new"
        let file = try FileDescriptor.createExclusive(draft, mode: 0o600)
        guard let lock = try FileLock.attempt(path: draft, mode: .exclusive) else {
            unlink(draft)
            return nil
        }
        do {
            try file.write(Array(absolute.utf8))
            try file.close()
            guard rename(draft, path) == 0 else { throw POSIXIOError(operation: "rename", path: draft, code: errno) }
        } catch {
            unlink(draft)
            throw error
        }
        return Marker(path: path, lock: lock)
    }

    /// Removes the temporaries of writers that are gone, and their markers. Returns the paths
    /// removed. Cheap when there are none (one failed opendir).
    @discardableResult
    public static func sweep() -> [String] {
        // Every phr command runs this at start-up: one stat when there is nothing to sweep.
        guard let directory, FileSystem.isDirectory(directory) else { return [] }
        var removed: [String] = []
        for name in FileSystem.contents(of: directory) where name.count == 16 {
            let path = "\(directory)/\(name)"
            guard let lock = try? FileLock.attempt(path: path, mode: .exclusive) else { continue }
            let target = (try? FileDescriptor.openForReading(path).readToEnd(limit: 8192)).map { String(decoding: $0, as: UTF8.self) }
            if let target, target.hasPrefix("/"), OutputFile.isTemporaryName((target as NSString).lastPathComponent) {
                if unlink(target) == 0 { removed.append(target) }
            }
            unlink(path)
            withExtendedLifetime(lock) {}
        }
        return removed
    }
}
