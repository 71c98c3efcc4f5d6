import Foundation
import CPHRSystem
import Glibc

/// What confines phr-render's workers on this machine, as a worker found it from inside:
/// `phr-render sandbox` confines itself exactly as every worker does and reports (SECURITY.md,
/// "The workers' sandbox"). `phr status` and `phr check` show it.
public struct SandboxReport: Codable, Sendable, Equatable {
    /// 2 under a seccomp filter (as /proc/PID/status's `Seccomp:` field).
    public var seccompMode: Int
    public var noNewPrivileges: Bool
    /// The kernel's Landlock ABI version, 0 when it has none.
    public var landlockABI: Int
    public var landlockFiles: Bool
    public var landlockNetwork: Bool
    public var landlockScopes: Bool
    /// Without Landlock: the worker runs in its own user, mount, network and IPC namespaces
    /// whose root holds only the system's libraries, fonts and Tesseract's data.
    public var namespaces: Bool
    /// Why those namespaces could not be made, when Landlock is missing and they were not.
    public var namespaceFailure: String?
    /// A file of the user's and /proc could not be opened from inside.
    public var userFilesRefused: Bool
    /// A TCP socket could not be created from inside.
    public var socketsRefused: Bool

    public init(seccompMode: Int, noNewPrivileges: Bool, landlockABI: Int, landlockFiles: Bool, landlockNetwork: Bool,
                landlockScopes: Bool, namespaces: Bool, namespaceFailure: String?, userFilesRefused: Bool, socketsRefused: Bool) {
        self.seccompMode = seccompMode
        self.noNewPrivileges = noNewPrivileges
        self.landlockABI = landlockABI
        self.landlockFiles = landlockFiles
        self.landlockNetwork = landlockNetwork
        self.landlockScopes = landlockScopes
        self.namespaces = namespaces
        self.namespaceFailure = namespaceFailure
        self.userFilesRefused = userFilesRefused
        self.socketsRefused = socketsRefused
    }

    enum CodingKeys: String, CodingKey {
        case seccompMode = "seccomp_mode"
        case noNewPrivileges = "no_new_privileges"
        case landlockABI = "landlock_abi"
        case landlockFiles = "landlock_files"
        case landlockNetwork = "landlock_network"
        case landlockScopes = "landlock_scopes"
        case namespaces
        case namespaceFailure = "namespace_failure"
        case userFilesRefused = "user_files_refused"
        case socketsRefused = "sockets_refused"
    }

    /// Every layer in place: the system-call filter (keys, programs, other processes, network)
    /// and the file restriction.
    public var isComplete: Bool {
        seccompMode == 2 && noNewPrivileges && (landlockFiles || namespaces) && userFilesRefused && socketsRefused
    }

    /// One line for `phr status`.
    public var summary: String {
        var layers: [String] = []
        if seccompMode == 2 { layers.append("system-call filter") }
        if landlockFiles {
            var scope = ["files"]
            if landlockNetwork { scope.append("network") }
            if landlockScopes { scope.append("signals") }
            layers.append("Landlock ABI \(landlockABI) (\(scope.joined(separator: ", ")))")
        }
        if namespaces { layers.append("namespaces (files, network)") }
        if isComplete { return "workers confined: " + layers.joined(separator: ", ") }
        return "workers only partly confined: " + (layers.isEmpty ? "nothing" : layers.joined(separator: ", "))
    }

    /// What is missing, for a warning; nil when nothing is.
    public var weakness: String? {
        if seccompMode != 2 || !noNewPrivileges {
            return "phr-render's workers run without their system-call filter: a hostile file that takes over a reader could reach the unlock key"
        }
        if !(landlockFiles || namespaces) || !userFilesRefused {
            var why = landlockABI == 0 ? "this kernel has no Landlock (Linux 5.13 or later, with landlock in its LSM list)" : "Landlock did not take"
            if let namespaceFailure { why += ", and the fallback namespaces could not be made: \(namespaceFailure)" }
            return "phr-render's workers can read your files: \(why); a hostile file that takes over a reader could read what your user can"
        }
        if !socketsRefused { return "phr-render's workers can open network sockets" }
        return nil
    }

    /// Starts `phr-render sandbox` and reads its report; throws a reason when it cannot.
    public static func probe(executable: String = RenderHelper.path, timeout: Double = 10) throws -> SandboxReport {
        var ends: [Int32] = [0, 0]
        guard phr_pipe_cloexec(&ends) == 0 else { throw ProbeFailure(reason: "no pipe (errno \(errno))") }
        let pid: pid_t
        do {
            pid = try Sandbox.spawn(executable: executable, arguments: ["sandbox"], environment: Sandbox.workerEnvironment(),
                                    descriptors: [0: .devNull(flags: O_RDONLY), 1: .descriptor(ends[1]), 2: .devNull(flags: O_WRONLY)])
        } catch let error as Sandbox.SpawnError {
            close(ends[0])
            close(ends[1])
            throw ProbeFailure(reason: "\(RenderHelper.name) cannot be started (\(String(cString: strerror(error.code))))")
        }
        close(ends[1])
        defer { close(ends[0]) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Monotonic.now() + timeout
        while output.count < 1 << 16 {
            var poller = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, (deadline - Monotonic.now()) * 1000))
            let ready = poll(&poller, 1, left)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(ends[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        var status: Int32 = 0
        if Monotonic.now() >= deadline { kill(pid, SIGKILL) }
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let how = WorkerTermination.how(status: status, cpuSeconds: 0) {
            throw ProbeFailure(reason: "the sandbox check \(how)")
        }
        guard let report = try? JSONDecoder().decode(SandboxReport.self, from: Data(output)) else {
            throw ProbeFailure(reason: "the sandbox check gave no report")
        }
        return report
    }

    public struct ProbeFailure: Error, Equatable {
        public let reason: String
    }
}
