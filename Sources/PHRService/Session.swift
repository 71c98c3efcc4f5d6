import Foundation
import PHRCore

/// How a front end lets the vault be unlocked when `phr unlock` has not: the passphrase sources
/// of the environment (`PHR_PASSPHRASE_FILE`, `PHR_PASSPHRASE_COMMAND`, `PHR_PASSPHRASE`, in
/// that order), then whoever `prompt` asks (the CLI: the terminal; a web UI: its unlock form;
/// nil: nobody, and a locked vault stays locked).
public struct Unlocking {
    public var environment: [String: String]
    /// Asks for the passphrase (or recovery key) with the given words; nil when no one can answer.
    public var prompt: ((String) throws -> SecretBytes?)?

    public init(environment: [String: String] = ProcessEnvironment.variables, prompt: ((String) throws -> SecretBytes?)?) {
        self.environment = environment
        self.prompt = prompt
    }

    /// The environment's sources only: for work that must never wait for a person (reminders
    /// sent from a timer).
    public static var withoutPrompt: Unlocking { Unlocking(prompt: nil) }

    /// The words the prompt shows for the vault's own passphrase.
    public static let vaultPrompt = "Passphrase (or recovery key) for the phr vault: "
    /// The words after a typed passphrase did not open the vault.
    public static let retryPrompt = "That did not open the vault. Passphrase (or recovery key), again: "
    /// How many times a person is asked before "wrong passphrase" (a variable or file: once).
    public static let attempts = 3

    /// A passphrase (or recovery key) that `accept` takes: from the environment (once), else
    /// the prompt, asked again after a wrong one up to `attempts` times; nil when no one could be
    /// asked. `accept` throws `VaultError.wrongPassphrase` for one that does not open the vault.
    public func verified<T>(prompt words: String = Unlocking.vaultPrompt, _ accept: (SecretBytes) throws -> T) throws -> T? {
        if let secret = try PassphraseSource.current(environment: environment) { return try accept(secret) }
        guard let prompt else { return nil }
        var words = words
        for attempt in 1...Self.attempts {
            guard let secret = try prompt(words) else { return nil }
            do {
                return try accept(secret)
            } catch VaultError.wrongPassphrase where attempt < Self.attempts {
                words = Self.retryPrompt
            }
        }
        throw VaultError.wrongPassphrase
    }

    /// A passphrase (or recovery key): from the environment, else the prompt; nil when neither
    /// gave one.
    public func secret(prompt words: String = Unlocking.vaultPrompt) throws -> SecretBytes? {
        if let secret = try PassphraseSource.current(environment: environment) { return secret }
        return try prompt?(words)
    }
}

/// One opened vault, the profile a request works on, and its clock: what every command, HTTP
/// request or MCP call gets, instead of opening the vault and building stores itself.
///
/// Opening follows one order everywhere: the keys `phr unlock` cached for this vault (if they
/// still match its key file), else a passphrase from `Unlocking`, else `VaultError.locked`
/// (exit 77). The profile is the one named, else the default.
public struct Session {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    public var location: VaultLocation { vault.location }

    /// The working keys of the vault at `location`, from the unlock cache or `unlocking`.
    /// nil when neither gave any (the vault is locked and nobody could be asked).
    public static func keys(for location: VaultLocation, keyFile: KeyFile, unlocking: Unlocking) throws -> VaultKeys? {
        if let cached = UnlockCache.load(vaultID: keyFile.vaultID), cached.keys.matches(keyFile) {
            return cached.keys
        }
        return try unlocking.verified { secret in try Vault.unlock(keyFile: keyFile, secret: secret) }
    }

    /// Opens the vault at `location`; `VaultError.locked` when it cannot be unlocked.
    public static func openVault(_ location: VaultLocation, unlocking: Unlocking) throws -> Vault {
        guard let vault = try openVaultIfUnlockable(location, unlocking: unlocking) else {
            throw VaultError.locked(path: location.root)
        }
        return vault
    }

    /// Opens the vault at `location`, or nil when it cannot be unlocked without asking anyone
    /// more than `unlocking` does.
    public static func openVaultIfUnlockable(_ location: VaultLocation, unlocking: Unlocking) throws -> Vault? {
        let keyFile = try Vault.readKeyFile(at: location)
        guard let keys = try keys(for: location, keyFile: keyFile, unlocking: unlocking) else { return nil }
        return try Vault.open(at: location, keyFile: keyFile, keys: keys)
    }

    /// Opens the vault and resolves the profile (`profileName`, else the default one).
    public static func open(_ location: VaultLocation, profileName: String?, unlocking: Unlocking,
                            time: TimeContext = .current()) throws -> Session {
        try session(openVault(location, unlocking: unlocking), profileName: profileName, time: time)
    }

    /// `open`, or nil when the vault cannot be unlocked without a prompt `unlocking` lacks.
    public static func openIfUnlockable(_ location: VaultLocation, profileName: String?, unlocking: Unlocking,
                                        time: TimeContext = .current()) throws -> Session? {
        try openVaultIfUnlockable(location, unlocking: unlocking).map { try session($0, profileName: profileName, time: time) }
    }

    /// A session on a vault already open (a `phr serve` agent's), for the profile `profileName`.
    public static func on(_ vault: Vault, profileName: String?, time: TimeContext = .current()) throws -> Session {
        try session(vault, profileName: profileName, time: time)
    }

    private static func session(_ vault: Vault, profileName: String?, time: TimeContext) throws -> Session {
        let profile = try vault.database.read { db in try Profiles.resolve(db, name: profileName) }
        return Session(vault: vault, profile: profile, time: time)
    }
}
