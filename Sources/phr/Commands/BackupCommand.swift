import ArgumentParser
import Foundation
import PHRService

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write the whole vault to one encrypted, self-verifying file.",
        discussion: """
            The backup holds the vault as it is on disk (already encrypted) and is authenticated as
            a whole. It is consistent even while another phr command writes. It opens with the
            passphrase the vault had when the backup was made, or the recovery key.

            Every page and every document is authenticated as it is copied: a damaged vault
            gives no backup (exit 80, naming the damage) unless --skip-damaged, which writes what
            is sound, leaves damaged documents out, and says what it left out.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("out"), help: "The backup file to write.")
    var out: String

    @Flag(help: "Replace the backup file if it exists.")
    var force = false

    @Flag(help: "Back up what is sound when the vault is damaged, leaving damaged documents out (restore it with --partial).")
    var skipDamaged = false

    func run() throws {
        try vault.refuseOutput(out, option: "--out")
        let opened = try VaultAccess.open(vault.location)
        let bar = Progress("backing up")
        let summary: VaultBackup.Summary
        do {
            summary = try VaultBackup.write(opened, to: VaultLocation(path: out).root, overwrite: force,
                                            skipDamaged: skipDamaged) { done, total in
                bar.update(done: done, total: total)
            }
        } catch VaultError.integrity(let problems) {
            bar.finish()
            for problem in problems.dropLast() { Console.error("vault integrity check failed: \(problem)") }
            Console.error("vault integrity check failed: \(problems.last ?? "unknown damage"); no backup was written",
                          hint: "'phr backup --skip-damaged' writes what is sound and lists what it leaves out; 'phr check' lists every damaged part")
            throw ExitCode(ExitStatus.integrity.rawValue)
        }
        bar.finish()
        for item in summary.damage { Console.warning(item) }
        if output.json {
            try Console.json(summary)
        } else {
            let partial = summary.damage.isEmpty ? "" : "; incomplete: \(summary.damage.count) damaged part(s), listed above"
            Console.note("wrote \(summary.path) (\(Console.bytes(summary.bytes)): database and \(summary.blobs) blobs\(partial))")
        }
    }
}

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into a new vault directory (which must not exist or be empty).",
        discussion: """
            Asks for the passphrase the vault had when the backup was made, or the recovery key.
            Everything is verified before the vault appears at its path: a damaged or altered
            backup restores nothing. A backup written with --skip-damaged restores only with
            --partial, which says what the backup left out.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The backup file written by 'phr backup'.")
    var file: String

    @Flag(help: "Restore a backup written with --skip-damaged: its sound part, with what it left out listed.")
    var partial = false

    func run() throws {
        let location = vault.location
        let bar = Progress("restoring")
        let summary = try VaultBackup.restore(from: VaultLocation(path: file).root, to: location, partial: partial, secret: { _ in
            try VaultAccess.secret(for: location, prompt: "Passphrase of the backup (or recovery key): ")
        }) { done, total in
            bar.update(done: done, total: total)
        }
        bar.finish()
        for item in summary.damage { Console.warning("the backup is incomplete: \(item)") }
        for problem in summary.check.problems { Console.warning("restored vault: \(problem)") }
        if output.json {
            try Console.json(summary)
        } else if summary.damage.isEmpty && summary.check.isHealthy {
            Console.note("restored \(summary.path) (\(summary.blobs) blobs); every page and blob verified")
        } else {
            Console.note("restored the sound part of the backup into \(summary.path) (\(summary.blobs) blobs); what is missing is listed above")
        }
    }
}
