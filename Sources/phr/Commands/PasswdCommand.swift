import ArgumentParser
import Foundation
import PHRCore

struct PasswdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd",
        abstract: "Change the vault passphrase (or replace the recovery key).",
        discussion: """
            Asks for the current passphrase or the recovery key, then the new passphrase twice
            (or reads it from PHR_NEW_PASSPHRASE_FILE). Only keys.json is rewritten: the data stays
            encrypted under the same master key. Any 'phr unlock' is ended.
            """
    )

    @OptionGroup var vault: VaultOptions

    @Flag(name: .customLong("new-recovery-key"), help: "Replace the recovery key instead of the passphrase, and print the new one.")
    var newRecoveryKey = false

    func run() throws {
        let location = vault.location
        let keyFile = try Vault.readKeyFile(at: location)
        let current = try VaultAccess.secret(for: location, prompt: "Current passphrase or recovery key: ")
        // Verify before asking for the new passphrase, so a typo is reported at once.
        _ = try Vault.unlockMasterKey(keyFile: keyFile, secret: current)
        if newRecoveryKey {
            let text = try Vault.replaceRecoveryKey(at: location, current: current)
            UnlockCache.clear(vaultID: keyFile.vaultID)
            Console.note("the old recovery key no longer opens the vault; the new one follows, shown only now:")
            Console.out(text)
            return
        }
        let new: SecretBytes
        if let given = try PassphraseSource.new(environment: VaultAccess.environment) {
            new = given
        } else if let typed = try PassphrasePrompt.askNew("New passphrase: ") {
            new = typed
        } else {
            throw VaultError.passphraseSource("no new passphrase: there is no terminal to ask on and PHR_NEW_PASSPHRASE_FILE is unset")
        }
        try Vault.changePassphrase(at: location, current: current, new: new)
        UnlockCache.clear(vaultID: keyFile.vaultID)
        Console.note("passphrase changed; the recovery key still works")
    }
}
