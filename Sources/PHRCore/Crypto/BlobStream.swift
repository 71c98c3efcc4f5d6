import CPHROpenSSL

/// The STREAM construction (Hoang, Reyhanitabar, Rogaway, Vizár 2015) as age uses it, with
/// AES-256-GCM: the chunked authenticated encryption of document blobs.
///
/// Format (Schemas/vault-format-v1.md):
///
///     magic "phrblob\u{1}" (8 bytes) | nonce (16 bytes) | chunk 0 | chunk 1 | ... | final chunk
///
/// - The payload key is HKDF-SHA256(blob key, salt = nonce, info = "phr/v1/blob-payload"), so every
///   blob has its own key and the 96-bit chunk nonces never repeat under one key.
/// - Each chunk encrypts 64 KiB of plaintext (the last one 1...64 KiB, or 0 bytes for an empty
///   blob) and carries a 16-byte tag. Its nonce is an 11-byte big-endian counter followed by a flag
///   byte, 0x01 on the final chunk and 0x00 otherwise: truncation at a chunk boundary, reordering,
///   a missing or extra final chunk and trailing data all fail authentication.
/// - Plaintext is released chunk by chunk, each only after its tag verified. A consumer that must
///   not act on a prefix (an export) writes to a temporary file and keeps it only when the whole
///   stream verified.
///
/// See https://age-encryption.org/v1 ("payload") and https://eprint.iacr.org/2015/189.
public enum BlobStream {
    public static let magic: [UInt8] = Array("phrblob".utf8) + [1]
    public static let nonceSize = 16
    public static let headerSize = 8 + 16
    public static let chunkSize = 64 * 1024
    public static let tagSize = 16
    public static let sealedChunkSize = chunkSize + tagSize
    static let info = "phr/v1/blob-payload"

    /// The ciphertext size of a `plaintextSize`-byte blob.
    public static func sealedSize(plaintextSize: Int64) -> Int64 {
        let chunks = max(1, (plaintextSize + Int64(chunkSize) - 1) / Int64(chunkSize))
        return Int64(headerSize) + plaintextSize + chunks * Int64(tagSize)
    }

    static func chunkNonce(counter: UInt64, final: Bool) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: 12)
        for i in 0..<8 { nonce[3 + i] = UInt8(truncatingIfNeeded: counter >> UInt64(8 * (7 - i))) }
        nonce[11] = final ? 1 : 0
        return nonce
    }
}

/// Encrypts a byte stream into the blob format. Feed plaintext with `write`, then call `finish`;
/// sealed bytes go to `sink` as they are produced. Memory use is bounded by two chunks.
public final class BlobEncryptor {
    private let gcm: AESGCM
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var pending: [UInt8] = []
    private var counter: UInt64 = 0
    private var sealed: [UInt8]
    private var finished = false

    public convenience init(key: SecretBytes, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        let nonce = try SecureRandom.bytes(BlobStream.nonceSize)
        try self.init(key: key, nonce: nonce, sink: sink)
    }

    /// With a fixed nonce, for known-answer tests only.
    init(key: SecretBytes, nonce: [UInt8], sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        precondition(nonce.count == BlobStream.nonceSize)
        let payloadKey = try KeyDerivation.hkdf(key: key, salt: nonce, info: BlobStream.info)
        gcm = try AESGCM(key: payloadKey, forEncryption: true)
        self.sink = sink
        sealed = [UInt8](repeating: 0, count: BlobStream.sealedChunkSize)
        pending.reserveCapacity(2 * BlobStream.chunkSize)
        try (BlobStream.magic + nonce).withUnsafeBytes { try sink($0) }
    }

    deinit { wipe(&pending) }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!finished, "write after finish")
        pending.append(contentsOf: bytes)
        // Hold back the last full chunk: only `finish` knows whether it is the final one.
        while pending.count > BlobStream.chunkSize {
            try emit(count: BlobStream.chunkSize, final: false)
        }
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    public func finish() throws {
        precondition(!finished, "finish twice")
        finished = true
        try emit(count: pending.count, final: true)
    }

    private func emit(count: Int, final: Bool) throws {
        let nonce = BlobStream.chunkNonce(counter: counter, final: final)
        counter += 1
        try pending.withUnsafeBytes { input in
            try sealed.withUnsafeMutableBytes { output in
                try nonce.withUnsafeBytes { n in
                    try gcm.seal(nonce: n, aad: UnsafeRawBufferPointer(start: nil, count: 0),
                                 input: UnsafeRawBufferPointer(rebasing: input[0..<count]),
                                 output: UnsafeMutableRawBufferPointer(rebasing: output[0..<count]),
                                 tag: UnsafeMutableRawBufferPointer(rebasing: output[count..<(count + BlobStream.tagSize)]))
                }
                try sink(UnsafeRawBufferPointer(rebasing: output[0..<(count + BlobStream.tagSize)]))
            }
        }
        pending.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, count) }
        pending.removeFirst(count)
    }
}

/// Why a blob failed to decrypt. The chunk index is 0-based.
public enum BlobStreamError: Error, Equatable, CustomStringConvertible {
    case badHeader
    case truncated
    case chunkFailed(index: Int)
    case emptyFinalChunk(index: Int)

    public var description: String {
        switch self {
        case .badHeader: return "not a phr blob (bad header)"
        case .truncated: return "truncated"
        case .chunkFailed(let index): return "chunk \(index + 1) failed authentication"
        case .emptyFinalChunk(let index): return "chunk \(index + 1) is an empty final chunk"
        }
    }
}

/// Decrypts the blob format from `source`, which fills a buffer and returns the count read
/// (fewer than asked only at end of input). Each authenticated chunk goes to `sink`.
/// Returns the plaintext length.
public enum BlobDecryptor {
    @discardableResult
    public static func decrypt(key: SecretBytes,
                               source: (UnsafeMutableRawBufferPointer) throws -> Int,
                               sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Int64 {
        var header = [UInt8](repeating: 0, count: BlobStream.headerSize)
        let headerRead = try header.withUnsafeMutableBytes { try source($0) }
        guard headerRead == BlobStream.headerSize, Array(header[0..<8]) == BlobStream.magic else {
            throw headerRead < BlobStream.headerSize && Array(header.prefix(headerRead)) == Array(BlobStream.magic.prefix(headerRead))
                ? BlobStreamError.truncated : BlobStreamError.badHeader
        }
        let payloadKey = try KeyDerivation.hkdf(key: key, salt: Array(header[8...]), info: BlobStream.info)
        let gcm = try AESGCM(key: payloadKey, forEncryption: false)

        var current = [UInt8](repeating: 0, count: BlobStream.sealedChunkSize)
        var next = [UInt8](repeating: 0, count: BlobStream.sealedChunkSize)
        var plain = [UInt8](repeating: 0, count: BlobStream.chunkSize)
        defer { wipe(&plain) }
        var currentCount = try current.withUnsafeMutableBytes { try source($0) }
        var index = 0
        var total: Int64 = 0
        while true {
            guard currentCount >= BlobStream.tagSize else { throw BlobStreamError.truncated }
            var final = currentCount < BlobStream.sealedChunkSize
            var nextCount = 0
            if !final {
                nextCount = try next.withUnsafeMutableBytes { try source($0) }
                final = nextCount == 0
            }
            let length = currentCount - BlobStream.tagSize
            if final && length == 0 && index > 0 { throw BlobStreamError.emptyFinalChunk(index: index) }
            let nonce = BlobStream.chunkNonce(counter: UInt64(index), final: final)
            do {
                try current.withUnsafeBytes { c in
                    try plain.withUnsafeMutableBytes { p in
                        try nonce.withUnsafeBytes { n in
                            try gcm.open(nonce: n, aad: UnsafeRawBufferPointer(start: nil, count: 0),
                                         input: UnsafeRawBufferPointer(rebasing: c[0..<length]),
                                         tag: UnsafeRawBufferPointer(rebasing: c[length..<(length + BlobStream.tagSize)]),
                                         output: p)
                        }
                    }
                }
            } catch CryptoError.authenticationFailed {
                throw BlobStreamError.chunkFailed(index: index)
            }
            try plain.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            total += Int64(length)
            if final { return total }
            swap(&current, &next)
            currentCount = nextCount
            index += 1
        }
    }
}
