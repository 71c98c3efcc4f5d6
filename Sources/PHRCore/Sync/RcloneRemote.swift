import Foundation
import Glibc

/// Any rclone remote (`rclone:NAME:path`): S3 and S3-compatible stores, WebDAV and Nextcloud,
/// SFTP, Backblaze B2 and the rest of rclone's backends, driven as restic drives it: one rclone
/// process per operation, with rclone's own configuration (`rclone config`, or RCLONE_CONFIG)
/// holding the credentials. phr stores none and passes none on a command line; rclone gets phr's
/// environment without any passphrase variable (LocalProgram).
///
/// Write-once on storage that cannot refuse an existing name: a name is checked before it is
/// written, and only this device ever writes its own logs (inside the vault's write
/// transaction, so two syncs of one device cannot race); blobs are content-named, so two devices
/// writing one name write the same document.
public struct RcloneRemote: SyncRemote {
    /// The rclone spelling of the root, `NAME:path`.
    public let root: String
    public var description: String { "rclone:" + root }
    /// The rclone executable (found on PATH).
    let executable: String

    /// Exit statuses of rclone (rclone docs, "Exit Code"): 3 directory not found, 4 file not found.
    static let notFound: Set<Int32> = [3, 4]

    public init(target: String) throws {
        let spec = String(target.dropFirst("rclone:".count))
        guard let colon = spec.firstIndex(of: ":"), colon != spec.startIndex else {
            throw SyncError.badTarget(target, reason: "an rclone remote is rclone:NAME:PATH (a remote 'rclone config' made)")
        }
        guard let executable = DesktopServices.find("rclone") else {
            throw SyncError.badTarget(target, reason: "rclone is not installed (apt install rclone)")
        }
        root = spec.hasSuffix("/") ? String(spec.dropLast()) : spec
        self.executable = executable
    }

    private func path(_ relative: String) -> String {
        root.hasSuffix(":") ? root + relative : root + "/" + relative
    }

    /// Runs rclone; its output when asked, its exit status, and what it said on stderr.
    private func rclone(_ arguments: [String], capture: Bool = false, limit: Int = 1 << 20) throws -> (status: Int32, output: [UInt8], said: String) {
        let log = NSTemporaryDirectory() + "phr-rclone-\(try SecureRandom.bytes(8).hex).log"
        let fd = open(log, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SyncError.remote(POSIXIOError(operation: "create", path: log, code: errno).localizedDescription) }
        defer {
            close(fd)
            unlink(log)
        }
        let common = ["--contimeout", "15s", "--timeout", "60s", "--retries", "2", "--low-level-retries", "3", "--use-mmap=false"]
        let result: LocalProgram.Result
        do {
            result = try LocalProgram.run(executable, arguments + common, captureOutput: capture, outputLimit: limit, stderr: .descriptor(fd))
        } catch {
            throw SyncError.remote("rclone could not be started: \(error.localizedDescription)")
        }
        let said = (try? FileDescriptor.openForReading(log).readToEnd(limit: 64 << 10)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard let status = result.exitStatus else { throw SyncError.remote("rclone ended by signal \(result.signal ?? 0)") }
        return (status, result.output, said)
    }

    private func failure(_ operation: String, _ said: String) -> SyncError {
        let line = said.split(separator: "\n").last(where: { $0.contains("ERROR") || $0.contains("Failed") }) ?? said.split(separator: "\n").last ?? ""
        return SyncError.remote("rclone \(operation) on \(description): \(line.trimmingCharacters(in: .whitespaces))")
    }

    public func list(_ directory: String) throws -> [String] {
        let (status, output, said) = try rclone(["lsf", "--files-only", "--max-depth", "1", path(directory)], capture: true, limit: 64 << 20)
        if Self.notFound.contains(status) { return [] }
        guard status == 0 else { throw failure("lsf", said) }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasSuffix("/") }
            + (try directories(directory))
    }

    /// The folders in `directory` (logs/ holds one per device).
    private func directories(_ directory: String) throws -> [String] {
        let (status, output, said) = try rclone(["lsf", "--dirs-only", "--max-depth", "1", path(directory)], capture: true, limit: 16 << 20)
        if Self.notFound.contains(status) { return [] }
        guard status == 0 else { throw failure("lsf", said) }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map { $0.hasSuffix("/") ? String($0.dropLast()) : String($0) }
            .filter { !$0.isEmpty }
    }

    public func read(_ relative: String, limit: Int) throws -> [UInt8]? {
        guard try exists(relative) else { return nil }
        let (status, output, said) = try rclone(["cat", path(relative)], capture: true, limit: limit + 1)
        if Self.notFound.contains(status) { return nil }
        guard status == 0 else { throw failure("cat", said) }
        guard output.count <= limit else { throw SyncError.remote("\(relative) on \(description) is larger than any object phr writes") }
        return output
    }

    private func exists(_ relative: String) throws -> Bool {
        let (status, output, said) = try rclone(["lsf", "--files-only", path(relative)], capture: true)
        if Self.notFound.contains(status) { return false }
        guard status == 0 else { throw failure("lsf", said) }
        return !output.isEmpty
    }

    public func create(_ relative: String, bytes: [UInt8]) throws -> Bool {
        if try exists(relative) { return false }
        // The bytes are already encrypted (a change log, the remote's marker).
        let temporary = NSTemporaryDirectory() + "phr-sync-\(try SecureRandom.bytes(8).hex).out"
        let file = try FileDescriptor.createExclusive(temporary)
        defer { unlink(temporary) }
        try file.write(bytes)
        try file.close()
        return try create(relative, copying: temporary, checked: true)
    }

    public func create(_ relative: String, copying source: String) throws -> Bool {
        try create(relative, copying: source, checked: false)
    }

    private func create(_ relative: String, copying source: String, checked: Bool) throws -> Bool {
        if !checked, try exists(relative) { return false }
        let (status, _, said) = try rclone(["copyto", source, path(relative)])
        guard status == 0 else { throw failure("copyto", said) }
        return true
    }

    public func fetch(_ relative: String, to destination: String) throws {
        let (status, _, said) = try rclone(["copyto", path(relative), destination])
        guard status == 0 else { throw failure("copyto", said) }
        chmod(destination, 0o600)
    }

    public func blobNames() throws -> Set<String> {
        let (status, output, said) = try rclone(["lsf", "-R", "--files-only", path("blobs")], capture: true, limit: 256 << 20)
        if Self.notFound.contains(status) { return [] }
        guard status == 0 else { throw failure("lsf", said) }
        return Set(String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            let name = line.split(separator: "/").last.map(String.init) ?? ""
            return Self.isBlobName(name) ? name : nil
        })
    }

    /// One rclone process for every blob (its parallel transfers, as `rclone copy` would).
    public func upload(blobs names: [String], from root: String, progress: (Int) -> Void) throws -> Int {
        guard !names.isEmpty else { return 0 }
        let list = NSTemporaryDirectory() + "phr-sync-\(try SecureRandom.bytes(8).hex).list"
        let file = try FileDescriptor.createExclusive(list)
        defer { unlink(list) }
        try file.write(Array(names.map { "\($0.prefix(2))/\($0)\n" }.joined().utf8))
        try file.close()
        progress(0)
        let (status, _, said) = try rclone(["copy", root, path("blobs"), "--files-from-raw", list, "--no-traverse", "--ignore-existing"])
        guard status == 0 else { throw failure("copy", said) }
        progress(names.count)
        return names.count
    }
}
