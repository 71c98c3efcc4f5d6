import ArgumentParser
import Foundation
import PHRService

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new encrypted vault.",
        discussion: """
            Asks for a passphrase twice (or reads PHR_PASSPHRASE_FILE, PHR_PASSPHRASE_COMMAND or
            PHR_PASSPHRASE) and prints a recovery key once. Keep the recovery key away from this
            computer: it opens the vault if the passphrase is lost, and cannot be shown again.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("profile"), help: "The name of the first profile, whose records commands use by default.")
    var profileName: String = Profiles.initialName

    func run() throws {
        let location = vault.location
        if FileSystem.exists(location.root) && !(FileSystem.isDirectory(location.root) && FileSystem.contents(of: location.root).isEmpty) {
            throw VaultError.alreadyExists(path: location.root)
        }
        let passphrase: SecretBytes
        if let given = try PassphraseSource.current(environment: VaultAccess.environment) {
            passphrase = given
        } else if let typed = try PassphrasePrompt.askNew("New passphrase for the vault: ") {
            passphrase = typed
        } else {
            throw VaultError.passphraseSource("no passphrase: there is no terminal to ask on and PHR_PASSPHRASE_FILE, PHR_PASSPHRASE_COMMAND and PHR_PASSPHRASE are unset")
        }
        let (created, recoveryKey) = try Vault.create(at: location, passphrase: passphrase, profileName: profileName)
        if output.json {
            struct Created: Encodable {
                let path: String
                let vault_id: String
                let recovery_key: String
            }
            try Console.json(Created(path: created.location.root, vault_id: created.keyFile.vaultID, recovery_key: recoveryKey))
            return
        }
        Console.note("created a vault at \(created.location.root)")
        Console.note("your recovery key follows. It opens the vault if the passphrase is lost and is shown only now:")
        Console.note("write it down and keep it away from this computer")
        Console.out(recoveryKey)
    }
}
