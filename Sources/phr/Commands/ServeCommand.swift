import ArgumentParser
import Foundation
import Glibc
import PHRService
import PHRWeb

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Look at the vault in a browser: a local agent that holds it unlocked, on loopback only.",
        discussion: """
            The agent listens on a random 127.x.y.z address and signs a browser in once, through a
            private launch file (never a token in an address or on a command line). It locks
            itself after --for without a request; 'phr lock' or Ctrl-C locks it sooner. See
            docs/serve.md.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("for"), help: "Lock after this long without a request, like 30m or 2h (at most 24h).")
    var duration: String = "30m"

    @Option(help: "The loopback address to listen on, 127.x.y.z (default: a random one).")
    var address: String?

    @Option(help: "The port (default: any free one).")
    var port: Int = 0

    @Flag(help: "Open the default browser on the launch file.")
    var open = false

    @Flag(help: "Return once the agent is ready and leave it running ('phr lock' ends it).")
    var detach = false

    /// The agent `--detach` starts: it reads the keys from descriptor 3 and prints the ready
    /// line as JSON on standard output (a pipe to the `phr serve` that started it).
    @Flag(name: .customLong("agent-child"), help: .hidden)
    var agentChild = false

    func validate() throws {
        guard let seconds = DurationText.parse(duration), seconds >= 1 else {
            throw ValidationError("--for: '\(duration)' is not a duration; use something like 30m, 2h or 1h30m")
        }
        guard seconds <= UnlockCache.maximumDuration else { throw ValidationError("--for: at most 24h") }
        if let address, !ServeAgent.isLoopback(address) {
            throw ValidationError("--address: phr serves on loopback only; use an address 127.x.y.z")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port: use a number from 0 to 65535") }
    }

    func run() throws {
        // The agent keeps nothing it inherited but its standard streams and the key pipe: a
        // stray pipe from whoever started `phr serve --detach` would otherwise stay open for
        // as long as the agent runs.
        if agentChild { closefrom(4) }
        let location = vault.location
        let keyFile = try Vault.readKeyFile(at: location)
        if let running = AgentRecord.running(vaultID: keyFile.vaultID) {
            // The agent that runs gives a new sign-in link (its old one stops working).
            guard !agentChild, let ready = Self.newLaunch(from: running, vaultID: keyFile.vaultID) else {
                throw ServeError.alreadyRunning(url: running.url)
            }
            if address != nil || port != 0 { Console.warning("phr serve already runs for this vault; it keeps its address \(ready.url)") }
            try announce(ready, detached: true, again: true)
            return
        }
        // The process that becomes the agent holds the vault's agent lock while it runs.
        let claim = (!detach || agentChild) ? try AgentRecord.claim(vaultID: keyFile.vaultID) : nil
        if (!detach || agentChild) && claim == nil { throw ServeError.starting }
        defer { claim?.release() }
        let keys = agentChild ? try VaultKeys.receive(from: 3) : try VaultAccess.keys(for: location, keyFile: keyFile)
        if agentChild { close(3) }
        let chosenAddress = try address ?? ServeAgent.randomLoopbackAddress()
        if detach && !agentChild {
            return try startDetached(keys: keys, address: chosenAddress)
        }
        let opened = try Vault.open(at: location, keyFile: keyFile, keys: keys)
        if agentChild { _ = setsid() }
        let agent = ServeAgent(vault: opened, vaultID: keyFile.vaultID, address: chosenAddress, port: port,
                               idle: DurationText.parse(duration)!,
                               commands: { AgentForwarding.answer($0, vault: opened) })
        let json = output.json || agentChild
        let openBrowser = open
        try agent.run { ready in
            if json {
                try? Console.json(ready, oneLine: true)
            } else {
                Console.out(ready.url)
                Console.note("phr serve is ready at \(ready.url); open \(ready.launchFile) in your browser to sign in (once)")
                Console.note("it locks after \(Console.duration(TimeInterval(ready.idleSeconds))) without a request; Ctrl-C or 'phr lock' locks it now")
            }
            fflush(nil)
            if agentChild {
                // The phr serve that started this agent reads up to here and returns; nothing
                // else may write to its pipes (a write after it is gone would kill the agent).
                let null = Glibc.open("/dev/null", O_RDWR)
                dup2(null, STDOUT_FILENO)
                dup2(null, STDERR_FILENO)
                if null > STDERR_FILENO { close(null) }
            }
            if openBrowser { Self.openBrowser(ready.launchFile) }
        }
        if !agentChild && !json { Console.note("locked; the agent's keys are gone") }
    }

    /// Starts the agent as a child of its own (keys through a pipe), waits for it to be ready,
    /// prints what it printed, and returns, leaving it running.
    private func startDetached(keys: VaultKeys, address: String) throws {
        var keyPipe: [Int32] = [0, 0]
        var readyPipe: [Int32] = [0, 0]
        var errorPipe: [Int32] = [0, 0]
        guard pipe(&keyPipe) == 0, pipe(&readyPipe) == 0, pipe(&errorPipe) == 0 else {
            throw VaultError.io("cannot start the agent (\(String(cString: strerror(errno))))")
        }
        for fd in keyPipe + readyPipe + errorPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var arguments = ["serve", "--agent-child", "--for", duration, "--address", address, "--port", String(port)]
        if let path = vault.path { arguments += ["--vault", path] }
        let pid = try LocalProgram.start(Self.ownExecutable, arguments, stdin: .devNull(flags: O_RDONLY),
                                         stdout: .descriptor(readyPipe[1]), stderr: .descriptor(errorPipe[1]),
                                         descriptors: [3: .descriptor(keyPipe[0])])
        close(keyPipe[0])
        close(readyPipe[1])
        close(errorPipe[1])
        defer { close(errorPipe[0]) }
        // An agent that stopped at once (it says why on the error pipe) must not kill this
        // process with SIGPIPE while the keys are handed over.
        signal(SIGPIPE, SIG_IGN)
        try? keys.handOver(to: keyPipe[1])
        close(keyPipe[1])
        // The agent is ready within seconds, or has failed; a minute is the most this waits.
        var ready = pollfd(fd: readyPipe[0], events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 60_000) > 0 else {
            kill(pid, SIGKILL)
            throw ServeError.agentFailed
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(readyPipe[0], &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        close(readyPipe[0])
        guard let ready = try? JSONDecoder().decode(ServeAgent.Ready.self, from: Data(line)) else {
            // The agent said why on its standard error: pass it on as it is (it is phr's own words).
            var said: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while said.count < 64 << 10 {
                let count = read(errorPipe[0], &chunk, chunk.count)
                guard count > 0 else { break }
                said += chunk[..<count]
            }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            FileHandle.standardError.write(Data(said))
            let exited = status & 0x7f == 0 ? (status >> 8) & 0xff : 0
            if exited != 0 { throw ExitCode(exited) }
            throw ServeError.agentFailed
        }
        try announce(ready, detached: true, again: false)
    }

    /// Says where the agent is and how to sign in (or, with --json, the ready line), and opens
    /// the browser with --open.
    private func announce(_ ready: ServeAgent.Ready, detached: Bool, again: Bool) throws {
        if output.json {
            try Console.json(ready, oneLine: true)
        } else {
            Console.out(ready.url)
            let state = again ? "already runs" : "is running"
            Console.note("phr serve \(state) (pid \(ready.pid)) at \(ready.url); open \(ready.launchFile) in your browser to sign in (once)")
            if again { Console.note("that link is new: an earlier one no longer signs in") }
            Console.note("it locks after \(Console.duration(TimeInterval(ready.idleSeconds))) without a request, or with 'phr lock'")
        }
        if open { Self.openBrowser(ready.launchFile) }
    }

    /// A new sign-in link from the vault's running agent, asked over its socket.
    static func newLaunch(from running: AgentRecord, vaultID: String) -> ServeAgent.Ready? {
        guard let socket = running.socket else { return nil }
        let request = AgentCommand(vaultID: vaultID, arguments: [], environment: [:], stdoutIsTTY: false, stderrIsTTY: false,
                                   columns: nil, zone: TimeZone.current.identifier, action: AgentCommand.launchAction)
        guard let answer = AgentSocket.ask(request, socket: socket, timeout: 10), !answer.declined else { return nil }
        let line = answer.output.filter { $0.stream == .stdout }.flatMap(\.bytes)
        return try? JSONDecoder().decode(ServeAgent.Ready.self, from: Data(line))
    }

    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The default browser on the launch file: the token is inside the file, never in argv.
    static func openBrowser(_ file: String) {
        let opener = ["xdg-open", "sensible-browser"].lazy.compactMap { DesktopServices.find($0) }.first
        guard let opener, (try? LocalProgram.start(opener, [file], stderr: .devNull(flags: O_WRONLY), ownProcessGroup: true)) != nil else {
            Console.warning("no browser could be started; open \(file) in one")
            return
        }
    }
}

enum ServeError: PHRError {
    case alreadyRunning(url: String)
    case starting
    case agentFailed

    var message: Message {
        switch self {
        case .alreadyRunning(let url): return "an agent already serves this vault at \(url)"
        case .starting: return "another phr serve is starting for this vault"
        case .agentFailed: return "the agent stopped before it was ready"
        }
    }

    var hint: Message? {
        switch self {
        case .alreadyRunning, .starting: return "wait for it to be ready and run phr serve again for a new sign-in link, or end it with \(Action.lockVault)"
        case .agentFailed: return "run phr serve without --detach to see why"
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .alreadyRunning, .starting: return .unavailable
        case .agentFailed: return .failure
        }
    }
}
