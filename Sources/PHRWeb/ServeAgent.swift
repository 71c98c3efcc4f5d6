import Dispatch
import Foundation
import Glibc
import PHRService

/// `phr serve`: one process that holds the unlocked vault and serves it to a browser on
/// loopback until it locks: after `idle` seconds without a request, on `phr lock` (SIGTERM),
/// on Ctrl-C, or from the page's Lock button. Locking ends the sessions, drops the image cache
/// and the launch file, and returns from `run`, after which the vault (and its keys, which
/// wipe themselves) is released.
public final class ServeAgent: @unchecked Sendable {
    /// What `phr serve --json` prints once the agent listens.
    public struct Ready: Codable, Sendable {
        /// The base address, without any token.
        public var url: String
        /// The 0600 file that signs a browser in once (open it in the browser).
        public var launchFile: String
        /// The Unix socket on which the agent answers the CLI's read commands.
        public var socket: String
        public var pid: Int32
        /// Seconds without a request before the agent locks itself.
        public var idleSeconds: Int

        enum CodingKeys: String, CodingKey {
            case url
            case launchFile = "launch_file"
            case socket
            case pid
            case idleSeconds = "idle_seconds"
        }
    }

    let vault: Vault
    let vaultID: String
    let address: String
    let port: Int
    let idle: TimeInterval
    private let lock = NSLock()
    /// When the last request came, on a clock that keeps counting while the machine sleeps and
    /// never jumps with the wall clock: an agent left idle through a suspend locks on waking.
    private var lastUse = ContinuousClock.now
    private var locked = false
    private let finished = DispatchSemaphore(value: 0)
    private var launchFile: String?
    private var record: AgentRecord?
    private var app: WebApp?
    private var socketServer: AgentSocketServer?
    private var ready: Ready?
    /// One new sign-in link at a time (its token, file and the old file's removal together).
    private let launches = NSLock()
    /// Requests and commands under way: the agent is not idle while one runs (an upload read
    /// by OCR, a long command), however long it takes.
    private var inFlight = 0
    private let commands: @Sendable (AgentCommand) -> AgentAnswer

    /// `commands` answers the CLI's read commands that arrive on the agent's socket (the CLI
    /// knows its commands; the agent only passes them on, for this vault, while unlocked).
    public init(vault: Vault, vaultID: String, address: String, port: Int, idle: TimeInterval,
                commands: @escaping @Sendable (AgentCommand) -> AgentAnswer) {
        self.commands = commands
        self.vault = vault
        self.vaultID = vaultID
        self.address = address
        self.port = port
        self.idle = idle
    }

    /// A random loopback address, 127.x.y.z with z neither 0 nor 255: a cookie set there is not
    /// sent to other local web apps on 127.0.0.1.
    public static func randomLoopbackAddress() throws -> String {
        let bytes = try SecureRandom.bytes(3)
        return "127.\(bytes[0]).\(bytes[1]).\(1 + Int(bytes[2]) % 254)"
    }

    /// Whether `address` is an IPv4 loopback address written plainly (127.x.y.z).
    public static func isLoopback(_ address: String) -> Bool {
        let parts = address.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && (part == "0" || !part.hasPrefix("0")) && Int(part)! <= 255
        }
    }

    /// Serves until locked. `ready` is called once, when the server listens and the launch file
    /// is written. Throws when the address cannot be bound.
    public func run(ready: @escaping @Sendable (Ready) -> Void) throws {
        let door = WebDoor(address: address, port: port, launchToken: try WebDoor.token())
        let app = WebApp(vault: vault, door: door)
        lock.withLock { self.app = app }
        door.onLaunch = { [weak self] in self?.removeLaunchFile() }
        let server = WebServer(app: app, started: { [weak self] in self?.requestStarted() }, finished: { [weak self] in self?.requestFinished() },
                               lock: { [weak self] in self?.lockNow() })
        let failure = Failure()
        let token = try tokenFromDoor(door)
        let signals = watchSignals()
        let task = Task {
            do {
                try await server.run(address: address, port: port) { [self] bound in
                    door.port = bound
                    do {
                        let url = "http://\(address):\(bound)"
                        let file = try Self.writeLaunchFile(url: url, token: token)
                        lock.withLock { launchFile = file }
                        let socket = try startSocket()
                        let record = AgentRecord(pid: getpid(), vaultID: vaultID, url: url, socket: socket.path,
                                                 started: Timestamp.string(Date()))
                        try record.write()
                        let line = Ready(url: url, launchFile: file, socket: socket.path, pid: getpid(), idleSeconds: Int(idle))
                        lock.withLock {
                            self.record = record
                            self.ready = line
                            lastUse = ContinuousClock.now
                        }
                        ready(line)
                    } catch {
                        failure.set(error)
                        lockNow()
                    }
                }
            } catch {
                failure.set(ServeFailure.cannotListen(address: address, port: port, reason: "\(error)"))
            }
            lockNow()
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            if self.lock.withLock({ self.inFlight == 0 && ContinuousClock.now - self.lastUse > .seconds(self.idle) }) { self.lockNow() }
        }
        timer.resume()
        finished.wait()
        timer.cancel()
        signals.forEach { $0.cancel() }
        task.cancel()
        if let error = failure.error { throw error }
    }

    /// Listens for the CLI on the vault's socket: each command is this vault's, counts as use,
    /// and is declined once the agent is locking.
    private func startSocket() throws -> AgentSocketServer {
        let server = try AgentSocketServer(path: try AgentSocket.path(vaultID: vaultID)) { [weak self] command in
            guard let self, command.vaultID == self.vaultID, !self.lock.withLock({ self.locked }) else { return .declined }
            if command.action == AgentCommand.launchAction { return self.newLaunch() }
            guard command.action == nil || command.action == AgentCommand.mcpAction else { return .declined }
            self.requestStarted()
            defer { self.requestFinished() }
            return self.commands(command)
        }
        lock.withLock { socketServer = server }
        server.start()
        return server
    }

    /// The door's launch token, read once to write the launch file.
    private func tokenFromDoor(_ door: WebDoor) throws -> String {
        guard let token = door.launchTokenForFile() else { throw VaultError.io("no launch token") }
        return token
    }

    func touch() {
        lock.withLock { lastUse = ContinuousClock.now }
    }

    /// A request or command begins: it is use, and the agent is busy until `requestFinished`.
    func requestStarted() {
        lock.withLock {
            inFlight += 1
            lastUse = ContinuousClock.now
        }
    }

    func requestFinished() {
        lock.withLock {
            inFlight -= 1
            lastUse = ContinuousClock.now
        }
    }

    /// A new sign-in link (a new one-time token in a new launch file), for `phr serve` run
    /// again while this agent runs; the old link stops working.
    func newLaunch() -> AgentAnswer {
        launches.withLock { makeNewLaunch() }
    }

    private func makeNewLaunch() -> AgentAnswer {
        guard let (app, ready) = lock.withLock({ self.app.flatMap { app in self.ready.map { (app, $0) } } }),
              let token = try? app.door.renewLaunchToken(),
              let file = try? Self.writeLaunchFile(url: ready.url, token: token) else { return .declined }
        removeLaunchFile()
        lock.withLock { launchFile = file }
        var fresh = ready
        fresh.launchFile = file
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let line = try? encoder.encode(fresh) else { return .declined }
        touch()
        return AgentAnswer(status: 0, output: [AgentAnswer.Chunk(stream: .stdout, bytes: Array(line))])
    }

    /// Locks: ends every session, forgets the images and the launch file, and lets `run` return.
    public func lockNow() {
        let first: Bool = lock.withLock {
            defer { locked = true }
            return !locked
        }
        guard first else { return }
        let (app, record, socket) = lock.withLock { (self.app, self.record, self.socketServer) }
        socket?.stop()
        app?.door.closeAll()
        app?.images.removeAll()
        removeLaunchFile()
        record?.remove()
        finished.signal()
    }

    private func removeLaunchFile() {
        let file: String? = lock.withLock {
            defer { launchFile = nil }
            return launchFile
        }
        if let file { unlink(file) }
    }

    private func watchSignals() -> [DispatchSourceSignal] {
        [SIGTERM, SIGINT, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue.global())
            source.setEventHandler { [weak self] in self?.lockNow() }
            source.resume()
            return source
        }
    }

    /// The page that signs a browser in: it posts the token to the agent (never in an address,
    /// so never in the browser's history), by itself or with its button.
    static func writeLaunchFile(url: String, token: String) throws -> String {
        let name = try SecureRandom.bytes(8).map { String(format: "%02x", $0) }.joined()
        let path = try RuntimeDirectory.path() + "/open-\(name).html"
        let page: HTML = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>phr</title></head>
        <body>
        <form method="post" action="\(url)/launch"><input type="hidden" name="token" value="\(token)">
        <button type="submit">Open phr</button></form>
        <script>document.forms[0].submit();</script>
        </body></html>
        """
        try RuntimeDirectory.writePrivate(Array(page.text.utf8), to: path)
        return path
    }

    private final class Failure: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Error?
        var error: Error? { lock.withLock { stored } }
        func set(_ error: Error) { lock.withLock { if stored == nil { stored = error } } }
    }
}

/// Why `phr serve` could not serve.
public enum ServeFailure: PHRError {
    case cannotListen(address: String, port: Int, reason: String)

    public var message: Message {
        switch self {
        case .cannotListen(let address, let port, let reason):
            return "cannot listen on \(address):\(port == 0 ? "any port" : String(port)) (\(reason))"
        }
    }

    public var hint: Message? { "choose another \(Field("port")), or leave it out to take any free one" }

    public var exitStatus: ExitStatus { .unavailable }
}
