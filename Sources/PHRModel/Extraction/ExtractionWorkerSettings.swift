/// The limits an extraction worker (`phr-render extract`) applies to itself, passed on its
/// command line (they are not secret). The worker is `ExtractionWorker` in PHRRender.
public struct ExtractionWorkerSettings: Equatable, Sendable {
    public var memoryBytes: Int
    public var cpuSecondsPerStep: Int
    public var cpuLifetimeSeconds: Int
    public var documentsPerWorker: Int
    public var maximumPageTextBytes: Int

    public init(memoryBytes: Int, cpuSecondsPerStep: Int, cpuLifetimeSeconds: Int,
                documentsPerWorker: Int, maximumPageTextBytes: Int) {
        self.memoryBytes = memoryBytes
        self.cpuSecondsPerStep = cpuSecondsPerStep
        self.cpuLifetimeSeconds = cpuLifetimeSeconds
        self.documentsPerWorker = documentsPerWorker
        self.maximumPageTextBytes = maximumPageTextBytes
    }

    package init(_ limits: ExtractionLimits) {
        self.init(memoryBytes: limits.memoryBytes, cpuSecondsPerStep: limits.cpuSecondsPerStep,
                  cpuLifetimeSeconds: limits.workerLifetimeCPUSeconds,
                  documentsPerWorker: limits.documentsPerWorker,
                  maximumPageTextBytes: limits.maximumPageTextBytes)
    }

    /// The worker's argv after the executable; phr-render's `extract` command declares these options.
    package var arguments: [String] {
        [WorkerProtocol.subcommand,
         "--memory-bytes", String(memoryBytes),
         "--cpu-seconds-per-step", String(cpuSecondsPerStep),
         "--cpu-lifetime-seconds", String(cpuLifetimeSeconds),
         "--documents", String(documentsPerWorker),
         "--page-text-bytes", String(maximumPageTextBytes)]
    }
}
