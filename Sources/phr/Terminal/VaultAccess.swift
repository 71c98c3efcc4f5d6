import Foundation
import PHRService

/// Opens the vault for a command through PHRService's `Session`: from the unlock cache, else a
/// passphrase from the environment, else a prompt on the terminal, else "locked" (exit 77).
///
/// In a `phr serve` agent answering the CLI, the agent's open vault (`served`, bound for one
/// command) stands in for opening it.
enum VaultAccess {
    @TaskLocal static var served: Vault?

    static var environment: [String: String] { ProcessEnvironment.variables }

    /// The environment's passphrase sources, then the terminal.
    static var unlocking: Unlocking { Unlocking(environment: environment, prompt: PassphrasePrompt.ask) }

    /// A passphrase (or recovery key) for `location`, from the environment or the terminal.
    static func secret(for location: VaultLocation, prompt: String = Unlocking.vaultPrompt) throws -> SecretBytes {
        guard let secret = try unlocking.secret(prompt: prompt) else { throw VaultError.locked(path: location.root) }
        return secret
    }

    /// A passphrase (or recovery key) that opens the vault's master key: from the environment,
    /// else the terminal, asked again after a wrong one (`Unlocking.attempts` in all).
    static func verifiedSecret(for location: VaultLocation, keyFile: KeyFile, prompt: String) throws -> SecretBytes {
        let secret = try unlocking.verified(prompt: prompt) { secret -> SecretBytes in
            _ = try Vault.unlockMasterKey(keyFile: keyFile, secret: secret)
            return secret
        }
        guard let secret else { throw VaultError.locked(path: location.root) }
        return secret
    }

    /// The working keys, from the cache or a passphrase, checked against the key file.
    static func keys(for location: VaultLocation, keyFile: KeyFile) throws -> VaultKeys {
        guard let keys = try Session.keys(for: location, keyFile: keyFile, unlocking: unlocking) else {
            throw VaultError.locked(path: location.root)
        }
        return keys
    }

    /// Opens the vault and resolves the profile the command works on.
    static func open(_ location: VaultLocation, profile: ProfileOptions) throws -> (Vault, Profile) {
        if let served {
            let session = try Session.on(served, profileName: profile.requested)
            return (session.vault, session.profile)
        }
        let session = try Session.open(location, profileName: profile.requested, unlocking: unlocking)
        return (session.vault, session.profile)
    }

    static func open(_ location: VaultLocation) throws -> Vault {
        if let served { return served }
        return try Session.openVault(location, unlocking: unlocking)
    }
}
