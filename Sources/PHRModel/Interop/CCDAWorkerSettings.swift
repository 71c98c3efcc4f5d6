/// How phr starts the C-CDA reader (`phr-render ccda`, PHRRender's `CCDAWorker`): its limits,
/// passed on its command line, and the descriptors it is given.
///
/// Descriptors: 0 the document (a memory file), 1 the result (a pipe: JSON lines, each a
/// `CCDAReadMessage`, the entries as they are read and the `CCDAReadResult` last), 2 /dev/null.
public struct CCDAWorkerSettings: Equatable, Sendable {
    /// RLIMIT_AS and RLIMIT_DATA, in bytes.
    public var memoryBytes: Int
    /// RLIMIT_CPU, in seconds.
    public var cpuSeconds: Int
    /// The largest document read.
    public var maximumBytes: Int

    public init(memoryBytes: Int, cpuSeconds: Int, maximumBytes: Int) {
        self.memoryBytes = memoryBytes
        self.cpuSeconds = cpuSeconds
        self.maximumBytes = maximumBytes
    }

    public static let subcommand = "ccda"
    public static let documentDescriptor: Int32 = 0
    public static let resultDescriptor: Int32 = 1

    /// The worker's argv after the executable; phr-render's `ccda` command declares these options.
    package var arguments: [String] {
        [Self.subcommand, "--memory-bytes", String(memoryBytes), "--cpu-seconds", String(cpuSeconds),
         "--maximum-bytes", String(maximumBytes)]
    }
}
