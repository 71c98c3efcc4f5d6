import CPHRVFS
import Foundation
import GRDB
import Glibc

/// Where a vault lives and the files it is made of (Schemas/vault-format-v1.md, "Layout").
public struct VaultLocation: Sendable, Equatable {
    public let root: String

    public init(path: String) {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        root = Self.canonical(absolute)
    }

    /// `absolute` with symbolic links resolved as far as it exists (realpath(3)), and the rest
    /// (a vault about to be created) without ".", ".." and repeated slashes. Foundation's
    /// `standardizingPath` did the same through several FileManager calls per component.
    static func canonical(_ absolute: String) -> String {
        var existing = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while true {
            let prefix = "/" + existing.joined(separator: "/")
            if let resolved = realpath(prefix, nil) {
                defer { free(resolved) }
                var components = String(cString: resolved).split(separator: "/").map(String.init)
                for part in rest {
                    if part == "." { continue }
                    if part == ".." { _ = components.popLast(); continue }
                    components.append(part)
                }
                return "/" + components.joined(separator: "/")
            }
            guard let last = existing.popLast() else { return "/" }
            rest.insert(last, at: 0)
        }
    }

    public var database: String { "\(root)/vault.db" }
    public var journal: String { "\(root)/vault.db-journal" }
    public var keyFile: String { "\(root)/keys.json" }
    public var blobs: String { "\(root)/blobs" }
    public var versionFile: String { "\(root)/VERSION" }

    /// `--vault`, else `PHR_VAULT`, else `$XDG_DATA_HOME/phr/vault`, else `~/.local/share/phr/vault`.
    public static func resolve(explicit: String?, environment: [String: String]) -> VaultLocation {
        if let explicit, !explicit.isEmpty { return VaultLocation(path: explicit) }
        if let path = environment["PHR_VAULT"], !path.isEmpty { return VaultLocation(path: path) }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return VaultLocation(path: "\(data)/phr/vault") }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return VaultLocation(path: "\(home)/.local/share/phr/vault")
    }
}

/// An open, unlocked vault: its key file, working keys, encrypted database and blob store.
///
/// Create one with `Vault.create`, or read the key file with `Vault.readKeyFile`, turn a
/// passphrase into keys with `Vault.unlock` (or take them from `UnlockCache`), then `Vault.open`.
public final class Vault: @unchecked Sendable {
    public static let versionLine = "phr-vault 1"

    public let location: VaultLocation
    public let keyFile: KeyFile
    public let keys: VaultKeys
    public let database: VaultDatabase
    public let blobs: BlobStore

    private init(location: VaultLocation, keyFile: KeyFile, keys: VaultKeys, database: VaultDatabase) {
        self.location = location
        self.keyFile = keyFile
        self.keys = keys
        self.database = database
        blobs = BlobStore(root: location.blobs, keys: keys)
    }

    // MARK: Creating

    /// Creates a vault at `location` (which must not exist, or be an empty directory), protected by
    /// `passphrase`. Returns the vault and the recovery key, to be shown to the user exactly once.
    ///
    /// The vault is assembled in a hidden sibling directory and renamed into place, so an
    /// interrupted `init` leaves nothing half-made at the path.
    public static func create(at location: VaultLocation, passphrase: SecretBytes,
                              parameters: ScryptParameters = KeySlots.parametersForNewSlots,
                              profileName: String = Profiles.initialName,
                              now: Date = Date()) throws -> (vault: Vault, recoveryKey: String) {
        try Passphrase.validateNew(passphrase)
        // Before the key slots' scrypt, so a taken path fails at once.
        try refuseTaken(location)
        let masterKey = try SecretBytes.random(count: 32)
        let keys = try VaultKeys(masterKey: masterKey)
        let vaultID = UUID().uuidString.lowercased()
        let recovery = try RecoveryKey.generate()
        let keyFile = KeyFile(
            format: KeyFile.formatName, version: KeyFile.currentVersion, vaultID: vaultID,
            created: Timestamp.string(now),
            keyCheck: Data(try keys.keyCheck(vaultID: vaultID)).base64EncodedString(),
            slots: [
                try KeySlots.wrap(masterKey: masterKey, secret: Passphrase.normalized(passphrase),
                                  kind: .passphrase, vaultID: vaultID, parameters: parameters, now: now),
                try KeySlots.wrap(masterKey: masterKey, secret: recovery.secret, kind: .recovery,
                                  vaultID: vaultID, parameters: parameters, now: now),
            ])
        let vault = try assemble(at: location, keyFile: keyFile, keys: keys, profileName: profileName, now: now)
        return (vault, recovery.text)
    }

    /// Creates a vault that joins another's sync (SyncEnrolment): the same key file and keys, an
    /// empty database with a device id of its own, and no profile (the first pull brings them).
    public static func createJoined(at location: VaultLocation, keyFile: KeyFile, keys: VaultKeys, now: Date = Date()) throws -> Vault {
        guard keys.matches(keyFile) else { throw VaultError.wrongPassphrase }
        return try assemble(at: location, keyFile: keyFile, keys: keys, profileName: nil, now: now)
    }

    /// A path a new vault may take: none, or an empty directory.
    private static func refuseTaken(_ location: VaultLocation) throws {
        if FileSystem.exists(location.root) {
            guard FileSystem.isDirectory(location.root), FileSystem.contents(of: location.root).isEmpty else {
                throw VaultError.alreadyExists(path: location.root)
            }
        }
    }

    /// Writes a new vault (VERSION, the key file, blobs/, a database with its first profile if
    /// named) in a hidden sibling directory and renames it into place, so an interruption leaves
    /// nothing half-made at the path; opens it.
    private static func assemble(at location: VaultLocation, keyFile: KeyFile, keys: VaultKeys, profileName: String?,
                                 now: Date) throws -> Vault {
        try refuseTaken(location)
        let parent = (location.root as NSString).deletingLastPathComponent
        try FileSystem.makePrivateDirectories(parent)
        let stagingDirectory = try StagingDirectory(parent: parent, prefix: StagingDirectory.initPrefix)
        do {
            let stagingLocation = VaultLocation(path: stagingDirectory.path)
            try FileSystem.atomicWrite(Array("\(versionLine)\n".utf8), to: stagingLocation.versionFile)
            try FileSystem.atomicWrite(try keyFile.encoded(), to: stagingLocation.keyFile)
            try FileSystem.makePrivateDirectory(stagingLocation.blobs)
            do {
                let database = try VaultDatabase(path: stagingLocation.database, pageKey: keys.pageKey, create: true)
                try database.write { db in
                    try db.execute(sql: "INSERT INTO vault_info (key, value) VALUES ('vault_id', ?), ('created', ?)",
                                   arguments: [keyFile.vaultID, Timestamp.string(now)])
                    if let profileName { try Profiles.create(db, name: profileName, relation: .self) }
                }
            }
            try stagingDirectory.rename(to: location.root)
            return try open(at: location, keyFile: keyFile, keys: keys)
        } catch {
            stagingDirectory.remove()
            throw error
        }
    }

    // MARK: Opening

    /// Reads and validates VERSION and keys.json. Needs no secret.
    public static func readKeyFile(at location: VaultLocation) throws -> KeyFile {
        guard FileSystem.exists(location.root) else { throw VaultError.notFound(path: location.root) }
        guard FileSystem.isDirectory(location.root) else {
            throw VaultError.notAVault(path: location.root, reason: "it is not a directory")
        }
        guard let version = try? FileDescriptor.openForReading(location.versionFile).readToEnd(limit: 4096) else {
            if FileSystem.contents(of: location.root).isEmpty { throw VaultError.notFound(path: location.root) }
            throw VaultError.notAVault(path: location.root, reason: "VERSION is missing")
        }
        let text = String(decoding: version, as: UTF8.self)
        let line = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard line == versionLine else {
            if line.hasPrefix("phr-vault ") {
                throw VaultError.notAVault(path: location.root, reason: "format '\(line)' needs a newer phr")
            }
            throw VaultError.notAVault(path: location.root, reason: "VERSION does not name a phr vault")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.openForReading(location.keyFile).readToEnd(limit: 1 << 20)
        } catch {
            throw VaultError.keyFileInvalid(path: location.keyFile, reason: "it cannot be read")
        }
        return try KeyFile.decode(bytes, path: location.keyFile)
    }

    /// Turns a passphrase or recovery key into the vault's master key. Throws
    /// `VaultError.wrongPassphrase` if neither slot opens; vault.db is never read.
    public static func unlockMasterKey(keyFile: KeyFile, secret: SecretBytes) throws -> SecretBytes {
        var attempts: [(KeySlot, SecretBytes)] = []
        if let slot = keyFile.slot(.recovery), let text = secret.withUnsafeBytes({ String(validating: $0.bindMemory(to: UInt8.self), as: UTF8.self) }),
           let recovery = RecoveryKey.parse(text) {
            attempts.append((slot, recovery))
        }
        if let slot = keyFile.slot(.passphrase) {
            attempts.append((slot, Passphrase.normalized(secret)))
        }
        for (slot, slotSecret) in attempts {
            do {
                let masterKey = try KeySlots.unwrap(slot: slot, secret: slotSecret, vaultID: keyFile.vaultID)
                guard try VaultKeys(masterKey: masterKey).matches(keyFile) else {
                    throw VaultError.keyFileInvalid(path: "keys.json", reason: "the key check value does not match the key slots")
                }
                return masterKey
            } catch VaultError.wrongPassphrase {
                continue
            }
        }
        throw VaultError.wrongPassphrase
    }

    /// The working keys for a passphrase or recovery key.
    public static func unlock(keyFile: KeyFile, secret: SecretBytes) throws -> VaultKeys {
        try VaultKeys(masterKey: unlockMasterKey(keyFile: keyFile, secret: secret))
    }

    /// Opens the vault with keys from `unlock` or the unlock cache.
    public static func open(at location: VaultLocation, keyFile: KeyFile, keys: VaultKeys, readOnly: Bool = false) throws -> Vault {
        guard keys.matches(keyFile) else { throw VaultError.wrongPassphrase }
        try checkDatabaseHeader(location)
        let database = try VaultDatabase(path: location.database, pageKey: keys.pageKey, create: false, readOnly: readOnly)
        return Vault(location: location, keyFile: keyFile, keys: keys, database: database)
    }

    /// Refuses a vault.db that is not an encrypted phr database before SQLite sees it.
    static func checkDatabaseHeader(_ location: VaultLocation) throws {
        guard let file = try? FileDescriptor.openForReading(location.database) else {
            throw VaultError.notAVault(path: location.root, reason: "vault.db is missing")
        }
        let head = try file.read(upTo: 16)
        if head == Array("SQLite format 3\0".utf8) {
            throw VaultError.integrity(["vault.db is an unencrypted SQLite database, not a phr vault database"])
        }
        guard head == Array("phr db format 1\0".utf8) else {
            throw VaultError.integrity([head.isEmpty ? "vault.db is empty" : "page 1 of vault.db failed authentication (bad header)"])
        }
        // SQLite writes whole pages only (the VFS refuses anything else): a partial page at the
        // end is damage, which every command must see, not only `phr check`.
        let trailing = try file.size() % Int64(PHR_PAGE_SIZE)
        if trailing != 0 {
            throw VaultError.integrity(["vault.db ends with \(trailing) bytes of a partial page (truncated or damaged)"])
        }
    }

    // MARK: Key slots

    /// Replaces the passphrase slot; the master key, database pages and blobs are unchanged.
    /// `current` may be the old passphrase or the recovery key.
    public static func changePassphrase(at location: VaultLocation, current: SecretBytes, new: SecretBytes,
                                        parameters: ScryptParameters = KeySlots.parametersForNewSlots) throws {
        try Passphrase.validateNew(new)
        let lock = try FileLock(path: location.root, mode: .exclusive)
        defer { withExtendedLifetime(lock) {} }
        var keyFile = try readKeyFile(at: location)
        let masterKey = try unlockMasterKey(keyFile: keyFile, secret: current)
        keyFile.replaceSlot(try KeySlots.wrap(masterKey: masterKey, secret: Passphrase.normalized(new), kind: .passphrase,
                                              vaultID: keyFile.vaultID, parameters: parameters))
        try FileSystem.atomicWrite(try keyFile.encoded(), to: location.keyFile)
    }

    /// Replaces the recovery slot with a new random recovery key, returned for display.
    public static func replaceRecoveryKey(at location: VaultLocation, current: SecretBytes,
                                          parameters: ScryptParameters = KeySlots.parametersForNewSlots) throws -> String {
        let lock = try FileLock(path: location.root, mode: .exclusive)
        defer { withExtendedLifetime(lock) {} }
        var keyFile = try readKeyFile(at: location)
        let masterKey = try unlockMasterKey(keyFile: keyFile, secret: current)
        let recovery = try RecoveryKey.generate()
        keyFile.replaceSlot(try KeySlots.wrap(masterKey: masterKey, secret: recovery.secret, kind: .recovery,
                                              vaultID: keyFile.vaultID, parameters: parameters))
        try FileSystem.atomicWrite(try keyFile.encoded(), to: location.keyFile)
        return recovery.text
    }
}

/// Passphrase rules shared by init and passwd.
public enum Passphrase {
    public static let minimumLength = 8

    /// Unicode NFC form of a UTF-8 passphrase, so the same text typed on another system (composed
    /// or decomposed accents) opens the vault. Bytes that are not UTF-8 are used as they are.
    public static func normalized(_ secret: SecretBytes) -> SecretBytes {
        secret.withUnsafeBytes { bytes in
            guard let text = String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) else {
                return SecretBytes(copying: bytes)
            }
            return SecretBytes(copying: Array(text.precomposedStringWithCanonicalMapping.utf8))
        }
    }

    /// Refuses passphrases too weak for a vault of health records.
    public static func validateNew(_ secret: SecretBytes) throws {
        let characters = secret.withUnsafeBytes { bytes in
            String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self)?.count ?? bytes.count
        }
        if characters == 0 { throw VaultError.passphraseRejected("the passphrase is empty") }
        if characters < minimumLength {
            throw VaultError.passphraseRejected("the passphrase is too short: use at least \(minimumLength) characters")
        }
    }
}
