import CPHROpenSSL

/// scrypt parameters as stored in a key slot, and the bounds enforced when reading them.
public struct ScryptParameters: Codable, Equatable, Sendable {
    /// log2 of the CPU/memory cost N.
    public var log2N: Int
    public var r: Int
    public var p: Int

    /// DESIGN.md section 3: N=2^17, r=8, p=1 (128 MiB, about 0.6 s on the reference machine).
    public static let standard = ScryptParameters(log2N: 17, r: 8, p: 1)

    public init(log2N: Int, r: Int, p: Int) {
        self.log2N = log2N
        self.r = r
        self.p = p
    }

    /// Memory scrypt needs: 128 * r * N * p bytes.
    public var memoryBytes: UInt64 { 128 * UInt64(r) * (UInt64(1) << UInt64(log2N)) * UInt64(p) }

    /// Parameters read from a key file are bounded so a crafted file cannot make phr allocate
    /// gigabytes or spin for hours: N in 2^10...2^22, r in 1...32, p in 1...16, memory at most 1 GiB.
    public var isWithinBounds: Bool {
        (10...22).contains(log2N) && (1...32).contains(r) && (1...16).contains(p)
            && memoryBytes <= 1 << 30
    }

    enum CodingKeys: String, CodingKey {
        case log2N = "log2_n"
        case r
        case p
    }
}

/// Password hashing and key derivation.
public enum KeyDerivation {
    /// scrypt (RFC 7914) into a 32-byte key.
    public static func scrypt(passphrase: SecretBytes, salt: [UInt8], parameters: ScryptParameters) throws -> SecretBytes {
        guard parameters.isWithinBounds else { throw CryptoError.openSSL("scrypt parameters out of bounds") }
        // OpenSSL's default cap (32 MiB) is below what N=2^17, r=8 needs; allow the need plus 1 MiB.
        let maxMemory = parameters.memoryBytes + (1 << 20)
        return try SecretBytes(count: 32) { out in
            let ok = passphrase.withUnsafeBytes { pass in
                salt.withUnsafeBytes { s in
                    phr_scrypt(pass.u8, pass.count, s.u8, s.count, UInt64(1) << UInt64(parameters.log2N),
                               UInt64(parameters.r), UInt64(parameters.p), maxMemory, out.u8m, 32)
                }
            }
            guard ok == 1 else { throw CryptoError.openSSL("EVP_PBE_scrypt") }
        }
    }

    /// HKDF-SHA256 (RFC 5869).
    public static func hkdf(key: SecretBytes, salt: [UInt8] = [], info: String, count: Int = 32) throws -> SecretBytes {
        try hkdf(key: key, salt: salt, info: Array(info.utf8), count: count)
    }

    static func hkdf(key: SecretBytes, salt: [UInt8], info infoBytes: [UInt8], count: Int) throws -> SecretBytes {
        try SecretBytes(count: count) { out in
            let ok = key.withUnsafeBytes { ikm in
                salt.withUnsafeBytes { s in
                    infoBytes.withUnsafeBytes { i in
                        phr_hkdf_sha256(ikm.u8, ikm.count, s.u8, s.count, i.u8, i.count, out.u8m, count)
                    }
                }
            }
            guard ok == 1 else { throw CryptoError.openSSL("HKDF") }
        }
    }
}
