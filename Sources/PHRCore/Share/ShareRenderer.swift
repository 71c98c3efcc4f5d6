import Foundation
import CPHRSystem
import Glibc

/// Runs the drawing worker (`phr-render draw`, PHRRender's `ShareWorker`) for one PDF (a share
/// bundle, an emergency card or a report) and streams what it draws into the output file: the
/// parent side of the sandbox.
///
/// The worker is started by `Sandbox.spawn` with its documents as descriptors 4 onwards and an
/// environment of its own: nothing of phr's, so PHR_PASSPHRASE and the like never reach a
/// process that parses documents. The parent never parses what the worker sends: the PDF bytes go straight
/// to the file, and the short JSON result is decoded by Foundation.
public struct ShareRenderer: Sendable {
    /// phr-render; by default the one beside the running program.
    public var workerExecutable: String
    /// The worker's address-space limit: poppler and cairo with a large scan need room.
    public var memoryBytes: Int
    public var cpuSeconds: Int
    /// Wall-clock seconds before the worker is killed.
    public var timeout: Double

    public init(workerExecutable: String = RenderHelper.path, memoryBytes: Int = 3 << 30, cpuSeconds: Int = 600,
                timeout: Double = 1200) {
        self.workerExecutable = workerExecutable
        self.memoryBytes = memoryBytes
        self.cpuSeconds = cpuSeconds
        self.timeout = timeout
    }

    /// The worker's whole environment: the Swift backtracer off (a crash report is slow and could
    /// print memory), and in debug builds the test hook that makes it crash.
    var workerEnvironment: [String] {
        var extra: [String] = []
        #if DEBUG
        if let fault = ProcessEnvironment["PHR_TEST_SHARE_WORKER_FAULT"] {
            extra.append("PHR_TEST_SHARE_WORKER_FAULT=\(fault)")
        }
        #endif
        return Sandbox.workerEnvironment(extra)
    }

    /// Draws `job` with `documents` (memory files, in the job's order) into `output`.
    func render(_ job: RenderJob, documents: [FileDescriptor] = [], into output: OutputFile) throws -> ShareRenderResult {
        let what: String
        switch job {
        case .share: what = "the bundle"
        case .emergency: what = "the emergency card"
        case .report: what = "the report"
        }
        let jobFile = try MemoryFile.make(label: "phr-share-job")
        try jobFile.write(Array(try JSONEncoder().encode(job)))
        guard lseek(jobFile.fd, 0, SEEK_SET) == 0 else { throw POSIXIOError(operation: "seek", path: jobFile.path, code: errno) }
        let pdfPipe = try PipeEnds.make()
        let resultPipe = try PipeEnds.make()
        let settings = RenderWorkerSettings(documents: documents.count, memoryBytes: memoryBytes, cpuSeconds: cpuSeconds)
        let pid = try spawn(settings: settings, job: jobFile.fd, pdf: pdfPipe.write, result: resultPipe.write,
                            documents: documents.map(\.fd))
        close(pdfPipe.write)
        close(resultPipe.write)
        defer {
            close(pdfPipe.read)
            close(resultPipe.read)
        }
        var result: [UInt8] = []
        do {
            try drain(pdf: pdfPipe.read, result: resultPipe.read, into: output, collecting: &result, deadline: Monotonic.now() + timeout,
                      what: what)
        } catch {
            Glibc.kill(pid, SIGKILL)
            _ = Self.wait(pid)
            throw error
        }
        let status = Self.wait(pid)
        if let how = WorkerTermination.how(status: status, cpuSeconds: cpuSeconds) {
            // A crash may be a damaged document's doing; a stop by the sandbox or a failed exit is not.
            let signal = WorkerTermination(status: status).signal
            let blame = signal != nil && signal != SIGSYS && job.documentCount > 0 ? "; one of the documents may be damaged" : ""
            throw ShareError.renderer(reason: "the process drawing \(what) \(how)\(blame)")
        }
        guard let decoded = try? JSONDecoder().decode(ShareRenderResult.self, from: Data(result)) else {
            throw ShareError.renderer(reason: "the process drawing \(what) failed (exit status 0)")
        }
        return decoded
    }

    /// Copies the PDF pipe into `output` and collects the result pipe, until both are closed.
    private func drain(pdf: Int32, result: Int32, into output: OutputFile, collecting collected: inout [UInt8], deadline: Double,
                       what: String) throws {
        var open: [Int32] = [pdf, result]
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        while !open.isEmpty {
            let remaining = deadline - Monotonic.now()
            guard remaining > 0 else {
                throw ShareError.renderer(reason: "the process drawing \(what) took longer than \(Int(timeout)) seconds")
            }
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(remaining, 1) * 1000))
            if ready < 0 {
                if errno == EINTR { continue }
                throw POSIXIOError(operation: "poll", path: "the drawing worker", code: errno)
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw POSIXIOError(operation: "read", path: "the drawing worker", code: errno)
                }
                if count == 0 {
                    open.removeAll { $0 == descriptor.fd }
                } else if descriptor.fd == pdf {
                    try buffer.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                } else {
                    collected.append(contentsOf: buffer[0..<count])
                    guard collected.count <= 1 << 20 else {
                        throw ShareError.renderer(reason: "the process drawing \(what) sent an oversized result")
                    }
                }
            }
        }
    }

    private func spawn(settings: RenderWorkerSettings, job: Int32, pdf: Int32, result: Int32, documents: [Int32]) throws -> pid_t {
        var descriptors: [Int32: Sandbox.Source] = [
            RenderWorkerSettings.jobDescriptor: .descriptor(job),
            RenderWorkerSettings.outputDescriptor: .descriptor(pdf),
            RenderWorkerSettings.resultDescriptor: .descriptor(result),
            2: .devNull(flags: O_WRONLY),
        ]
        for (offset, document) in documents.enumerated() {
            descriptors[RenderWorkerSettings.firstDocumentDescriptor + Int32(offset)] = .descriptor(document)
        }
        do {
            return try Sandbox.spawn(executable: workerExecutable, arguments: settings.arguments, environment: workerEnvironment,
                                     descriptors: descriptors)
        } catch let error as Sandbox.SpawnError {
            throw ShareError.helperUnavailable(path: workerExecutable, code: error.code)
        }
    }

    /// Waits for `pid` and returns its wait status.
    private static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }
}

/// A pipe whose two ends are close-on-exec from the start (the child gets its end by dup2,
/// which clears it): phr_pipe_cloexec, as no other thread's child may inherit them.
private enum PipeEnds {
    static func make() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard phr_pipe_cloexec(&ends) == 0 else { throw POSIXIOError(operation: "create", path: "a pipe", code: errno) }
        return (ends[0], ends[1])
    }
}
