import Foundation
import Testing

/// Runs the built `phr` binary the way a user or script would, without a controlling terminal
/// (through setsid), and captures its exit status, stdout and stderr.
struct CLI {
    static let packageRoot = PackageRoot.path

    static let binDirectory: String = {
        if let path = ProcessInfo.processInfo.environment["PHR_BIN"], !path.isEmpty {
            return (path as NSString).deletingLastPathComponent
        }
        return "\(packageRoot)/.build/debug"
    }()

    static let phr = "\(binDirectory)/phr"

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        /// Everything the command printed.
        var output: String { stdout + stderr }
    }

    /// A scratch directory with its own HOME and vault path, removed by `cleanUp`.
    let directory: String
    var vault: String { "\(directory)/vault" }
    var environment: [String: String]

    init(label: String = "cli") throws {
        directory = NSTemporaryDirectory() + "phr-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        environment = [
            "PATH": "/usr/bin:/bin",
            "HOME": directory,
            "LANG": "C.UTF-8",
            "PHR_VAULT": "\(directory)/vault",
            // Debug builds only: cheap scrypt so each test vault takes milliseconds.
            "PHR_TEST_SCRYPT_LOG2N": "10",
        ]
    }

    /// Runs a Python test script with `python` (a virtual environment's) and a plain
    /// environment whose HOME is this scratch directory; its exit status and all it printed.
    func runPython(_ python: String, _ arguments: [String]) throws -> (status: Int32, said: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "LANG": "C.UTF-8"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, said)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `phr` with `arguments`; `extra` adds to (or, with "", removes from) the environment.
    /// `stdoutFile` / `stderrFile` open that path (say /dev/full) as the child's stream instead
    /// of a pipe; what it printed there is then not in the result.
    @discardableResult
    func run(_ arguments: [String], _ extra: [String: String] = [:], stdin: String? = nil,
             executable: String = CLI.phr, timeout: TimeInterval = 120,
             stdoutFile: String? = nil, stderrFile: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-w", executable] + arguments
        var env = environment
        for (key, value) in extra { env[key] = value.isEmpty ? nil : value }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let stdoutFile { process.standardOutput = FileHandle(forWritingAtPath: stdoutFile) }
        if let stderrFile { process.standardError = FileHandle(forWritingAtPath: stderrFile) }
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        if stdoutFile != nil { try out.fileHandleForWriting.close() }
        if stderrFile != nil { try err.fileHandleForWriting.close() }
        // Drain both pipes concurrently so a chatty child never blocks.
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            Issue.record("phr \(arguments.joined(separator: " ")) timed out")
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Writes a passphrase file (mode 0600) and returns its path.
    func passphraseFile(_ passphrase: String, name: String = "passphrase") throws -> String {
        let path = "\(directory)/\(name)"
        #expect(FileManager.default.createFile(atPath: path, contents: Data((passphrase + "\n").utf8),
                                                attributes: [.posixPermissions: 0o600]))
        return path
    }

    /// `phr init` with a passphrase file; returns the recovery key.
    func initVault(passphrase: String = "correct horse battery staple") throws -> String {
        let file = try passphraseFile(passphrase)
        let result = try run(["init"], ["PHR_PASSPHRASE_FILE": file])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func sha256(_ path: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let out = Pipe()
        process.standardOutput = out
        try? process.run()
        process.waitUntilExit()
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).components(separatedBy: " ").first ?? ""
    }

    /// sha256 of every file under the vault, to prove a command changed nothing.
    func vaultFingerprint() -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: vault)
        while let relative = enumerator?.nextObject() as? String {
            let path = "\(vault)/\(relative)"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = CLI.sha256(path)
            }
        }
        return result
    }
}

extension CLI {
    /// Runs `phr` with a pseudo-terminal as its stdin, stdout and stderr, as a person at a
    /// terminal would: `input` is typed ahead (the terminal's line discipline holds it until phr
    /// reads each line). Returns the exit status and everything the terminal showed (the typed
    /// input echoed, line ends as "\n").
    func runOnTerminal(_ arguments: [String], _ extra: [String: String] = [:], input: String,
                       timeout: TimeInterval = 120) throws -> (status: Int32, screen: String) {
        try runOnTerminal(arguments, extra, input: input, answers: [], timeout: timeout)
    }

    /// Runs phr on a new pseudo-terminal and types each answer once its prompt is on the screen
    /// (after the previous one's): how a person answers a passphrase prompt, which discards
    /// anything typed before it shows.
    func runOnTerminal(_ arguments: [String], _ extra: [String: String] = [:], answers: [(prompt: String, typed: String)],
                       timeout: TimeInterval = 120) throws -> (status: Int32, screen: String) {
        try runOnTerminal(arguments, extra, input: "", answers: answers, timeout: timeout)
    }

    private func runOnTerminal(_ arguments: [String], _ extra: [String: String], input: String, answers: [(prompt: String, typed: String)],
                               timeout: TimeInterval) throws -> (status: Int32, screen: String) {
        // posix_openpt, unlockpt and ptsname as Linux does them (Glibc's module leaves them out):
        // open the multiplexer, unlock the new terminal (TIOCSPTLCK) and ask its number (TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0, "/dev/ptmx: \(errno)")
        defer { close(master) }
        var unlock: CInt = 0
        var number: CUnsignedInt = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0, "pty ioctl: \(errno)")
        let name = "/dev/pts/\(number)"
        let slave = open(name, O_RDWR | O_NOCTTY)
        try #require(slave >= 0, "open \(name): \(errno)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        // With answers, the terminal is also the controlling one (/dev/tty), where phr asks for
        // passphrases.
        process.arguments = (answers.isEmpty ? ["-w"] : ["-w", "-c"]) + [CLI.phr] + arguments
        var env = environment
        env["TERM"] = "xterm"
        for (key, value) in extra { env[key] = value.isEmpty ? nil : value }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        close(slave)
        _ = input.utf8CString.withUnsafeBufferPointer { buffer in write(master, buffer.baseAddress, buffer.count - 1) }
        // Read until the child and everything it started have closed the terminal (EIO).
        nonisolated(unsafe) var screen = Data()
        let done = DispatchSemaphore(value: 0)
        let pending = answers
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var next = 0
            var searchFrom = 0
            while true {
                let count = read(master, &buffer, buffer.count)
                if count > 0 { screen.append(contentsOf: buffer[0..<count]) } else if count < 0 && errno == EINTR { continue } else { break }
                // The next prompt on the screen (after the last answered one): type its answer.
                while next < pending.count, let found = screen[searchFrom...].range(of: Data(pending[next].prompt.utf8)) {
                    let typed = pending[next].typed
                    _ = typed.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
                    searchFrom = found.upperBound
                    next += 1
                }
            }
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            Issue.record("phr \(arguments.joined(separator: " ")) on a terminal timed out")
            done.wait()
        }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: screen, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
    }
}
