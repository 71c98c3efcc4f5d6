import ArgumentParser
import PHRModel
import PHRRender

/// The options phr gives every phone-export reader (HealthExportWorkerSettings.arguments).
struct PhoneExportOptions: ParsableArguments {
    @Option(help: "Address-space and data-segment limit, in bytes.")
    var memoryBytes: Int

    @Option(help: "CPU seconds allowed.")
    var cpuSeconds: Int

    @Option(help: "The IANA time zone whose days the entries are filed in (nights, a day's weight at noon).")
    var timeZone: String

    func validate() throws {
        guard memoryBytes > 0, cpuSeconds > 0, !timeZone.isEmpty else {
            throw ValidationError("every limit must be positive and the time zone named")
        }
    }

    var settings: HealthExportWorkerSettings {
        HealthExportWorkerSettings(memoryBytes: memoryBytes, cpuSeconds: cpuSeconds, timeZone: timeZone)
    }
}

/// `phr-render health-export`: the child process that reads an Apple Health export for
/// `phr import`. Only PHRCore's HealthExportImport starts it, with the file as descriptor 3
/// and its messages on standard output (see HealthExportWorkerSettings).
struct HealthExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health-export",
        abstract: "Read an Apple Health export in a sandboxed child process (started by phr import)."
    )

    @OptionGroup var options: PhoneExportOptions

    func run() throws {
        HealthExportWorker.run(options.settings)
    }
}
