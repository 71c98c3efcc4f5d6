import ArgumentParser
import PHRModel
import PHRRender

/// `phr-render extract`: the child process that reads PDFs for `phr doc add`. Only
/// `TextExtractor` starts it, with its socket as descriptor 3 (see PHRModel's WorkerProtocol).
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Read PDFs for phr in a sandboxed child process (started by phr doc add)."
    )

    @Option(help: "Address-space and data-segment limit, in bytes.")
    var memoryBytes: Int

    @Option(help: "CPU seconds allowed for opening a document and for each page.")
    var cpuSecondsPerStep: Int

    @Option(help: "CPU seconds this worker may use in all (its hard limit).")
    var cpuLifetimeSeconds: Int

    @Option(help: "Documents to read before exiting so a fresh worker takes over.")
    var documents: Int

    @Option(help: "The longest page text to send, in UTF-8 bytes.")
    var pageTextBytes: Int

    func validate() throws {
        guard memoryBytes > 0, cpuSecondsPerStep > 0, cpuLifetimeSeconds >= cpuSecondsPerStep,
              documents > 0, pageTextBytes > 0 else {
            throw ValidationError("every limit must be positive, and the CPU lifetime at least one step")
        }
    }

    func run() throws {
        ExtractionWorker.run(ExtractionWorker.Settings(
            memoryBytes: memoryBytes, cpuSecondsPerStep: cpuSecondsPerStep, cpuLifetimeSeconds: cpuLifetimeSeconds,
            documentsPerWorker: documents, maximumPageTextBytes: pageTextBytes))
    }
}
