import Glibc

/// One running extraction worker, as the parent sees it: spawning, sending jobs, reading
/// messages and diagnostics, killing and reaping.
///
/// The worker is started by `Sandbox.spawn` with its socket as descriptor 3. Its stdin is /dev/null;
/// its stdout and stderr go to a socket the parent drains and keeps only the last few kilobytes
/// of (to recognise an out-of-memory abort), so poppler's or the runtime's noise is never printed.
/// The environment is exactly the one given (see `TextExtractor.workerEnvironment`).
final class WorkerProcess {
    private let child: WorkerChild
    var pid: pid_t { child.pid }
    let socket: Int32
    let diagnostics: Int32
    private(set) var isReady = false
    /// What the worker reads with, as it said when ready ("poppler 22.12.0; phr-extract 1").
    private(set) var extractor: String?
    private var decoder: FrameDecoder
    private var diagnosticTail: [UInt8] = []

    private static let diagnosticTailLimit = 4096

    private init(pid: pid_t, socket: Int32, diagnostics: Int32, maximumPayload: Int) {
        child = WorkerChild(pid: pid)
        self.socket = socket
        self.diagnostics = diagnostics
        decoder = FrameDecoder(maximumPayload: maximumPayload)
    }

    /// The child is killed and reaped when dropped (WorkerChild).
    deinit {
        close(socket)
        close(diagnostics)
    }

    /// Starts `executable` with `arguments` (argv after argv[0]) and the given environment entries.
    static func spawn(executable: String, arguments: [String], environment: [String],
                      maximumPayload: Int) throws -> WorkerProcess {
        let (parentSocket, childSocket) = try UnixSocket.pair()
        let (diagnosticsRead, diagnosticsWrite): (Int32, Int32)
        do {
            let (read, write) = try UnixSocket.pair()
            (diagnosticsRead, diagnosticsWrite) = (read, write)
        } catch {
            close(parentSocket)
            close(childSocket)
            throw error
        }
        defer {
            close(childSocket)
            close(diagnosticsWrite)
        }

        let pid: pid_t
        do {
            pid = try Sandbox.spawn(executable: executable, arguments: arguments, environment: environment, descriptors: [
                0: .devNull(flags: O_RDONLY),
                1: .descriptor(diagnosticsWrite),
                2: .descriptor(diagnosticsWrite),
                WorkerProtocol.workerSocketDescriptor: .descriptor(childSocket),
            ])
        } catch let error as Sandbox.SpawnError {
            close(parentSocket)
            close(diagnosticsRead)
            throw ExtractionError.workerStartFailed(executable: executable, code: error.code)
        }
        return WorkerProcess(pid: pid, socket: parentSocket, diagnostics: diagnosticsRead, maximumPayload: maximumPayload)
    }

    /// Sends a job frame with the document's descriptor.
    func send(_ frame: [UInt8], passing descriptor: Int32) throws {
        try UnixSocket.send(socket, frame, passing: descriptor)
    }

    /// Sends a frame that carries no descriptor (a `limit`).
    func send(_ frame: [UInt8]) throws {
        try UnixSocket.send(socket, frame)
    }

    /// What one read from the socket gave.
    struct Received {
        /// Complete messages, without `ready` (consumed here).
        var messages: [WorkerMessage] = []
        /// Any bytes arrived: the worker is alive and working, even if no message is complete yet.
        var madeProgress = false
        /// The worker's end has closed.
        var closed = false
    }

    /// Reads what the socket has (call when poll says it is readable).
    func receive() throws -> Received {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return Received() }
            if errno == ECONNRESET { return Received(closed: true) }
            throw ExtractionError.system(operation: "recv", code: errno)
        }
        if count > 0 {
            chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        var messages: [WorkerMessage] = []
        while let frame = try decoder.next() {
            let message = try WorkerMessage.decode(kind: frame.kind, payload: frame.payload)
            if case let .ready(version, extractor) = message {
                guard version == WorkerProtocol.version, !isReady else {
                    throw ExtractionError.protocolViolation(detail: "worker protocol version \(version), expected \(WorkerProtocol.version)")
                }
                isReady = true
                self.extractor = String(extractor.prefix(200))
            } else {
                guard isReady else { throw ExtractionError.protocolViolation(detail: "a message before ready") }
                messages.append(message)
            }
        }
        return Received(messages: messages, madeProgress: count > 0, closed: count == 0)
    }

    /// False once the worker's stdout and stderr have closed (it exited, or closed them itself);
    /// the parent then stops polling them.
    private(set) var diagnosticsOpen = true

    /// Reads whatever the worker wrote to stdout/stderr without blocking, keeping the tail.
    func drainDiagnostics() {
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while diagnosticsOpen {
            let count = chunk.withUnsafeMutableBytes { recv(diagnostics, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { diagnosticsOpen = false }
            if count <= 0 { return }
            diagnosticTail.append(contentsOf: chunk[0..<count])
            if diagnosticTail.count > Self.diagnosticTailLimit {
                diagnosticTail.removeFirst(diagnosticTail.count - Self.diagnosticTailLimit)
            }
        }
    }

    /// Forgets the diagnostics so far (at the start of each document).
    func clearDiagnostics() {
        diagnosticTail.removeAll(keepingCapacity: true)
    }

    /// True if the recent diagnostics show an allocation failure (glib, C++ or the Swift runtime).
    var diagnosticsShowMemoryExhaustion: Bool {
        let text = String(decoding: diagnosticTail, as: UTF8.self)
        return WorkerClient.namesAllocationFailure(text)
    }

    /// Sends SIGKILL (for a hung worker, or one whose document was abandoned).
    func kill() {
        child.kill()
    }

    /// Waits for the worker to exit and returns its wait status. After its socket closed, a
    /// worker that has not exited within a second is killed.
    func reap(graceSeconds: Double = 1) -> Int32 {
        child.reap(by: Monotonic.now() + graceSeconds)
    }

    /// Closes the parent's end: an idle worker takes it as "no more jobs" and exits 0.
    func finish() {
        shutdown(socket, Int32(SHUT_RDWR))
        _ = reap()
    }
}

/// How a worker ended, in the words of an outcome's reason.
struct WorkerTermination {
    let status: Int32

    var signal: Int32? { status & 0x7F == 0 ? nil : status & 0x7F }
    var exitCode: Int32? { status & 0x7F == 0 ? (status >> 8) & 0xFF : nil }

    /// A one-line reason for a worker that died on its own (not killed by the parent).
    func reason(limits: ExtractionLimits, memoryExhausted: Bool) -> String {
        if memoryExhausted {
            return "the reader ran out of memory (limit \(Self.bytes(limits.memoryBytes)); \(ReaderMemory.variable) raises it)"
        }
        switch signal {
        case SIGXCPU?:
            return "the reader used more than \(limits.cpuSecondsPerStep) s of CPU time on one step"
        case SIGKILL?:
            return "the reader was killed (SIGKILL; out of memory?)"
        case SIGSYS?:
            return "the reader \(Self.sandboxStop)"
        case let number?:
            return "the reader crashed (\(Self.signalName(number)))"
        case nil:
            if exitCode == WorkerExitStatus.unconfined { return "the reader \(Self.unconfined)" }
            return "the reader exited unexpectedly (status \(exitCode ?? 0))"
        }
    }

    /// How a worker that the seccomp filter killed ended (SIGSYS): it made a system call that
    /// no parser makes (the keyring, execve, ptrace...), which means the file attacked it.
    static let sandboxStop = "was stopped by its sandbox (SIGSYS: it tried a system call phr's workers may never make; the file may be hostile)"

    /// How a worker that could not confine itself ended (it read nothing).
    static let unconfined = "could not confine itself, so it read nothing (its sandbox is not available on this system; phr's status report says why)"

    /// How a one-shot worker ended, after "the process ...": as `how(status:)`, and "ran out of
    /// memory" when it did.
    static func how(_ ending: WorkerClient.Ending, cpuSeconds: Int, memoryBytes: Int, failed: String = "failed") -> String? {
        if ending.memoryExhausted { return "ran out of memory (a reader may use \(ReaderMemory.describe(memoryBytes)))" }
        return how(status: ending.status, cpuSeconds: cpuSeconds, failed: failed)
    }

    /// How a one-shot worker (drawing, C-CDA, phone exports) ended, after "the process ...":
    /// nil when it exited 0; `failed` is the verb for another exit status.
    static func how(status: Int32, cpuSeconds: Int, failed: String = "failed") -> String? {
        let termination = WorkerTermination(status: status)
        switch termination.signal {
        case SIGXCPU?: return "used its \(cpuSeconds) seconds of CPU time"
        case SIGKILL?: return "was killed (out of memory?)"
        case SIGSYS?: return sandboxStop
        case let signal?: return "crashed (signal \(signal))"
        case nil:
            switch termination.exitCode {
            case 0?: return nil
            case WorkerExitStatus.unconfined?: return unconfined
            case let code: return "\(failed) (exit status \(code ?? 0))"
            }
        }
    }

    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL",
                                      SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS", SIGXFSZ: "SIGXFSZ",
                                      SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM"]
        return names[number] ?? "signal \(number)"
    }

    static func bytes(_ count: Int) -> String {
        if count >= 1 << 30 && count % (1 << 30) == 0 { return "\(count >> 30) GiB" }
        return "\(count >> 20) MiB"
    }
}
