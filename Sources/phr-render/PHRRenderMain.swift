import ArgumentParser
import CPHRSystem
import Foundation
import PHRModel

/// phr-render: the program phr starts to read and draw PDFs, apart from the process that holds
/// the vault's keys (PHRModel's RenderHelper says why). Not meant to be run by hand: each
/// subcommand expects the descriptors phr sets up.
@main
struct PHRRenderMain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phr-render",
        abstract: "Reads and draws PDFs and reads C-CDA XML and phone exports for phr in sandboxed child processes; phr starts it, people do not.",
        version: PHRVersion.string,
        subcommands: [ExtractCommand.self, DrawCommand.self, CCDACommand.self, HealthExportCommand.self, FitTakeoutCommand.self, SandboxCommand.self]
    )

    static func main() {
        // It holds decrypted documents: no core file, nothing readable by others.
        _ = phr_disable_core_dumps()
        umask(0o077)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
