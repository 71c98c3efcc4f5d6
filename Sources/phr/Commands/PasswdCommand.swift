import ArgumentParser
import Foundation
import PHRService

struct PasswdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd",
        abstract: "Change the vault passphrase (or replace the recovery key).",
        discussion: """
            Asks for the current passphrase or the recovery key, then the new passphrase twice
            (or reads it from PHR_NEW_PASSPHRASE_FILE); a wrong one, a short one or a mismatch is
            asked again, three times in all. Only keys.json is rewritten: the data stays encrypted
            under the same master key, so a 'phr unlock' (and a running 'phr serve') goes on until
            it ends; 'phr lock' ends it now.
            """
    )

    @OptionGroup var vault: VaultOptions

    @Flag(name: .customLong("new-recovery-key"), help: "Replace the recovery key instead of the passphrase, and print the new one.")
    var newRecoveryKey = false

    func run() throws {
        let location = vault.location
        let keyFile = try Vault.readKeyFile(at: location)
        // Verified before the new passphrase is asked for, so a typo is said (and asked again) at once.
        let current = try VaultAccess.verifiedSecret(for: location, keyFile: keyFile, prompt: "Current passphrase or recovery key: ")
        if newRecoveryKey {
            let text = try Vault.replaceRecoveryKey(at: location, current: current)
            Console.note("the old recovery key no longer opens the vault; the new one follows, shown only now:")
            Console.out(text)
            Self.sayUnlockGoesOn(location)
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
        Console.note("passphrase changed; the recovery key still works")
        Self.sayUnlockGoesOn(location)
    }

    /// Says that a `phr unlock` of the vault goes on (the keys it holds are the same), and how
    /// to end it now.
    static func sayUnlockGoesOn(_ location: VaultLocation) {
        guard let keyFile = try? Vault.readKeyFile(at: location), let cached = UnlockCache.load(vaultID: keyFile.vaultID),
              cached.keys.matches(keyFile) else { return }
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        Console.note("'phr unlock' goes on until \(formatter.string(from: cached.expires)); 'phr lock' ends it now")
    }
}
