import CPHRSystem
import Foundation
import Glibc

/// A started phr-render worker as the parent holds it: its pid, reaped exactly once. A child
/// dropped before it was reaped is killed and reaped, so no path leaves a worker running or a
/// zombie behind.
final class WorkerChild {
    let pid: pid_t
    private(set) var status: Int32?
    /// Whether `reap(by:)` had to kill it at its deadline.
    private(set) var killedAtDeadline = false
    /// Its peak resident memory, once reaped (the kernel's ru_maxrss).
    private(set) var peakBytes = 0

    init(pid: pid_t) {
        self.pid = pid
    }

    deinit {
        if status == nil {
            Glibc.kill(pid, SIGKILL)
            _ = waitForExit()
        }
    }

    /// Sends SIGKILL (a hung worker, or one whose answer was refused).
    func kill() {
        if status == nil { Glibc.kill(pid, SIGKILL) }
    }

    /// Waits for the worker to exit until `deadline` (`Monotonic` seconds), then kills it;
    /// returns its wait status either way.
    func reap(by deadline: Double) -> Int32 {
        if let status { return status }
        var waited: Int32 = 0
        var usage = rusage()
        while Monotonic.now() < deadline {
            let result = wait4(pid, &waited, WNOHANG, &usage)
            if result == pid {
                status = waited
                peakBytes = Int(usage.ru_maxrss) * 1024
                return waited
            }
            if result < 0 && errno != EINTR { break }
            usleep(1000)
        }
        Glibc.kill(pid, SIGKILL)
        killedAtDeadline = true
        return waitForExit()
    }

    /// Waits for the worker to exit, however long it takes (after SIGKILL: at once).
    func waitForExit() -> Int32 {
        if let status { return status }
        var waited: Int32 = 0
        var usage = rusage()
        while wait4(pid, &waited, 0, &usage) < 0 {
            if errno != EINTR { break }
        }
        status = waited
        peakBytes = Int(usage.ru_maxrss) * 1024
        return waited
    }
}

/// The parent side of every one-shot phr-render worker (`draw`, `ccda`, `health-export`,
/// `fit-takeout`): spawn it confined with the given descriptors, read each of its output pipes
/// as it writes, and wait for it, all within one wall-clock deadline. Whatever goes wrong (a
/// handler refuses what the worker sent, a read fails, the deadline passes) the worker is killed
/// and reaped before the error reaches the caller. How it ended is the caller's to word, with
/// `WorkerTermination.how`. (The extraction worker, which takes one document after another over
/// a socket, is `WorkerProcess`, on the same `WorkerChild`.)
struct WorkerClient {
    var executable: String
    var arguments: [String]
    var environment: [String]
    /// Wall-clock seconds from the start to the worker's exit.
    var timeout: Double
    /// The address-space limit the worker was given (its arguments say so to it).
    var memoryBytes: Int

    /// How the worker ended: its wait status, and whether it ran out of memory.
    struct Ending {
        var status: Int32
        /// Its diagnostics name an allocation failure (glib, C++, the Swift runtime), or it
        /// crashed after using at least half of its limit: a reader's memory death, which
        /// otherwise reads as "crashed (SIGABRT)".
        var memoryExhausted: Bool
    }

    /// What its standard error is kept of: the end, to recognise a memory death by.
    static let diagnosticTailLimit = 4096

    /// True if `text`, a worker's last diagnostics, names an allocation failure.
    static func namesAllocationFailure(_ text: String) -> Bool {
        ["failed to allocate", "bad_alloc", "out of memory", "Cannot allocate memory", "Could not allocate memory"].contains { text.contains($0) }
    }

    /// Why the worker could not run to its end; the caller words it for its command.
    enum Failure: Error, Equatable {
        /// posix_spawn failed with `code` (phr-render is missing or not executable).
        case unavailable(code: Int32)
        /// The deadline passed; the worker was killed.
        case timedOut(seconds: Int)

        /// "took longer than 60 minutes", "took longer than 20 seconds".
        static func tookLonger(_ seconds: Int) -> String {
            seconds >= 120 && seconds % 60 == 0 ? "took longer than \(seconds / 60) minutes" : "took longer than \(seconds) seconds"
        }
    }

    /// An output pipe: the descriptor the worker writes it as, and what to do with each chunk.
    struct Output {
        var descriptor: Int32
        var take: (ArraySlice<UInt8>) throws -> Void
    }

    init(executable: String, arguments: [String], environment: [String], timeout: Double, memoryBytes: Int) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.timeout = timeout
        self.memoryBytes = memoryBytes
        #if DEBUG
        // The tests of the deadline: a worker made to hang (PHR_TEST_WORKER_HANG) and a short wait.
        if let seconds = ProcessEnvironment["PHR_TEST_WORKER_TIMEOUT"].flatMap(Double.init) { self.timeout = seconds }
        #endif
    }

    /// The environment of a worker: `Sandbox.workerEnvironment(extra)`, and in debug builds the
    /// hooks that make a worker hang after confining itself (`PHR_TEST_WORKER_HANG=SUBCOMMAND`)
    /// or fill its memory (`PHR_TEST_WORKER_EXHAUST=SUBCOMMAND`).
    static func environment(_ extra: [String] = []) -> [String] {
        var environment = Sandbox.workerEnvironment(extra)
        #if DEBUG
        if let hang = ProcessEnvironment["PHR_TEST_WORKER_HANG"] { environment.append("PHR_TEST_WORKER_HANG=\(hang)") }
        if let exhaust = ProcessEnvironment["PHR_TEST_WORKER_EXHAUST"] { environment.append("PHR_TEST_WORKER_EXHAUST=\(exhaust)") }
        #endif
        return environment
    }

    /// Runs the worker with `inputs` (descriptors the parent holds, by the number the worker
    /// gets them as) and a pipe for each of `outputs`; returns how it ended once every output
    /// has closed and it has exited. Its standard error goes to a pipe too, never to the
    /// terminal (a hostile file could make a parser print anything): the end is kept to tell a
    /// memory death.
    func run(inputs: [Int32: Sandbox.Source], outputs: [Output]) throws -> Ending {
        var tail: [UInt8] = []
        let diagnostics = Output(descriptor: 2) { chunk in
            tail.append(contentsOf: chunk)
            if tail.count > Self.diagnosticTailLimit { tail.removeFirst(tail.count - Self.diagnosticTailLimit) }
        }
        let outputs = outputs + [diagnostics]
        let deadline = Monotonic.now() + timeout
        var pipes: [(read: Int32, write: Int32)] = []
        defer { pipes.forEach { close($0.read) } }
        var descriptors = inputs
        for output in outputs {
            var ends: [Int32] = [-1, -1]
            guard phr_pipe_cloexec(&ends) == 0 else {
                pipes.forEach { close($0.write) }
                throw POSIXIOError(operation: "create", path: "a pipe", code: errno)
            }
            pipes.append((ends[0], ends[1]))
            descriptors[output.descriptor] = .descriptor(ends[1])
        }
        let child: WorkerChild
        do {
            child = WorkerChild(pid: try Sandbox.spawn(executable: executable, arguments: arguments, environment: environment,
                                                       descriptors: descriptors))
        } catch let error as Sandbox.SpawnError {
            pipes.forEach { close($0.write) }
            throw Failure.unavailable(code: error.code)
        }
        // The worker holds the write ends now: each pipe ends when it closes them or exits.
        pipes.forEach { close($0.write) }
        do {
            try drain(pipes.map(\.read), outputs, deadline: deadline)
        } catch {
            child.kill()
            _ = child.waitForExit()
            throw error
        }
        // All its outputs closed: it is exiting, or holds on without writing. It gets what is
        // left of the deadline, then SIGKILL.
        let status = child.reap(by: max(deadline, Monotonic.now() + 1))
        if child.killedAtDeadline { throw Failure.timedOut(seconds: Int(timeout)) }
        let signal = WorkerTermination(status: status).signal
        let crashed = signal.map { [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGKILL].contains($0) } ?? false
        let exhausted = status != 0 && (Self.namesAllocationFailure(String(decoding: tail, as: UTF8.self))
            || (crashed && child.peakBytes >= memoryBytes / 2))
        return Ending(status: status, memoryExhausted: exhausted)
    }

    /// Reads every pipe until all are closed or the deadline passes.
    private func drain(_ reads: [Int32], _ outputs: [Output], deadline: Double) throws {
        var open = Array(reads.indices)
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        while !open.isEmpty {
            let remaining = deadline - Monotonic.now()
            guard remaining > 0 else { throw Failure.timedOut(seconds: Int(timeout)) }
            var polled = open.map { pollfd(fd: reads[$0], events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), Int32(min(remaining, 1) * 1000))
            if ready < 0 {
                if errno == EINTR { continue }
                throw POSIXIOError(operation: "poll", path: "the \(arguments.first ?? "") worker", code: errno)
            }
            for (slot, entry) in zip(open, polled) where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(entry.fd, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw POSIXIOError(operation: "read", path: "the \(arguments.first ?? "") worker", code: errno)
                }
                if count == 0 {
                    open.removeAll { $0 == slot }
                } else {
                    try outputs[slot].take(buffer[0..<count])
                }
            }
        }
    }
}
