import Foundation
import Testing
@testable import PHRCore

/// The kernel keyring cache: stores subkeys only, expires by itself, and `clear` ends it.
@Suite(.serialized) struct UnlockCacheTests {
    @Test func cachedKeysOpenTheVaultUntilTheyExpire() async throws {
        let (vault, _, directory) = try TestSupport.makeVault("cache")
        defer { TestSupport.remove(directory) }
        let id = vault.keyFile.vaultID
        defer { UnlockCache.clear(vaultID: id) }
        #expect(UnlockCache.load(vaultID: id) == nil)
        try UnlockCache.store(vault.keys, vaultID: id, duration: 2)
        let cached = try #require(UnlockCache.load(vaultID: id))
        #expect(cached.keys.matches(vault.keyFile))
        #expect(cached.keys.pageKey.isEqual(to: vault.keys.pageKey))
        #expect(cached.expires.timeIntervalSinceNow > 0 && cached.expires.timeIntervalSinceNow <= 2.5)
        _ = try Vault.open(at: vault.location, keyFile: vault.keyFile, keys: cached.keys)
        try await Task.sleep(for: .milliseconds(3200))
        #expect(UnlockCache.load(vaultID: id) == nil, "the kernel expired the key")
    }

    @Test func clearEndsTheCacheAtOnce() throws {
        let (vault, _, directory) = try TestSupport.makeVault("cache")
        defer { TestSupport.remove(directory) }
        let id = vault.keyFile.vaultID
        try UnlockCache.store(vault.keys, vaultID: id, duration: 600)
        #expect(UnlockCache.load(vaultID: id) != nil)
        #expect(UnlockCache.clear(vaultID: id))
        #expect(UnlockCache.load(vaultID: id) == nil)
        #expect(!UnlockCache.clear(vaultID: id))
    }

    @Test func thePayloadHoldsSubkeysNeverTheMasterKey() throws {
        let masterKey = try SecretBytes.random(count: 32)
        let keys = try VaultKeys(masterKey: masterKey)
        let payload = keys.cachePayload(expiry: 1_900_000_000).withUnsafeBytes { Array($0) }
        let mk = masterKey.withUnsafeBytes { Array($0) }
        #expect(payload.count == VaultKeys.cachePayloadSize)
        #expect(!Data(payload).contains(Data(mk)))
        let parsed = try #require(VaultKeys.fromCachePayload(SecretBytes(copying: payload)))
        #expect(parsed.expiry == 1_900_000_000)
        #expect(parsed.keys.blobNameKey.isEqual(to: keys.blobNameKey))
    }
}

extension Data {
    func contains(_ other: Data) -> Bool { range(of: other) != nil }
}
