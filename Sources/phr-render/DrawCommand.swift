import ArgumentParser
import PHRModel
import PHRRender

/// `phr-render draw`: the child process that draws share bundles, emergency cards and reports.
/// Only `ShareRenderer` starts it, with the job on standard input and the documents as
/// descriptors 4 onwards (see PHRModel's RenderWorkerSettings).
struct DrawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draw",
        abstract: "Draw a share bundle, emergency card or report in a sandboxed child process (started by phr)."
    )

    @Option(help: "How many documents follow, as descriptors 4 onwards.")
    var documents: Int

    @Option(help: "Address-space and data-segment limit, in bytes.")
    var memoryBytes: Int

    @Option(help: "CPU seconds allowed.")
    var cpuSeconds: Int

    func validate() throws {
        guard documents >= 0, memoryBytes > 0, cpuSeconds > 0 else {
            throw ValidationError("the document count must not be negative and every limit must be positive")
        }
    }

    func run() throws {
        ShareWorker.run(ShareWorker.Settings(documents: documents, memoryBytes: memoryBytes, cpuSeconds: cpuSeconds))
    }
}
