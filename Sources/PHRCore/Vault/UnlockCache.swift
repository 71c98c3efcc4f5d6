import CPHRSystem
import Foundation
import Glibc

/// `phr unlock --for 15m`: the vault's subkeys (never the passphrase, never the master key) held
/// in the Linux kernel user keyring with a timeout, so commands run without asking again.
///
/// The kernel keeps the key in its own memory (never swapped to disk, gone at reboot), expires
/// it by itself, and shows it only to processes of the same user. Where keyrings are blocked
/// (some container seccomp profiles) `store` throws `VaultError.keyringUnavailable` and `load`
/// answers nil, so phr falls back to asking for the passphrase.
public enum UnlockCache {
    /// The longest unlock allowed; beyond that a passphrase file or command is the better tool.
    public static let maximumDuration: TimeInterval = 24 * 3600

    static func description(vaultID: String) -> String { "phr:v1:\(vaultID)" }

    /// Caches `keys` for `duration` seconds.
    public static func store(_ keys: VaultKeys, vaultID: String, duration: TimeInterval, now: Date = Date()) throws {
        if isDisabledForTesting { throw VaultError.keyringUnavailable("disabled by PHR_TEST_DISABLE_KEYRING") }
        let seconds = max(1, Int(duration.rounded(.up)))
        let payload = keys.cachePayload(expiry: Int64(now.timeIntervalSince1970) + Int64(seconds))
        let serial = payload.withUnsafeBytes { bytes in
            phr_keyring_store(description(vaultID: vaultID), bytes.baseAddress, bytes.count, UInt32(seconds))
        }
        guard serial >= 0 else {
            throw VaultError.keyringUnavailable(String(cString: strerror(errno)).lowercased())
        }
    }

    /// The cached keys and their expiry, or nil if the vault is not unlocked (or keyrings are
    /// unavailable).
    public static func load(vaultID: String, now: Date = Date()) -> (keys: VaultKeys, expires: Date)? {
        if isDisabledForTesting { return nil }
        let serial = phr_keyring_find(description(vaultID: vaultID))
        guard serial >= 0 else { return nil }
        let length = VaultKeys.cachePayloadSize
        guard let payload = try? SecretBytes(count: length, fill: { buffer in
            // KEYCTL_READ returns the payload's real length even when it did not fit.
            guard phr_keyring_read(serial, buffer.baseAddress, length) == length else {
                throw VaultError.io("unexpected unlock cache entry")
            }
        }), let parsed = VaultKeys.fromCachePayload(payload) else { return nil }
        let expires = Date(timeIntervalSince1970: TimeInterval(parsed.expiry))
        guard expires > now else { return nil }
        return (parsed.keys, expires)
    }

    /// Forgets the cached keys. Returns false if none were cached.
    @discardableResult
    public static func clear(vaultID: String) -> Bool {
        if isDisabledForTesting { return false }
        let serial = phr_keyring_find(description(vaultID: vaultID))
        guard serial >= 0 else { return false }
        return phr_keyring_remove(serial) == 0
    }

    /// Debug builds (the test suite) can simulate a host without keyrings.
    static var isDisabledForTesting: Bool {
        #if DEBUG
        return ProcessEnvironment["PHR_TEST_DISABLE_KEYRING"] == "1"
        #else
        return false
        #endif
    }
}
