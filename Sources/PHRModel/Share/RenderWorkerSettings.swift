/// How phr starts the drawing worker (`phr-render draw`, PHRRender's `ShareWorker`): its
/// limits, passed on its command line, and the descriptors it is given.
///
/// Descriptors: 0 the job (JSON, a memory file), 1 the PDF out (a pipe), 2 /dev/null, 3 the
/// result (JSON, a pipe), 4 onwards the documents (memory files), in the job's order.
public struct RenderWorkerSettings: Equatable, Sendable {
    /// How many document descriptors follow descriptor 3.
    public var documents: Int
    /// RLIMIT_AS and RLIMIT_DATA, in bytes.
    public var memoryBytes: Int
    /// RLIMIT_CPU, in seconds.
    public var cpuSeconds: Int

    public init(documents: Int, memoryBytes: Int, cpuSeconds: Int) {
        self.documents = documents
        self.memoryBytes = memoryBytes
        self.cpuSeconds = cpuSeconds
    }

    public static let subcommand = "draw"
    public static let jobDescriptor: Int32 = 0
    public static let outputDescriptor: Int32 = 1
    public static let resultDescriptor: Int32 = 3
    public static let firstDocumentDescriptor: Int32 = 4
    /// A job is the records of one person: a few megabytes at most.
    public static let maximumJobBytes = 256 << 20

    /// The worker's argv after the executable; phr-render's `draw` command declares these options.
    package var arguments: [String] {
        [Self.subcommand, "--documents", String(documents), "--memory-bytes", String(memoryBytes), "--cpu-seconds", String(cpuSeconds)]
    }
}
