import ArgumentParser
import PHRCore
import PHRRender

/// `phr-render fit-takeout`: the child process that reads Google Fit's Takeout for `phr
/// import`. Only PHRCore's HealthExportImport starts it, with the .zip, the folder or the CSV
/// as descriptor 3 and its messages on standard output (see HealthExportWorkerSettings).
struct FitTakeoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit-takeout",
        abstract: "Read Google Fit's Takeout in a sandboxed child process (started by phr import)."
    )

    @Option(help: "Address-space and data-segment limit, in bytes.")
    var memoryBytes: Int

    @Option(help: "CPU seconds allowed.")
    var cpuSeconds: Int

    @Option(help: "The IANA time zone whose noon a day's weight is filed at.")
    var timeZone: String

    func validate() throws {
        guard memoryBytes > 0, cpuSeconds > 0, !timeZone.isEmpty else {
            throw ValidationError("every limit must be positive and the time zone named")
        }
    }

    func run() throws {
        FitTakeoutWorker.run(HealthExportWorkerSettings(memoryBytes: memoryBytes, cpuSeconds: cpuSeconds, timeZone: timeZone,
                                                        subcommand: "fit-takeout"))
    }
}
