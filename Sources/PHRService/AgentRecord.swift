import Foundation
import Glibc
import PHRCore

/// Where a running `phr serve` agent says it is, so `phr lock` (and later the CLI's reads) can
/// find it: a 0600 file per vault in phr's runtime directory, which only the user can enter.
public struct AgentRecord: Codable, Sendable, Equatable {
    public var pid: Int32
    public var vaultID: String
    /// The browser side's base address (no token).
    public var url: String
    /// The Unix socket on which it answers the CLI's read commands.
    public var socket: String?
    public var started: String
    /// The process's start time in clock ticks since boot (/proc/PID/stat, field 22): with the
    /// pid, names this process and no later one that reuses the number.
    public var startTicks: UInt64?

    enum CodingKeys: String, CodingKey {
        case pid
        case vaultID = "vault_id"
        case url, socket, started
        case startTicks = "start_ticks"
    }

    public init(pid: Int32, vaultID: String, url: String, socket: String?, started: String) {
        self.pid = pid
        self.vaultID = vaultID
        self.url = url
        self.socket = socket
        self.started = started
        startTicks = Self.startTicks(of: pid)
    }

    /// Field 22 of /proc/PID/stat (after the parenthesised command name, which may hold spaces).
    static func startTicks(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // The fields after the name start at field 3 (state); field 22 is the 20th of them.
        guard fields.count >= 20 else { return nil }
        return UInt64(fields[19])
    }

    static func path(vaultID: String) throws -> String {
        try RuntimeDirectory.path() + "/agent-\(vaultID.filter { $0.isLetter || $0.isNumber || $0 == "-" }).json"
    }

    /// The vault's agent lock, held for as long as an agent runs: nil when another process holds
    /// it (two `phr serve` started at once cannot both become the vault's agent).
    public static func claim(vaultID: String) throws -> FileLock? {
        let path = try RuntimeDirectory.path() + "/agent-\(vaultID.filter { $0.isLetter || $0.isNumber || $0 == "-" }).lock"
        let fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io("cannot create \(path): \(String(cString: strerror(errno)))") }
        close(fd)
        return try FileLock.attempt(path: path, mode: .exclusive)
    }

    /// Records this agent; replaces a record of one that is gone.
    public func write() throws {
        let path = try Self.path(vaultID: vaultID)
        try RuntimeDirectory.writePrivate(Array(try JSONEncoder().encode(self)), to: path)
    }

    /// Removes this agent's record if it is still its own.
    public func remove() {
        guard let path = try? Self.path(vaultID: vaultID), let current = Self.read(path), current.pid == pid else { return }
        unlink(path)
    }

    /// The running agent of the vault, if any: a record whose process is alive and is phr.
    public static func running(vaultID: String) -> AgentRecord? {
        guard let path = try? path(vaultID: vaultID), let record = read(path) else { return nil }
        guard record.pid > 0, kill(record.pid, 0) == 0, isPHR(record.pid),
              record.startTicks == nil || record.startTicks == startTicks(of: record.pid) else {
            unlink(path)
            if let socket = record.socket, socket.hasPrefix((try? RuntimeDirectory.path()) ?? "/nonexistent") { unlink(socket) }
            return nil
        }
        return record
    }

    /// Ends the vault's agent (it wipes its keys as it goes); waits up to `seconds` for it to exit.
    /// False when none was running.
    @discardableResult
    public static func stop(vaultID: String, seconds: Double = 5) -> Bool {
        guard let record = running(vaultID: vaultID) else { return false }
        kill(record.pid, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, kill(record.pid, 0) == 0 { usleep(20_000) }
        if kill(record.pid, 0) == 0 { kill(record.pid, SIGKILL) }
        if let path = try? path(vaultID: vaultID) { unlink(path) }
        return true
    }

    private static func read(_ path: String) -> AgentRecord? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(AgentRecord.self, from: data)
    }

    /// Whether `pid` runs the same program as this process (a reused pid is left alone).
    private static func isPHR(_ pid: Int32) -> Bool {
        func target(_ link: String) -> String? {
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink(link, &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        // A program replaced on disk while it runs (an upgrade, a rebuild) reads "PATH (deleted)".
        func name(_ link: String) -> String? {
            target(link).map { $0.hasSuffix(" (deleted)") ? String($0.dropLast(" (deleted)".count)) : $0 }
        }
        guard let theirs = name("/proc/\(pid)/exe"), let ours = name("/proc/self/exe") else { return false }
        return theirs == ours || (theirs as NSString).lastPathComponent == "phr"
    }
}

/// phr's directory for what lives as long as the login: `$XDG_RUNTIME_DIR/phr`, else
/// `/tmp/phr-UID`; created 0700, and refused unless it is a real directory the user owns that
/// no one else may enter.
public enum RuntimeDirectory {
    public static func path(environment: [String: String] = ProcessEnvironment.variables) throws -> String {
        let base: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), isPrivateDirectory(runtime, mustBePrivate: false) {
            base = runtime + "/phr"
        } else {
            base = "/tmp/phr-\(getuid())"
        }
        if mkdir(base, 0o700) != 0 && errno != EEXIST {
            throw VaultError.io("cannot create \(base): \(String(cString: strerror(errno)))")
        }
        guard isPrivateDirectory(base, mustBePrivate: true) else {
            throw VaultError.io("\(base) is not a private directory of this user (mode 0700, owned by uid \(getuid()))")
        }
        return base
    }

    static func isPrivateDirectory(_ path: String, mustBePrivate: Bool) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else { return false }
        return !mustBePrivate || info.st_mode & 0o077 == 0
    }

    /// Writes `bytes` to a new 0600 file at `path` (replacing one there), never following a link.
    public static func writePrivate(_ bytes: [UInt8], to path: String) throws {
        try FileDescriptor.replacePrivately(bytes, at: path)
    }
}
