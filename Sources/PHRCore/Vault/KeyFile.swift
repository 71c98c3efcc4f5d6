import Foundation

/// `keys.json`: the vault's key slots, each wrapping the master key under a key derived from a
/// passphrase or from the recovery key. Format: Schemas/vault-format-v1.md, section "Key file".
///
/// Nothing here is secret on its own: the wrapped keys are AES-256-GCM ciphertexts under scrypt
/// outputs. A slot authenticates itself, so a wrong passphrase is detected from this file alone
/// and never touches vault.db.
public struct KeyFile: Codable, Equatable, Sendable {
    public static let formatName = "phr-keys"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    /// Random identifier of this vault (and of its backups and restores).
    public var vaultID: String
    public var created: String
    /// HMAC-SHA256(HKDF(MK, "phr/v1/key-check"), "phr key check v1" || vault id), base64.
    /// Lets a cached unlock token be checked without reading the database.
    public var keyCheck: String
    public var slots: [KeySlot]

    enum CodingKeys: String, CodingKey {
        case format, version
        case vaultID = "vault_id"
        case created
        case keyCheck = "key_check"
        case slots
    }

    public func slot(_ kind: KeySlot.Kind) -> KeySlot? { slots.first { $0.kind == kind } }

    public mutating func replaceSlot(_ slot: KeySlot) {
        slots.removeAll { $0.kind == slot.kind }
        slots.append(slot)
        slots.sort { $0.kind.rawValue > $1.kind.rawValue }
    }

    /// Parses and validates a key file; every problem is reported as `VaultError.keyFileInvalid`.
    public static func decode(_ bytes: [UInt8], path: String) throws -> KeyFile {
        let file: KeyFile
        do {
            file = try JSONDecoder().decode(KeyFile.self, from: Data(bytes))
        } catch {
            throw VaultError.keyFileInvalid(path: path, reason: "not valid key file JSON")
        }
        guard file.format == formatName else {
            throw VaultError.keyFileInvalid(path: path, reason: "format is not \(formatName)")
        }
        guard file.version == currentVersion else {
            throw VaultError.keyFileInvalid(path: path, reason: "version \(file.version) is not supported by this phr")
        }
        guard file.slot(.passphrase) != nil || file.slot(.recovery) != nil else {
            throw VaultError.keyFileInvalid(path: path, reason: "no key slots")
        }
        for slot in file.slots where !slot.kdf.isWithinBounds {
            throw VaultError.keyFileInvalid(path: path, reason: "\(slot.kind.rawValue) slot has out-of-range scrypt parameters")
        }
        return file
    }

    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0a]
    }
}

/// One way into the vault: a passphrase or the recovery key.
public struct KeySlot: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case passphrase
        case recovery
    }

    public var kind: Kind
    public var kdf: SlotKDF
    /// nonce(12) || AES-256-GCM(KEK, MK) || tag(16), base64. AAD binds vault id and slot kind.
    public var wrappedKey: String
    public var updated: String
    /// HMAC-SHA256(KEK, "phr kek check v1"), first 16 bytes, base64: tells a wrong passphrase
    /// (this does not match) from a slot whose authenticated fields were altered (this matches,
    /// the wrapped key does not open). Absent in slots written before it existed.
    public var kekCheck: String?

    public init(kind: Kind, kdf: SlotKDF, wrappedKey: String, updated: String, kekCheck: String? = nil) {
        self.kind = kind
        self.kdf = kdf
        self.wrappedKey = wrappedKey
        self.updated = updated
        self.kekCheck = kekCheck
    }

    enum CodingKeys: String, CodingKey {
        case kind = "type"
        case kdf
        case wrappedKey = "wrapped_key"
        case updated
        case kekCheck = "kek_check"
    }
}

/// The scrypt parameters and salt of a slot.
public struct SlotKDF: Codable, Equatable, Sendable {
    public var name: String
    public var log2N: Int
    public var r: Int
    public var p: Int
    public var salt: String

    public var parameters: ScryptParameters { ScryptParameters(log2N: log2N, r: r, p: p) }

    var isWithinBounds: Bool {
        name == "scrypt" && parameters.isWithinBounds && (Data(base64Encoded: salt)?.count ?? 0) >= 16
    }

    enum CodingKeys: String, CodingKey {
        case name
        case log2N = "log2_n"
        case r, p, salt
    }
}
