import CPHRSystem
import Foundation
import Glibc

extension SandboxReport {
    /// Starts `phr-render sandbox` and reads its report; throws a reason when it cannot.
    public static func probe(executable: String = RenderHelper.path, timeout: Double = 10) throws -> SandboxReport {
        var ends: [Int32] = [0, 0]
        guard phr_pipe_cloexec(&ends) == 0 else { throw ProbeFailure(reason: "no pipe (errno \(errno))") }
        let pid: pid_t
        do {
            pid = try Sandbox.spawn(executable: executable, arguments: ["sandbox"], environment: Sandbox.workerEnvironment(),
                                    descriptors: [0: .devNull(flags: O_RDONLY), 1: .descriptor(ends[1]), 2: .devNull(flags: O_WRONLY)])
        } catch let error as Sandbox.SpawnError {
            close(ends[0])
            close(ends[1])
            throw ProbeFailure(reason: "\(RenderHelper.name) cannot be started (\(String(cString: strerror(error.code))))")
        }
        close(ends[1])
        defer { close(ends[0]) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Monotonic.now() + timeout
        while output.count < 1 << 16 {
            var poller = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, (deadline - Monotonic.now()) * 1000))
            let ready = poll(&poller, 1, left)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(ends[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        var status: Int32 = 0
        if Monotonic.now() >= deadline { kill(pid, SIGKILL) }
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let how = WorkerTermination.how(status: status, cpuSeconds: 0) {
            throw ProbeFailure(reason: "the sandbox check \(how)")
        }
        guard let report = try? JSONDecoder().decode(SandboxReport.self, from: Data(output)) else {
            throw ProbeFailure(reason: "the sandbox check gave no report")
        }
        return report
    }

    public struct ProbeFailure: Error, Equatable {
        public let reason: String
    }
}
