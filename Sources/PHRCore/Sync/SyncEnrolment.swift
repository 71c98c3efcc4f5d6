import Foundation
import GRDB

/// Bringing a new device into a vault's sync: `phr sync enroll` on a device that has the vault
/// writes an enrolment file, encrypted to a one-time code it shows; `phr sync join FILE` on the
/// new device opens it with that code, checks the vault's passphrase against the key file it
/// carries, creates an empty vault with the same keys and a device id of its own, and pulls.
///
/// The file holds the vault's key file (its key slots: still locked by the passphrase or the
/// recovery key), the sync key and the remote's folder. The code is 160 random bits (shaped like
/// a recovery key), the file's key is HKDF-SHA256 of it, and the file expires after a day.
public enum SyncEnrolment {
    static let magic: [UInt8] = Array("phrenrl".utf8) + [1]
    public static let lifetime: TimeInterval = 24 * 3600

    struct Payload: Codable {
        var format = 1
        var vaultID: String
        var keyFile: String
        var syncKey: String
        var remote: String?
        var expires: String

        enum CodingKeys: String, CodingKey {
            case format, vaultID = "vault_id", keyFile = "key_file", syncKey = "sync_key", remote, expires
        }
    }

    /// What a joining device learns from the file.
    public struct Contents {
        public let keyFile: KeyFile
        public let remote: String?
        let syncKey: String
    }

    /// What an enrolment file for `vault` carries, naming `remote` (for a device created in this
    /// process: a benchmark's, a test's).
    public static func contents(of vault: Vault, remote: String?) throws -> Contents {
        let syncKey = try vault.database.read { db -> String in
            guard let key = try SyncState.value(db, "sync_key") else { throw SyncError.notInitialized }
            return key
        }
        return Contents(keyFile: vault.keyFile, remote: remote, syncKey: syncKey)
    }

    /// Writes the enrolment file for `vault` to `path` (which must not exist) and returns the
    /// code that opens it, to be shown once.
    public static func write(_ vault: Vault, to path: String, remote: String?, now: Date = Date()) throws -> String {
        let syncKey = try vault.database.read { db -> String in
            guard let key = try SyncState.value(db, "sync_key") else { throw SyncError.notInitialized }
            return key
        }
        let keyFileBytes = try FileDescriptor.openForReading(vault.location.keyFile).readToEnd(limit: 1 << 20)
        let payload = Payload(vaultID: vault.keyFile.vaultID, keyFile: Data(keyFileBytes).base64EncodedString(), syncKey: syncKey,
                              remote: remote, expires: Timestamp.string(now.addingTimeInterval(lifetime)))
        var code = try SecureRandom.bytes(RecoveryKey.byteCount)
        defer { wipe(&code) }
        let salt = try SecureRandom.bytes(16)
        let key = try KeyDerivation.hkdf(key: SecretBytes(copying: code), salt: salt, info: "phr/v1/sync-enrolment")
        let json = try SyncJSON.encoder.encode(payload)
        let box = try json.withUnsafeBytes { try AESGCM.sealBox(key: key, plaintext: $0, aad: magic + salt) }
        let file = try FileDescriptor.createExclusive(path)
        try file.write(magic + salt + box)
        try file.sync()
        try file.close()
        return RecoveryKey.format(code)
    }

    /// Opens the enrolment file at `path` with `code`.
    public static func open(_ path: String, code text: String, now: Date = Date()) throws -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.openForReading(path).readToEnd(limit: 1 << 20)
        } catch let error as POSIXIOError {
            if error.code == ENOENT { throw SyncError.noFile(path) }
            throw error
        }
        guard bytes.count > magic.count + 16 + AESGCM.nonceSize + AESGCM.tagSize, Array(bytes.prefix(magic.count)) == magic else {
            throw SyncError.badEnrolment(path: path, reason: "it was not written by 'sync enroll', or it is truncated")
        }
        guard let code = RecoveryKey.parse(text) else { throw SyncError.wrongCode }
        let salt = Array(bytes[magic.count..<(magic.count + 16)])
        let key = try KeyDerivation.hkdf(key: code, salt: salt, info: "phr/v1/sync-enrolment")
        let plaintext: SecretBytes
        do {
            plaintext = try AESGCM.openBox(key: key, box: Array(bytes[(magic.count + 16)...]), aad: magic + salt)
        } catch CryptoError.authenticationFailed {
            throw SyncError.wrongCode
        }
        let payload = try plaintext.withUnsafeBytes { raw -> Payload in
            do { return try SyncJSON.decoder.decode(Payload.self, from: Data(raw)) } catch {
                throw SyncError.badEnrolment(path: path, reason: "its contents are not an enrolment")
            }
        }
        guard payload.format == 1 else { throw SyncError.badEnrolment(path: path, reason: "written by a newer phr") }
        if let expires = Timestamp.parse(payload.expires), expires < now {
            throw SyncError.badEnrolment(path: path, reason: "it expired at \(payload.expires); write a new one with 'sync enroll'")
        }
        guard let keyFileData = Data(base64Encoded: payload.keyFile) else {
            throw SyncError.badEnrolment(path: path, reason: "its key file is damaged")
        }
        let keyFile = try KeyFile.decode(Array(keyFileData), path: path)
        guard keyFile.vaultID == payload.vaultID else { throw SyncError.badEnrolment(path: path, reason: "its key file is another vault's") }
        return Contents(keyFile: keyFile, remote: payload.remote, syncKey: payload.syncKey)
    }

    /// Creates the joining device's vault at `location` from `contents`, unlocked with `keys`
    /// (from the vault's passphrase or recovery key against `contents.keyFile`), with no profile
    /// yet: the first pull brings them.
    public static func createVault(at location: VaultLocation, contents: Contents, keys: VaultKeys, remote: String,
                                   now: Date = Date()) throws -> Vault {
        let vault = try Vault.createJoined(at: location, keyFile: contents.keyFile, keys: keys, now: now)
        try vault.database.write { db in
            try SyncState.set(db, "sync_key", contents.syncKey)
            try SyncState.set(db, "sync_pushed", String(try Int64.fetchOne(db, sql: "SELECT ifnull(max(seq), 0) FROM change_journal") ?? 0))
            try db.execute(sql: "INSERT INTO sync_remote (name, target, added_at) VALUES ('origin', ?, ?)",
                           arguments: [remote, Timestamp.string(now)])
        }
        return vault
    }

    /// After the first pull: the profile of the vault's owner (relation self) is this device's
    /// default too, unless one was chosen.
    public static func chooseDefaultProfile(_ vault: Vault) throws {
        try vault.database.write { db in
            guard try SyncState.value(db, "default_profile") == nil,
                  let id = try Int64.fetchOne(db, sql: "SELECT id FROM profile ORDER BY relation = 'self' DESC, id LIMIT 1") else { return }
            try SyncState.set(db, "default_profile", String(id))
        }
    }
}
