import ArgumentParser
import Foundation
import PHRCore

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write the whole vault to one encrypted, self-verifying file.",
        discussion: """
            The backup holds the vault as it is on disk (already encrypted) and is authenticated as
            a whole. It is consistent even while another phr command writes. It opens with the
            passphrase the vault had when the backup was made, or the recovery key.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("out"), help: "The backup file to write.")
    var out: String

    @Flag(help: "Replace the backup file if it exists.")
    var force = false

    func run() throws {
        try vault.refuseOutput(out, option: "--out")
        let opened = try VaultAccess.open(vault.location)
        let bar = Progress("backing up")
        let summary = try VaultBackup.write(opened, to: VaultLocation(path: out).root, overwrite: force) { done, total in
            bar.update(done: done, total: total)
        }
        bar.finish()
        if output.json {
            try Console.json(summary)
        } else {
            Console.note("wrote \(summary.path) (\(Console.bytes(summary.bytes)): database and \(summary.blobs) blobs)")
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
            backup restores nothing.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The backup file written by 'phr backup'.")
    var file: String

    func run() throws {
        let location = vault.location
        let bar = Progress("restoring")
        let summary = try VaultBackup.restore(from: VaultLocation(path: file).root, to: location, secret: { _ in
            try VaultAccess.secret(for: location, prompt: "Passphrase of the backup (or recovery key): ")
        }) { done, total in
            bar.update(done: done, total: total)
        }
        bar.finish()
        if output.json {
            try Console.json(summary)
        } else {
            Console.note("restored \(summary.path) (\(summary.blobs) blobs); every page and blob verified")
        }
    }
}
