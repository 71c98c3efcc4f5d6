import ArgumentParser
import CPHRSandbox
import Foundation
import Glibc
import PHRModel
import PHRRender

/// `phr-render sandbox`: confines itself exactly as a worker does, then checks from inside what
/// holds and prints it as one JSON object (`SandboxReport`), for `phr status` and `phr check`.
struct SandboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Confine this process as phr's workers are and report what holds (started by phr status)."
    )

    func run() throws {
        closefrom(3)
        let confinement = WorkerSandbox.confine()
        let failure = withUnsafeBytes(of: confinement.namespaceFailure) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        // What a compromised worker would try first, with calls the filter refuses rather than
        // kills: a file of the user's (the system's password file stands for any), a directory
        // listing of /proc, a TCP socket.
        let fileRefused = open("/etc/passwd", O_RDONLY | O_CLOEXEC) < 0
        let procRefused = open("/proc/1/environ", O_RDONLY | O_CLOEXEC) < 0 && open("/proc/self/status", O_RDONLY | O_CLOEXEC) < 0
        let socketRefused = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) < 0
        let report = SandboxReport(
            seccompMode: Int(phr_sandbox_seccomp_mode()), noNewPrivileges: phr_sandbox_no_new_privs() == 1,
            landlockABI: Int(confinement.landlockABI), landlockFiles: confinement.landlockFiles == 1,
            landlockNetwork: confinement.landlockNetwork == 1, landlockScopes: confinement.landlockScopes == 1,
            namespaces: confinement.namespaces == 1, namespaceFailure: failure.isEmpty ? nil : failure,
            userFilesRefused: fileRefused && procRefused, socketsRefused: socketRefused)
        let encoded = try JSONEncoder().encode(report)
        FileHandle.standardOutput.write(encoded + Data("\n".utf8))
    }
}
