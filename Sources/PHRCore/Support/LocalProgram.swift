import Foundation
import CPHRSystem
import Glibc

/// The one way phr starts a program of the user's system outside the vault: the passphrase
/// command, a reminder channel's command and sendmail, notify-send, gdbus, the dose-action
/// shell and systemctl. Each gets phr's environment (the session bus, the display, PATH) with
/// every passphrase variable and passphrase source removed
/// (`ProcessEnvironment.withoutPassphrases`), whatever the caller passes; the spawn itself is
/// `Sandbox.spawn`'s (no signal blocked, every signal at its default, only the descriptors
/// named). The parsing workers are started by `Sandbox.spawn` directly, with an environment of
/// their own.
public enum LocalProgram {
    /// The environment a program gets: `environment` and `extra`, without any passphrase.
    public static func environment(_ environment: [String: String] = ProcessEnvironment.variables,
                                   extra: [String: String] = [:]) -> [String] {
        ProcessEnvironment.withoutPassphrases(environment.merging(extra) { $1 })
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
    }

    /// Starts `executable`; returns its pid. Standard input, output and error are what the
    /// caller names (by default /dev/null; `.descriptor(2)` passes phr's stderr on).
    public static func start(_ executable: String, _ arguments: [String],
                             environment: [String: String] = ProcessEnvironment.variables, extra: [String: String] = [:],
                             stdin: Sandbox.Source = .devNull(flags: O_RDONLY), stdout: Sandbox.Source = .devNull(flags: O_WRONLY),
                             stderr: Sandbox.Source = .devNull(flags: O_WRONLY), descriptors: [Int32: Sandbox.Source] = [:],
                             ownProcessGroup: Bool = false) throws -> pid_t {
        try Sandbox.spawn(executable: executable, arguments: arguments, environment: Self.environment(environment, extra: extra),
                          descriptors: descriptors.merging([0: stdin, 1: stdout, 2: stderr]) { $1 }, ownProcessGroup: ownProcessGroup)
    }

    /// phr's own standard error for a child, or /dev/null when phr runs with it closed.
    public static var inheritedStderr: Sandbox.Source {
        fcntl(2, F_GETFD) >= 0 ? .descriptor(2) : .devNull(flags: O_WRONLY)
    }

    /// How a program that was waited for ended.
    public struct Result: Sendable, Equatable {
        /// The exit status, or nil when a signal ended it.
        public var exitStatus: Int32?
        public var signal: Int32?
        /// Its standard output, when captured (at most the limit asked for).
        public var output: [UInt8]
    }

    /// Runs `executable` to its end and returns how it ended; with `captureOutput` its standard
    /// output is collected (at most `outputLimit` bytes, the rest read and dropped). Throws the
    /// spawn's errno when it cannot start.
    public static func run(_ executable: String, _ arguments: [String],
                           environment: [String: String] = ProcessEnvironment.variables, extra: [String: String] = [:],
                           captureOutput: Bool = false, outputLimit: Int = 64 << 10,
                           stderr: Sandbox.Source = .devNull(flags: O_WRONLY)) throws -> Result {
        var ends: [Int32] = [-1, -1]
        if captureOutput {
            guard phr_pipe_cloexec(&ends) == 0 else { throw Sandbox.SpawnError(code: errno) }
        }
        let pid: pid_t
        do {
            pid = try start(executable, arguments, environment: environment, extra: extra,
                            stdout: captureOutput ? .descriptor(ends[1]) : .devNull(flags: O_WRONLY), stderr: stderr)
        } catch {
            if captureOutput { close(ends[0]); close(ends[1]) }
            throw error
        }
        var output: [UInt8] = []
        if captureOutput {
            close(ends[1])
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(ends[0], &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                if output.count < outputLimit { output += chunk[0..<min(count, outputLimit - output.count)] }
            }
            close(ends[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return Result(exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal, output: output)
    }
}
