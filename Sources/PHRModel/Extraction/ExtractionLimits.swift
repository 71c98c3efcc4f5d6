/// The resource limits of extraction worker processes.
///
/// A worker applies the memory and CPU limits to itself with setrlimit(2) before it reads
/// anything from a document; the parent enforces the wall-clock ones and SIGKILLs a worker that
/// overruns them. The limits are per step (opening the document, then each page) so that a
/// 2,000-page report is not cut short while a single hostile page still cannot hang phr.
public struct ExtractionLimits: Sendable, Equatable {
    /// RLIMIT_AS and RLIMIT_DATA of a worker, in bytes.
    public var memoryBytes: Int
    /// CPU seconds a worker may spend opening a document, and again on each page (RLIMIT_CPU,
    /// moved forward by the worker before each step).
    public var cpuSecondsPerStep: Int
    /// Wall-clock seconds the parent waits for the worker's next message before killing it.
    public var stepTimeout: Double
    /// Wall-clock seconds one document may take in all.
    public var documentTimeout: Double
    /// The longest page text a worker sends, in UTF-8 bytes; longer text is cut at a character
    /// boundary. A real page holds a few kilobytes.
    public var maximumPageTextBytes: Int
    /// Documents a worker handles before it exits and a fresh one takes over, so that memory
    /// fragmentation or leaks in poppler do not accumulate.
    public var documentsPerWorker: Int
    /// Worker processes run side by side in a batch.
    public var parallelWorkers: Int

    public init(memoryBytes: Int = 1 << 30, cpuSecondsPerStep: Int = 30, stepTimeout: Double = 60,
                documentTimeout: Double = 900, maximumPageTextBytes: Int = 1 << 20,
                documentsPerWorker: Int = 500, parallelWorkers: Int = 2) {
        self.memoryBytes = memoryBytes
        self.cpuSecondsPerStep = cpuSecondsPerStep
        self.stepTimeout = stepTimeout
        self.documentTimeout = documentTimeout
        self.maximumPageTextBytes = maximumPageTextBytes
        self.documentsPerWorker = documentsPerWorker
        self.parallelWorkers = parallelWorkers
    }

    /// 1 GiB, 30 CPU seconds and 60 s per step, 15 minutes per document, two workers (the
    /// machines phr targets have two cores).
    public static let `default` = ExtractionLimits()

    /// A worker's total CPU budget (its hard RLIMIT_CPU); it retires before coming close.
    var workerLifetimeCPUSeconds: Int { max(3600, cpuSecondsPerStep * 8) }
}
