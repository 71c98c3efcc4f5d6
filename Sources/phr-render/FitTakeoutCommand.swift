import ArgumentParser
import PHRModel
import PHRRender

/// `phr-render fit-takeout`: the child process that reads Google Fit's Takeout for `phr
/// import`. Only PHRCore's HealthExportImport starts it, with the .zip, the folder or the CSV
/// as descriptor 3 and its messages on standard output (see HealthExportWorkerSettings).
struct FitTakeoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit-takeout",
        abstract: "Read Google Fit's Takeout in a sandboxed child process (started by phr import)."
    )

    @OptionGroup var options: PhoneExportOptions

    func run() throws {
        FitTakeoutWorker.run(options.settings)
    }
}
