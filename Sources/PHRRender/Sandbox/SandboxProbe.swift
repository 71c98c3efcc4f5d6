#if DEBUG
import CPHRSandbox
import Glibc
import PHRModel

/// Test-only: what a compromised worker would try, run from inside the confined worker, so the
/// tests can show that each attempt is refused (SECURITY.md, "The workers' sandbox").
///
/// Debug builds only; release builds contain neither this type nor its environment lookups.
///
/// - `PHR_TEST_SANDBOX_SYSCALL=keyctl|execve|ptrace|process_vm_readv` makes that call right
///   after confinement, in every kind of worker; the filter kills the worker (SIGSYS).
/// - `PHR_TEST_EXTRACT_PROBE=MARKER|ACTION|ARGUMENT` makes the extraction worker attempt
///   ACTION on the first page whose text contains MARKER and put what happened into that page's
///   text instead of the page: "sandbox probe ACTION: refused (errno text)", or "...: got" and
///   what it obtained, so a test sees a leak as text. Actions: `keyring` (ARGUMENT: a key
///   description in the user keyring), `read` (a path), `write` (a path to create), `connect` (a
///   loopback TCP port), `exec` (a program), `ptrace` (the parent), `signal` (SIGTERM to the
///   parent), `status` (the worker's seccomp mode, no-new-privileges flag and pid).
enum SandboxProbe {
    static let syscallVariable = "PHR_TEST_SANDBOX_SYSCALL"
    static let extractVariable = "PHR_TEST_EXTRACT_PROBE"

    /// The forbidden call `PHR_TEST_SANDBOX_SYSCALL` names, made at once.
    static func runIfRequested() {
        guard let value = getenv(syscallVariable).map({ String(cString: $0) }), !value.isEmpty else { return }
        switch value {
        case "keyctl":
            _ = phr_sandbox_try_keyring_search("phr:probe")
        case "execve":
            _ = execv("/bin/sh", [strdup("sh"), nil])
        case "ptrace":
            _ = phr_sandbox_try_ptrace_parent()
        case "process_vm_readv":
            _ = phr_sandbox_try_read_parent_memory()
        default:
            break
        }
    }

    /// The `PHR_TEST_EXTRACT_PROBE` setting: the marker, the action and its argument.
    struct PageProbe {
        let marker: String
        let action: String
        let argument: String

        init?() {
            guard let value = getenv(SandboxProbe.extractVariable).map({ String(cString: $0) }) else { return nil }
            let parts = value.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, !parts[0].isEmpty else { return nil }
            (marker, action, argument) = (parts[0], parts[1], parts[2])
        }

        /// The probe's report for a page whose text holds the marker, else nil.
        func report(forPageText text: String) -> String? {
            guard text.contains(marker) else { return nil }
            return "sandbox probe \(action): " + attempt()
        }

        private func refused() -> String {
            "refused (\(String(cString: strerror(errno))))"
        }

        private func attempt() -> String {
            switch action {
            case "keyring":
                let serial = phr_sandbox_try_keyring_search(argument)
                guard serial >= 0 else { return refused() }
                var buffer = [UInt8](repeating: 0, count: 512)
                let count = phr_sandbox_try_keyring_read(serial, &buffer, buffer.count)
                guard count >= 0 else { return refused() }
                return "got " + buffer.prefix(min(count, buffer.count)).map { String(format: "%02x", $0) }.joined()
            case "read":
                let fd = open(argument, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { return refused() }
                defer { close(fd) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(fd, &buffer, buffer.count)
                guard count >= 0 else { return refused() }
                return "got " + String(decoding: buffer.prefix(count), as: UTF8.self)
            case "write":
                let fd = open(argument, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
                guard fd >= 0 else { return refused() }
                _ = write(fd, "written by a worker", 19)
                close(fd)
                return "got a file written"
            case "connect":
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                guard fd >= 0 else { return refused() }
                defer { close(fd) }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(argument) ?? 0).bigEndian
                address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard connected == 0 else { return refused() }
                _ = write(fd, "leaked by a worker", 18)
                return "got a connection"
            case "exec":
                _ = execv(argument, [strdup(argument), nil])
                return refused()
            case "ptrace":
                guard phr_sandbox_try_ptrace_parent() == 0 else { return refused() }
                return "got the parent attached"
            case "signal":
                guard kill(getppid(), SIGTERM) == 0 else { return refused() }
                return "got the parent signalled"
            case "status":
                return "seccomp \(phr_sandbox_seccomp_mode()), no_new_privs \(phr_sandbox_no_new_privs()), pid \(getpid())"
            default:
                return "unknown action"
            }
        }
    }
}
#endif
