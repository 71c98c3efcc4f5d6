import ArgumentParser
import PHRModel
import PHRRender

/// `phr-render ccda`: the child process that reads C-CDA documents for `phr import`. Only
/// `CCDAReaderProcess` starts it, with the document on standard input and the result on
/// standard output (see PHRModel's CCDAWorkerSettings).
struct CCDACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ccda",
        abstract: "Read a C-CDA document for phr import in a sandboxed child process (started by phr)."
    )

    @Option(help: "Address-space and data-segment limit, in bytes.")
    var memoryBytes: Int

    @Option(help: "CPU seconds allowed.")
    var cpuSeconds: Int

    @Option(help: "The largest document read, in bytes.")
    var maximumBytes: Int

    func validate() throws {
        guard memoryBytes > 0, cpuSeconds > 0, maximumBytes > 0 else { throw ValidationError("every limit must be positive") }
    }

    func run() throws {
        CCDAWorker.run(CCDAWorkerSettings(memoryBytes: memoryBytes, cpuSeconds: cpuSeconds, maximumBytes: maximumBytes))
    }
}
