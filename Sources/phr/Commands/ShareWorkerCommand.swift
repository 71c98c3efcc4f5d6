import ArgumentParser
import PHRCore

/// `phr __share-worker`: the child process that draws share bundles. Hidden; only
/// `ShareRenderer` starts it, with the job on standard input and the documents as descriptors
/// 4 onwards (see PHRCore's ShareWorker).
struct ShareWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "__share-worker",
        abstract: "Draw a share bundle in a sandboxed child process (internal).",
        shouldDisplay: false
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
