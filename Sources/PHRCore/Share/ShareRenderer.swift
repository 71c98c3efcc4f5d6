import Foundation
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
        return WorkerClient.environment(extra)
    }

    /// Draws `job` with `documents` (memory files, in the job's order) into `output`.
    func render(_ job: RenderJob, documents: [FileDescriptor] = [], into output: OutputFile) throws -> ShareRenderResult {
        try render(job, documents: documents) { try output.write($0) }
    }

    /// Draws `job` with `documents`, handing what the worker writes to `sink` as it comes.
    func render(_ job: RenderJob, documents: [FileDescriptor] = [], sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> ShareRenderResult {
        let what: String
        switch job {
        case .share: what = "the bundle"
        case .emergency: what = "the emergency card"
        case .report: what = "the report"
        case .pages: what = "the document's pages"
        }
        let jobFile = try MemoryFile.make(label: "phr-share-job")
        try jobFile.write(Array(try JSONEncoder().encode(job)))
        guard lseek(jobFile.fd, 0, SEEK_SET) == 0 else { throw POSIXIOError(operation: "seek", path: jobFile.path, code: errno) }
        let memoryBytes = try ReaderMemory.limit(default: self.memoryBytes)
        let settings = RenderWorkerSettings(documents: documents.count, memoryBytes: memoryBytes, cpuSeconds: cpuSeconds)
        var inputs: [Int32: Sandbox.Source] = [RenderWorkerSettings.jobDescriptor: .descriptor(jobFile.fd)]
        for (offset, document) in documents.enumerated() {
            inputs[RenderWorkerSettings.firstDocumentDescriptor + Int32(offset)] = .descriptor(document.fd)
        }
        var result: [UInt8] = []
        let worker = WorkerClient(executable: workerExecutable, arguments: settings.arguments, environment: workerEnvironment,
                                  timeout: timeout, memoryBytes: memoryBytes)
        let ending: WorkerClient.Ending
        do {
            // The PDF goes straight to the file; the short JSON result is collected, within a bound.
            ending = try worker.run(inputs: inputs, outputs: [
                .init(descriptor: RenderWorkerSettings.outputDescriptor) { chunk in
                    try chunk.withUnsafeBytes { try sink($0) }
                },
                .init(descriptor: RenderWorkerSettings.resultDescriptor) { chunk in
                    result.append(contentsOf: chunk)
                    guard result.count <= 1 << 20 else {
                        throw ShareError.renderer(reason: "the process drawing \(what) sent an oversized result")
                    }
                },
            ])
        } catch WorkerClient.Failure.unavailable(let code) {
            throw ShareError.helperUnavailable(path: workerExecutable, code: code)
        } catch WorkerClient.Failure.timedOut(let seconds) {
            throw ShareError.renderer(reason: "the process drawing \(what) \(WorkerClient.Failure.tookLonger(seconds))")
        }
        if ending.memoryExhausted { throw ShareError.readerOutOfMemory(what: what, limit: memoryBytes) }
        if let how = WorkerTermination.how(ending, cpuSeconds: cpuSeconds, memoryBytes: memoryBytes) {
            // A crash may be a damaged document's doing; a stop by the sandbox or a failed exit is not.
            let signal = WorkerTermination(status: ending.status).signal
            let blame = signal != nil && signal != SIGSYS && !ending.memoryExhausted && job.documentCount > 0
                ? "; one of the documents may be damaged" : ""
            throw ShareError.renderer(reason: "the process drawing \(what) \(how)\(blame)")
        }
        guard let decoded = try? JSONDecoder().decode(ShareRenderResult.self, from: Data(result)) else {
            throw ShareError.renderer(reason: "the process drawing \(what) failed (exit status 0)")
        }
        return decoded
    }
}
