import Foundation
import Glibc

/// The working keys of an open vault, derived from the master key (MK) with HKDF-SHA256.
///
/// The MK itself is needed only to create or rewrite key slots; everything else uses these
/// subkeys, and the unlock cache stores only them (SECURITY.md, "Key hierarchy").
public struct VaultKeys: Sendable {
    /// AES-256-GCM key of database and journal pages (CPHRVFS).
    public let pageKey: SecretBytes
    /// Root of the per-blob STREAM payload keys.
    public let blobKey: SecretBytes
    /// HMAC key naming blobs by content, so names do not reveal a known file's plain SHA-256.
    public let blobNameKey: SecretBytes
    /// HMAC key authenticating backup files.
    public let backupKey: SecretBytes
    /// HMAC key of the key check value in keys.json.
    public let checkKey: SecretBytes

    static let labels = ["phr/v1/db-pages", "phr/v1/blob-stream", "phr/v1/blob-names",
                         "phr/v1/backup-mac", "phr/v1/key-check"]

    public init(masterKey: SecretBytes) throws {
        let keys = try Self.labels.map { try KeyDerivation.hkdf(key: masterKey, info: $0) }
        self.init(keys)
    }

    private init(_ keys: [SecretBytes]) {
        pageKey = keys[0]
        blobKey = keys[1]
        blobNameKey = keys[2]
        backupKey = keys[3]
        checkKey = keys[4]
    }

    /// The key check value stored in keys.json for this vault.
    public func keyCheck(vaultID: String) throws -> [UInt8] {
        try HMACSHA256.mac(key: checkKey, Array("phr key check v1".utf8) + [0] + Array(vaultID.utf8))
    }

    /// True if these keys belong to the vault described by `keyFile`.
    public func matches(_ keyFile: KeyFile) -> Bool {
        guard let expected = Data(base64Encoded: keyFile.keyCheck), let actual = try? keyCheck(vaultID: keyFile.vaultID)
        else { return false }
        return constantTimeEqual(Array(expected), actual)
    }

    static let cachePayloadSize = 9 + 32 * labels.count

    /// The unlock-cache payload: version byte, expiry (Unix seconds, big-endian) and the subkeys.
    func cachePayload(expiry: Int64) -> SecretBytes {
        let all = [pageKey, blobKey, blobNameKey, backupKey, checkKey]
        return SecretBytes(count: 1 + 8 + 32 * all.count) { out in
            out[0] = 1
            for i in 0..<8 { out[1 + i] = UInt8(truncatingIfNeeded: expiry >> Int64(8 * (7 - i))) }
            for (index, key) in all.enumerated() {
                key.withUnsafeBytes { k in
                    UnsafeMutableRawBufferPointer(rebasing: out[(9 + 32 * index)..<(9 + 32 * (index + 1))]).copyMemory(from: k)
                }
            }
        }
    }

    /// Parses a cache payload; nil if it is not one.
    static func fromCachePayload(_ payload: SecretBytes) -> (keys: VaultKeys, expiry: Int64)? {
        guard payload.count == cachePayloadSize else { return nil }
        return payload.withUnsafeBytes { bytes -> (VaultKeys, Int64)? in
            guard bytes[0] == 1 else { return nil }
            var expiry: Int64 = 0
            for i in 0..<8 { expiry = expiry << 8 | Int64(bytes[1 + i]) }
            let keys = (0..<labels.count).map { index in
                SecretBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[(9 + 32 * index)..<(9 + 32 * (index + 1))]))
            }
            return (VaultKeys(keys), expiry)
        }
    }
}

/// Wrapping and unwrapping the master key in key slots.
public enum KeySlots {
    /// Wraps `masterKey` under scrypt(`secret`) into a new slot with a fresh salt.
    public static func wrap(masterKey: SecretBytes, secret: SecretBytes, kind: KeySlot.Kind, vaultID: String,
                            parameters: ScryptParameters, now: Date = Date()) throws -> KeySlot {
        let salt = try SecureRandom.bytes(16)
        let kek = try KeyDerivation.scrypt(passphrase: secret, salt: salt, parameters: parameters)
        let box = try masterKey.withUnsafeBytes { mk in
            try AESGCM.sealBox(key: kek, plaintext: mk, aad: associatedData(kind: kind, vaultID: vaultID))
        }
        return KeySlot(kind: kind,
                       kdf: SlotKDF(name: "scrypt", log2N: parameters.log2N, r: parameters.r, p: parameters.p,
                                    salt: Data(salt).base64EncodedString()),
                       wrappedKey: Data(box).base64EncodedString(),
                       updated: Timestamp.string(now),
                       kekCheck: Data(try kekCheck(kek)).base64EncodedString())
    }

    static func kekCheck(_ kek: SecretBytes) throws -> [UInt8] {
        let mac = try HMACSHA256(key: kek)
        try mac.update(Array("phr kek check v1".utf8))
        return Array(try mac.finalize().prefix(16))
    }

    /// Unwraps the master key; throws `VaultError.wrongPassphrase` if `secret` does not open the slot.
    public static func unwrap(slot: KeySlot, secret: SecretBytes, vaultID: String) throws -> SecretBytes {
        guard let salt = Data(base64Encoded: slot.kdf.salt), let box = Data(base64Encoded: slot.wrappedKey) else {
            throw VaultError.keyFileInvalid(path: "keys.json", reason: "\(slot.kind.rawValue) slot is not valid base64")
        }
        let kek = try KeyDerivation.scrypt(passphrase: secret, salt: Array(salt), parameters: slot.kdf.parameters)
        do {
            let masterKey = try AESGCM.openBox(key: kek, box: Array(box), aad: associatedData(kind: slot.kind, vaultID: vaultID))
            guard masterKey.count == 32 else {
                throw VaultError.keyFileInvalid(path: "keys.json", reason: "\(slot.kind.rawValue) slot holds a key of the wrong size")
            }
            return masterKey
        } catch CryptoError.authenticationFailed {
            // The passphrase derived the right KEK, yet the wrapped key does not open: the slot's
            // authenticated fields (vault id, kind, wrapped key) were altered.
            if let stored = slot.kekCheck.flatMap({ Data(base64Encoded: $0) }), constantTimeEqual(Array(stored), try kekCheck(kek)) {
                throw VaultError.keyFileInvalid(path: "keys.json", reason: "the \(slot.kind.rawValue) slot was altered (its passphrase check matches, its wrapped key does not open)")
            }
            throw VaultError.wrongPassphrase
        }
    }

    static func associatedData(kind: KeySlot.Kind, vaultID: String) -> [UInt8] {
        Array("phr-keyslot-v1".utf8) + [0] + Array(vaultID.utf8) + [0] + Array(kind.rawValue.utf8)
    }

    /// The scrypt parameters for new slots. Debug builds (the test suite) honour
    /// `PHR_TEST_SCRYPT_LOG2N` to make vault creation cheap; release builds ignore it.
    public static var parametersForNewSlots: ScryptParameters {
        #if DEBUG
        if let text = ProcessEnvironment["PHR_TEST_SCRYPT_LOG2N"], let log2N = Int(text),
           (10...22).contains(log2N) {
            return ScryptParameters(log2N: log2N, r: 8, p: 1)
        }
        #endif
        return .standard
    }
}

/// The recovery key: 160 random bits shown once at `phr init` as eight groups of four Crockford
/// base32 characters. Parsing forgives case, spaces, dashes and the look-alikes O/0 and I/L/1.
public enum RecoveryKey {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    public static let byteCount = 20

    /// A new random recovery key: its display text and the secret bytes behind it.
    public static func generate() throws -> (text: String, secret: SecretBytes) {
        var bytes = try SecureRandom.bytes(byteCount)
        defer { wipe(&bytes) }
        let text = format(bytes)
        return (text, SecretBytes(copying: bytes))
    }

    static func format(_ bytes: [UInt8]) -> String {
        var symbols: [UInt8] = []
        var buffer: UInt64 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt64(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                symbols.append(alphabet[Int((buffer >> UInt64(bits)) & 31)])
            }
        }
        let groups = stride(from: 0, to: symbols.count, by: 4).map {
            String(decoding: symbols[$0..<min($0 + 4, symbols.count)], as: UTF8.self)
        }
        return groups.joined(separator: "-")
    }

    /// The secret bytes of a typed recovery key, or nil if `text` is not shaped like one.
    public static func parse(_ text: String) -> SecretBytes? {
        var values: [UInt8] = []
        for scalar in text.uppercased().unicodeScalars {
            switch scalar {
            case " ", "-", "\t", "\n", "\r": continue
            case "O": values.append(0)
            case "I", "L": values.append(1)
            default:
                guard scalar.isASCII, let index = alphabet.firstIndex(of: UInt8(scalar.value)) else { return nil }
                values.append(UInt8(index))
            }
        }
        guard values.count == byteCount * 8 / 5 else { return nil }
        var bytes: [UInt8] = []
        var buffer: UInt64 = 0
        var bits = 0
        for value in values {
            buffer = buffer << 5 | UInt64(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt64(bits)))
            }
        }
        defer { wipe(&bytes) }
        return SecretBytes(copying: bytes)
    }
}

extension VaultKeys {
    /// Writes the keys to `fd` (a pipe to a child phr, such as `phr serve --detach`'s agent):
    /// never through argv, the environment or a file.
    package func handOver(to fd: Int32) throws {
        let payload = cachePayload(expiry: 0)
        try payload.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw VaultError.io("cannot hand the keys over (\(String(cString: strerror(errno))))") }
                written += count
            }
        }
    }

    /// Reads keys `handOver` wrote to the other end of `fd`.
    package static func receive(from fd: Int32) throws -> VaultKeys {
        let payload = try SecretBytes(count: cachePayloadSize) { buffer in
            var read = 0
            while read < buffer.count {
                let count = Glibc.read(fd, buffer.baseAddress! + read, buffer.count - read)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw VaultError.io("the keys were not handed over") }
                read += count
            }
        }
        guard let keys = fromCachePayload(payload)?.keys else { throw VaultError.io("the keys handed over are not phr's") }
        return keys
    }
}
