import Foundation
import Glibc

import Foundation
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
}
