import CPHRSystem
import Dispatch
import Foundation
import Glibc
import PHRCore

/// One CLI command for a running `phr serve` agent to answer in-process, as the CLI would in a
/// process of its own: its arguments, its environment (without any passphrase source), whether
/// its stdout and stderr are terminals, the terminal's width and the time zone it runs in.
public struct AgentCommand: Codable, Sendable, Equatable {
    public var vaultID: String
    public var arguments: [String]
    public var environment: [String: String]
    public var stdoutIsTTY: Bool
    public var stderrIsTTY: Bool
    public var columns: Int?
    public var zone: String
    /// Something other than a command: `launch` asks the agent for a new sign-in link (its
    /// answer is the ready line of `phr serve --json`).
    public var action: String?
    /// The CLI's working directory (relative vault paths are resolved from it).
    public var directory: String?

    public static let launchAction = "launch"
    /// `mcp`: a call from `phr mcp` (its `arguments` hold the call as JSON), answered on the
    /// agent's open vault within the scope the call carries.
    public static let mcpAction = "mcp"

    enum CodingKeys: String, CodingKey {
        case vaultID = "vault_id"
        case action, directory
        case arguments, environment
        case stdoutIsTTY = "stdout_tty"
        case stderrIsTTY = "stderr_tty"
        case columns, zone
    }

    public init(vaultID: String, arguments: [String], environment: [String: String], stdoutIsTTY: Bool,
                stderrIsTTY: Bool, columns: Int?, zone: String, action: String? = nil) {
        self.action = action
        self.vaultID = vaultID
        self.arguments = arguments
        self.environment = ProcessEnvironment.withoutPassphrases(environment)
        self.stdoutIsTTY = stdoutIsTTY
        self.stderrIsTTY = stderrIsTTY
        self.columns = columns
        self.zone = zone
    }
}

/// What the agent answers: the command's exit status and what it wrote, stdout and stderr in
/// the order it wrote them, or "declined" (not a command it serves, another vault, another time
/// zone, too busy, more output than it holds): the CLI then runs the command itself, so a
/// decline is never an error the user sees.
public struct AgentAnswer: Sendable, Equatable {
    public enum Stream: UInt8, Sendable {
        case stdout = 1
        case stderr = 2
    }

    public struct Chunk: Sendable, Equatable {
        public var stream: Stream
        public var bytes: [UInt8]

        public init(stream: Stream, bytes: [UInt8]) {
            self.stream = stream
            self.bytes = bytes
        }
    }

    public var declined: Bool
    public var status: Int32
    public var output: [Chunk]

    public init(status: Int32, output: [Chunk]) {
        declined = false
        self.status = status
        self.output = output
    }

    public static let declined = AgentAnswer(declined: true)

    private init(declined: Bool) {
        self.declined = declined
        status = 0
        output = []
    }
}

/// The agent's Unix socket, beside its record in phr's 0700 runtime directory. Both ends check
/// the other's user id (SO_PEERCRED), as ssh-agent and gpg-agent do: the agent answers only its
/// own user, and the CLI talks only to an agent of its own user.
///
/// The wire format is phr's own, and both ends are the same binary: a request is a 4-byte
/// big-endian length and that much JSON (`AgentCommand`, at most 1 MiB). The agent acknowledges
/// it at once with one byte (so a CLI whose agent is stopped, say with Ctrl-Z, gives up after 2
/// seconds and runs the command itself), then answers with frames: a kind byte (1 stdout, 2
/// stderr, 3 the exit status, 4 declined), a 4-byte big-endian length and that many bytes, the
/// output frames in the order the command wrote them, ending with the status or the decline.
public enum AgentSocket {
    static let requestLimit = 1 << 20
    /// The most output one answer carries (a command that writes more is declined by the agent
    /// and runs in the CLI's own process).
    public static let answerLimit = 64 << 20
    static let acknowledgement: UInt8 = 0x41
    /// How long the CLI waits for the agent to take its command.
    static let acknowledgementSeconds = 2

    enum Kind: UInt8 {
        case stdout = 1, stderr = 2, status = 3, declined = 4
    }

    /// The socket's path for the vault `vaultID`.
    public static func path(vaultID: String) throws -> String {
        let path = try RuntimeDirectory.path() + "/agent-\(vaultID.filter { $0.isLetter || $0.isNumber || $0 == "-" }).sock"
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw VaultError.io("the agent's socket path is too long for a Unix socket: \(path)")
        }
        return path
    }

    /// Asks the agent at `socket` to answer `command`; nil when there is no agent to ask, it is not
    /// this user's, it did not take the command within 2 seconds, or the exchange failed (the
    /// caller then runs the command itself). Waits at most `timeout` seconds for the answer.
    public static func ask(_ command: AgentCommand, socket path: String, timeout: Int = 600) -> AgentAnswer? {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // Connecting, sending and the acknowledgement each get 2 seconds: an agent that is
        // stopped or swamped is not waited for.
        setTimeouts(fd, seconds: acknowledgementSeconds)
        guard connect(fd, path), peerIsThisUser(fd) else { return nil }
        guard let body = try? JSONEncoder().encode(command), body.count <= requestLimit,
              writeAll(fd, bigEndian(UInt32(body.count)) + Array(body)),
              readExactly(fd, 1) == [acknowledgement] else { return nil }
        setTimeouts(fd, seconds: timeout)
        var output: [AgentAnswer.Chunk] = []
        var total = 0
        while let head = readExactly(fd, 5), let kind = Kind(rawValue: head[0]) {
            let count = Int(uint32(head, at: 1))
            total += count
            guard total <= answerLimit, let bytes = readExactly(fd, count) else { return nil }
            switch kind {
            case .stdout: output.append(AgentAnswer.Chunk(stream: .stdout, bytes: bytes))
            case .stderr: output.append(AgentAnswer.Chunk(stream: .stderr, bytes: bytes))
            case .status:
                guard bytes.count == 4 else { return nil }
                return AgentAnswer(status: Int32(bitPattern: uint32(bytes, at: 0)), output: output)
            case .declined: return .declined
            }
        }
        return nil
    }

    // MARK: Shared by both ends

    static func connect(_ fd: Int32, _ path: String) -> Bool {
        var address = sockaddr_un()
        guard fill(&address, path) else { return false }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    static func fill(_ address: inout sockaddr_un, _ path: String) -> Bool {
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            raw.copyBytes(from: bytes)
        }
        return true
    }

    /// Whether the process at the other end of `fd` runs as this process's user.
    static func peerIsThisUser(_ fd: Int32) -> Bool {
        var uid: UInt32 = 0
        return phr_peer_uid(fd, &uid) == 0 && uid == geteuid()
    }

    static func setTimeouts(_ fd: Int32, seconds: Int) {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, count - offset, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// The agent's end of `AgentSocket`: accepts this user's connections, one command each, at most
/// `concurrent` at a time (a client beyond that is closed at once and runs its command itself);
/// a client gets 5 seconds to send its command.
public final class AgentSocketServer: @unchecked Sendable {
    public let path: String
    private let fd: Int32
    private let answer: @Sendable (AgentCommand) -> AgentAnswer
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var stopped = false

    /// Listens at `path` (a stale socket there is replaced); `answer` runs on a worker thread.
    public init(path: String, concurrent: Int = 4, answer: @escaping @Sendable (AgentCommand) -> AgentAnswer) throws {
        self.path = path
        self.answer = answer
        slots = DispatchSemaphore(value: concurrent)
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw VaultError.io("cannot make the agent's socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        guard AgentSocket.fill(&address, path) else {
            close(fd)
            throw VaultError.io("the agent's socket path is too long for a Unix socket: \(path)")
        }
        unlink(path)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(path)
            throw VaultError.io("cannot listen on \(path): \(reason)")
        }
    }

    /// Accepts connections on a thread of its own until `stop`.
    public func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "phr-agent-socket"
        thread.start()
    }

    /// Stops accepting and removes the socket; commands under way finish.
    public func stop() {
        // Shut down under the lock: the accept loop closes the descriptor only after it has seen
        // `stopped`, so this never reaches a descriptor number already reused.
        let first: Bool = lock.withLock {
            guard !stopped else { return false }
            stopped = true
            shutdown(fd, Int32(SHUT_RDWR))
            return true
        }
        if first { unlink(path) }
    }

    private func acceptLoop() {
        defer { close(fd) }
        while true {
            let client = phr_accept_cloexec(fd)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if lock.withLock({ stopped }) { return }
                usleep(10_000)
                continue
            }
            if lock.withLock({ stopped }) {
                close(client)
                return
            }
            guard AgentSocket.peerIsThisUser(client), slots.wait(timeout: .now()) == .success else {
                close(client)
                continue
            }
            DispatchQueue.global().async { [self] in
                defer {
                    close(client)
                    slots.signal()
                }
                serve(client)
            }
        }
    }

    private func serve(_ client: Int32) {
        AgentSocket.setTimeouts(client, seconds: 5)
        guard let head = AgentSocket.readExactly(client, 4) else { return }
        let count = Int(AgentSocket.uint32(head, at: 0))
        guard count <= AgentSocket.requestLimit, let body = AgentSocket.readExactly(client, count),
              let command = try? JSONDecoder().decode(AgentCommand.self, from: Data(body)),
              AgentSocket.writeAll(client, [AgentSocket.acknowledgement]) else { return }
        let reply = answer(command)
        AgentSocket.setTimeouts(client, seconds: 30)
        func frame(_ kind: AgentSocket.Kind, _ bytes: [UInt8]) -> [UInt8] {
            [kind.rawValue] + AgentSocket.bigEndian(UInt32(bytes.count)) + bytes
        }
        guard !reply.declined else {
            _ = AgentSocket.writeAll(client, frame(.declined, []))
            return
        }
        for chunk in reply.output {
            guard AgentSocket.writeAll(client, frame(chunk.stream == .stdout ? .stdout : .stderr, chunk.bytes)) else { return }
        }
        _ = AgentSocket.writeAll(client, frame(.status, AgentSocket.bigEndian(UInt32(bitPattern: reply.status))))
    }
}
