import Foundation
import CPHRSystem
import Glibc

/// Non-interactive passphrase sources, in restic's order of preference: `PHR_PASSPHRASE_FILE`,
/// `PHR_PASSPHRASE_COMMAND`, then `PHR_PASSPHRASE`. Passphrases never come from argv, where any
/// user could read them in /proc.
public enum PassphraseSource {
    /// The passphrase from the environment, or nil if no source is set.
    public static func current(environment: [String: String]) throws -> SecretBytes? {
        if let path = environment["PHR_PASSPHRASE_FILE"], !path.isEmpty {
            return try fromFile(path, variable: "PHR_PASSPHRASE_FILE")
        }
        if let command = environment["PHR_PASSPHRASE_COMMAND"], !command.isEmpty {
            return try fromCommand(command)
        }
        if let value = environment["PHR_PASSPHRASE"], !value.isEmpty {
            return SecretBytes(copying: Array(value.utf8))
        }
        return nil
    }

    /// The new passphrase for `phr passwd` from `PHR_NEW_PASSPHRASE_FILE`, or nil.
    public static func new(environment: [String: String]) throws -> SecretBytes? {
        guard let path = environment["PHR_NEW_PASSPHRASE_FILE"], !path.isEmpty else { return nil }
        return try fromFile(path, variable: "PHR_NEW_PASSPHRASE_FILE")
    }

    /// The first line of a file (without its line ending), like restic's --password-file.
    public static func fromFile(_ path: String, variable: String) throws -> SecretBytes {
        var bytes: [UInt8]
        do {
            bytes = try FileDescriptor.openForReading(path).readToEnd(limit: 64 << 10)
        } catch let error as POSIXIOError {
            throw VaultError.passphraseSource("cannot read \(variable) (\(path)): \(String(cString: strerror(error.code)).lowercased())")
        }
        defer { wipe(&bytes) }
        return try firstLine(of: bytes, source: "\(variable) (\(path))")
    }

    /// Longest output read from PHR_PASSPHRASE_COMMAND, as for a passphrase file.
    public static let commandOutputLimit = 64 << 10

    /// How long PHR_PASSPHRASE_COMMAND may take (README, Passphrases). Debug builds (the test
    /// suite) honour `PHR_TEST_PASSPHRASE_COMMAND_TIMEOUT` (seconds); release builds ignore it.
    public static var commandTimeout: Double {
        #if DEBUG
        if let text = ProcessEnvironment["PHR_TEST_PASSPHRASE_COMMAND_TIMEOUT"], let seconds = Double(text), seconds > 0 {
            return seconds
        }
        #endif
        return 60
    }

    /// Runs `command` with /bin/sh and takes the first line of its standard output.
    ///
    /// The command runs in its own process group, which is killed when phr has what it needs:
    /// after `timeout` seconds, after more than 64 KiB of output, or once the shell has exited
    /// (a background child left holding the pipe must neither hang phr nor outlive it).
    public static func fromCommand(_ command: String, timeout: Double = commandTimeout) throws -> SecretBytes {
        var descriptors: [Int32] = [-1, -1]
        guard phr_pipe_cloexec(&descriptors) == 0 else {
            throw VaultError.passphraseSource("cannot run PHR_PASSPHRASE_COMMAND: \(String(cString: strerror(errno)).lowercased())")
        }
        let readEnd = descriptors[0]
        // Above 2, so the dup2 onto stdout never meets its own source (phr may run with stdout closed).
        let writeEnd = descriptors[1] > 2 ? descriptors[1] : fcntl(descriptors[1], F_DUPFD_CLOEXEC, 10)
        if writeEnd != descriptors[1] { close(descriptors[1]) }
        defer { close(readEnd) }

        // The command gets phr's environment without the passphrase variables (LocalProgram),
        // and phr's stderr, so its prompts and errors reach the user.
        let pid: pid_t
        do {
            pid = try LocalProgram.start("/bin/sh", ["-c", command], stdout: .descriptor(writeEnd), stderr: LocalProgram.inheritedStderr,
                                         ownProcessGroup: true)
            close(writeEnd)
        } catch let error as Sandbox.SpawnError {
            close(writeEnd)
            throw VaultError.passphraseSource("cannot run PHR_PASSPHRASE_COMMAND: \(String(cString: strerror(error.code)).lowercased())")
        }

        var bytes: [UInt8] = []
        // Room for the whole limit up front: growing would leave copies of the secret behind.
        bytes.reserveCapacity(commandOutputLimit + 4096)
        defer { wipe(&bytes) }
        let outcome = collect(from: readEnd, pid: pid, into: &bytes, deadline: monotonicNow() + timeout)
        // Whatever the outcome, nothing the command started stays behind.
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        if case .exited(let code) = outcome { status = code } else {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        switch outcome {
        case .timedOut:
            throw VaultError.passphraseSource("PHR_PASSPHRASE_COMMAND did not finish within \(Int(timeout.rounded(.up))) seconds")
        case .tooLong:
            throw VaultError.passphraseSource("PHR_PASSPHRASE_COMMAND printed more than \(commandOutputLimit >> 10) KiB")
        case .exited(let code):
            guard code == 0 else {
                throw VaultError.passphraseSource("PHR_PASSPHRASE_COMMAND failed with exit status \(code)")
            }
        }
        return try firstLine(of: bytes, source: "PHR_PASSPHRASE_COMMAND")
    }

    private enum CommandOutcome {
        case exited(Int32)
        case timedOut
        case tooLong
    }

    /// Reads the command's output until the shell exits (then takes what is already in the pipe
    /// and stops), the deadline passes, or the output exceeds the limit.
    private static func collect(from descriptor: Int32, pid: pid_t, into bytes: inout [UInt8], deadline: Double) -> CommandOutcome {
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { wipe(&chunk) }
        var open = true
        while true {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                // The shell is gone: drain what is buffered without waiting for writers it left behind.
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                while open {
                    let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    bytes += chunk[0..<n]
                    if bytes.count > commandOutputLimit { return .tooLong }
                }
                let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                return .exited(code)
            }
            let left = deadline - monotonicNow()
            if left <= 0 { return .timedOut }
            if !open {
                // End of file, but the shell has not exited yet: wait for it in short steps.
                usleep(UInt32(min(left, 0.02) * 1_000_000))
                continue
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 0.1) * 1000) + 1)
            if ready < 0 && errno != EINTR { open = false }
            guard ready > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno != EINTR && errno != EAGAIN { open = false }
                continue
            }
            if n == 0 { open = false; continue }
            bytes += chunk[0..<n]
            if bytes.count > commandOutputLimit { return .tooLong }
        }
    }

    private static func monotonicNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }

    static func firstLine(of bytes: [UInt8], source: String) throws -> SecretBytes {
        var end = bytes.firstIndex(of: 0x0a) ?? bytes.count
        if end > 0 && bytes[end - 1] == 0x0d { end -= 1 }
        guard end > 0 else { throw VaultError.passphraseSource("\(source) gave an empty passphrase") }
        return SecretBytes(copying: bytes[0..<end])
    }
}
