import CPHROpenSSL

/// Streaming SHA-256.
public final class SHA256Hasher {
    private let context: OpaquePointer

    public init() throws {
        guard let context = phr_sha256_new() else { throw CryptoError.openSSL("EVP_DigestInit_ex") }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard phr_sha256_update(context, bytes.u8, bytes.count) == 1 else { throw CryptoError.openSSL("EVP_DigestUpdate") }
    }

    public func update(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try update($0) }
    }

    public func finalize() throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        guard out.withUnsafeMutableBytes({ phr_sha256_final(context, $0.u8m) }) == 1
        else { throw CryptoError.openSSL("EVP_DigestFinal_ex") }
        return out
    }

    public static func hash(_ bytes: [UInt8]) throws -> [UInt8] {
        let hasher = try SHA256Hasher()
        try hasher.update(bytes)
        return try hasher.finalize()
    }
}

/// Streaming HMAC-SHA256.
public final class HMACSHA256 {
    private let context: OpaquePointer

    public init(key: SecretBytes) throws {
        guard let context = key.withUnsafeBytes({ phr_hmac_new($0.u8, $0.count) })
        else { throw CryptoError.openSSL("EVP_MAC_init") }
        self.context = context
    }

    deinit { EVP_MAC_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard phr_hmac_update(context, bytes.u8, bytes.count) == 1 else { throw CryptoError.openSSL("EVP_MAC_update") }
    }

    public func update(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try update($0) }
    }

    public func finalize() throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        guard out.withUnsafeMutableBytes({ phr_hmac_final(context, $0.u8m) }) == 1
        else { throw CryptoError.openSSL("EVP_MAC_final") }
        return out
    }

    public static func mac(key: SecretBytes, _ bytes: [UInt8]) throws -> [UInt8] {
        let hmac = try HMACSHA256(key: key)
        try hmac.update(bytes)
        return try hmac.finalize()
    }
}

/// Constant-time equality of two byte arrays.
public func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 } }
}

extension Array where Element == UInt8 {
    /// Lowercase hexadecimal.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
