import Foundation
import PHRCore

/// Opens the vault for a command: from the unlock cache, else a passphrase from the environment,
/// else a prompt on the terminal, else "locked" (exit 77).
enum VaultAccess {
    static var environment: [String: String] { ProcessEnvironment.variables }

    /// A passphrase (or recovery key) for `location`, from the environment or the terminal.
    static func secret(for location: VaultLocation, prompt: String = "Passphrase for the phr vault: ") throws -> SecretBytes {
        if let secret = try PassphraseSource.current(environment: environment) { return secret }
        if let secret = try PassphrasePrompt.ask(prompt) { return secret }
        throw VaultError.locked(path: location.root)
    }

    /// The working keys, from the cache or a passphrase, checked against the key file.
    static func keys(for location: VaultLocation, keyFile: KeyFile) throws -> VaultKeys {
        if let cached = UnlockCache.load(vaultID: keyFile.vaultID), cached.keys.matches(keyFile) {
            return cached.keys
        }
        return try Vault.unlock(keyFile: keyFile, secret: secret(for: location))
    }

    /// Opens the vault and resolves the profile the command works on.
    static func open(_ location: VaultLocation, profile: ProfileOptions) throws -> (Vault, Profile) {
        let vault = try open(location)
        let chosen = try vault.database.read { db in try Profiles.resolve(db, name: profile.requested) }
        return (vault, chosen)
    }

    static func open(_ location: VaultLocation) throws -> Vault {
        let keyFile = try Vault.readKeyFile(at: location)
        return try Vault.open(at: location, keyFile: keyFile, keys: keys(for: location, keyFile: keyFile))
    }
}
