import ArgumentParser
import Foundation
import PHRService

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify the whole vault: every page, every document, every index.",
        discussion: """
            Authenticates every database page and every blob, then runs SQLite's integrity_check,
            the foreign-key check and each full-text index's integrity check. Exits 80 and names
            each damaged part if anything fails. It also looks for what interrupted commands left
            behind (blob files no record uses, unfinished writes, unfinished init or restore
            directories beside the vault): all encrypted, and removed by --repair.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Remove what interrupted commands left behind (never anything a record uses; only when no other phr process is writing).")
    var repair = false

    func run() throws {
        let location = vault.location
        let keyFile = try Vault.readKeyFile(at: location)
        let keys = try VaultAccess.keys(for: location, keyFile: keyFile)
        let bar = Progress("checking")
        let report = try VaultCheck.run(location: location, keyFile: keyFile, keys: keys, repair: repair) { phase, done, total in
            bar.update(done: done, total: total, detail: phase)
        }
        bar.finish()
        if output.json {
            try Console.json(report)
        }
        for warning in report.warnings { Console.warning(warning.cli) }
        guard report.isHealthy else {
            for problem in report.problems.dropLast() {
                Console.error("vault integrity check failed: \(problem)")
            }
            throw VaultError.integrity([report.problems.last!])
        }
        // The vault is sound; say also when the workers that read its documents are not confined.
        do {
            if let weakness = try SandboxReport.probe().weakness { Console.warning(weakness + " (SECURITY.md, \"The workers' sandbox\")") }
        } catch let failure as SandboxReport.ProbeFailure {
            Console.warning("the workers' sandbox could not be checked: \(failure.reason); \(RenderHelper.installHint)")
        }
        if !output.json {
            Console.out("ok: \(report.pagesChecked) pages and \(report.blobsChecked) blobs (\(Console.bytes(report.blobBytesChecked))) authenticated, SQLite integrity_check ok, \(report.ftsTablesChecked) full-text indexes consistent")
        }
    }
}
