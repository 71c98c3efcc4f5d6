import CPHROpenSSL

/// AES-256-GCM with a key expanded once, for sealing or opening many messages.
///
/// Nonces are 12 bytes and tags 16; callers own nonce uniqueness (random nonces for key slots,
/// counters for the blob stream). https://www.openssl.org/docs/man3.0/man3/EVP_EncryptInit.html
final class AESGCM {
    static let nonceSize = 12
    static let tagSize = 16

    private let context: OpaquePointer

    init(key: SecretBytes, forEncryption: Bool) throws {
        precondition(key.count == 32, "AES-256 needs a 32-byte key")
        guard let context = key.withUnsafeBytes({ phr_gcm_new($0.bindMemory(to: UInt8.self).baseAddress, forEncryption ? 1 : 0) })
        else { throw CryptoError.openSSL("EVP_EncryptInit_ex") }
        self.context = context
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// Encrypts `input` into `output` (same length) and writes the tag into `tag`.
    func seal(nonce: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer, input: UnsafeRawBufferPointer,
              output: UnsafeMutableRawBufferPointer, tag: UnsafeMutableRawBufferPointer) throws {
        precondition(nonce.count == Self.nonceSize && tag.count >= Self.tagSize && output.count >= input.count)
        let ok = phr_gcm_seal(context, nonce.u8, aad.u8, aad.count, input.u8, input.count,
                              output.u8m, tag.u8m)
        guard ok == 1 else { throw CryptoError.openSSL("aes-gcm seal") }
    }

    /// Authenticates and decrypts. On failure `output` is wiped and `authenticationFailed` thrown.
    func open(nonce: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer, input: UnsafeRawBufferPointer,
              tag: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) throws {
        precondition(nonce.count == Self.nonceSize && tag.count == Self.tagSize && output.count >= input.count)
        let ok = phr_gcm_open(context, nonce.u8, aad.u8, aad.count, input.u8, input.count, tag.u8,
                              output.u8m)
        guard ok == 1 else {
            if input.count > 0 { OPENSSL_cleanse(output.baseAddress, input.count) }
            throw CryptoError.authenticationFailed
        }
    }

    /// One-shot seal of a small message: returns nonce || ciphertext || tag with a random nonce.
    static func sealBox(key: SecretBytes, plaintext: UnsafeRawBufferPointer, aad: [UInt8]) throws -> [UInt8] {
        let gcm = try AESGCM(key: key, forEncryption: true)
        let nonce = try SecureRandom.bytes(nonceSize)
        var box = [UInt8](repeating: 0, count: nonceSize + plaintext.count + tagSize)
        try box.withUnsafeMutableBytes { out in
            try nonce.withUnsafeBytes { n in
                try aad.withUnsafeBytes { a in
                    out.copyMemory(from: n)
                    try gcm.seal(nonce: n, aad: a, input: plaintext,
                                 output: UnsafeMutableRawBufferPointer(rebasing: out[nonceSize..<(nonceSize + plaintext.count)]),
                                 tag: UnsafeMutableRawBufferPointer(rebasing: out[(nonceSize + plaintext.count)...]))
                }
            }
        }
        return box
    }

    /// Opens what `sealBox` produced into a new secret.
    static func openBox(key: SecretBytes, box: [UInt8], aad: [UInt8]) throws -> SecretBytes {
        guard box.count >= nonceSize + tagSize else { throw CryptoError.authenticationFailed }
        let gcm = try AESGCM(key: key, forEncryption: false)
        let length = box.count - nonceSize - tagSize
        return try box.withUnsafeBytes { b in
            try aad.withUnsafeBytes { a in
                try SecretBytes(count: length) { out in
                    try gcm.open(nonce: UnsafeRawBufferPointer(rebasing: b[0..<nonceSize]), aad: a,
                                 input: UnsafeRawBufferPointer(rebasing: b[nonceSize..<(nonceSize + length)]),
                                 tag: UnsafeRawBufferPointer(rebasing: b[(nonceSize + length)...]),
                                 output: out)
                }
            }
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The base address as a byte pointer; a valid dummy for empty buffers (OpenSSL ignores it).
    var u8: UnsafePointer<UInt8>? { baseAddress?.assumingMemoryBound(to: UInt8.self) }
}

extension UnsafeMutableRawBufferPointer {
    var u8m: UnsafeMutablePointer<UInt8>? { baseAddress?.assumingMemoryBound(to: UInt8.self) }
}
