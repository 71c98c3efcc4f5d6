import Foundation
import Testing
@testable import PHRCore

/// The blob STREAM format: known answers from an independent implementation
/// (Vectors/make_vectors.py), round trips at the chunk boundaries, and every malformation the
/// format must reject without releasing unauthenticated plaintext.
@Suite struct BlobStreamTests {
    static let key = SecretBytes(copying: [UInt8](0..<32))
    static let nonce = [UInt8](0x10..<0x20)
    static let chunk = BlobStream.chunkSize

    static func seal(_ plaintext: [UInt8], nonce: [UInt8]? = Self.nonce) throws -> [UInt8] {
        var out: [UInt8] = []
        let encryptor = try nonce.map { try BlobEncryptor(key: key, nonce: $0) { out += $0 } }
            ?? BlobEncryptor(key: key) { out += $0 }
        // Odd write sizes exercise the buffering across chunk boundaries.
        var offset = 0
        var step = 1
        while offset < plaintext.count {
            let end = min(plaintext.count, offset + step)
            try encryptor.write(Array(plaintext[offset..<end]))
            offset = end
            step = step * 3 + 1
        }
        try encryptor.finish()
        return out
    }

    /// Decrypts, returning what the sink received and the error, if any.
    static func open(_ sealed: [UInt8], key: SecretBytes = Self.key) -> (released: [UInt8], error: Error?) {
        var offset = 0
        var released: [UInt8] = []
        do {
            try BlobDecryptor.decrypt(key: key, source: { buffer in
                let count = min(buffer.count, sealed.count - offset)
                sealed.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
                offset += count
                return count
            }, sink: { released += $0 })
            return (released, nil)
        } catch {
            return (released, error)
        }
    }

    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 256) } }

    @Test func knownAnswerForASmallBlob() throws {
        let sealed = try Self.seal(Array("phr blob stream test vector".utf8))
        #expect(sealed.hex == "706872626c6f6201101112131415161718191a1b1c1d1e1f6145df8be85e5e36b5762b52da8bbab24ad6f1a66e7e14a9dd62b93d57cf209810128b4e1692a470d5ffb3")
    }

    @Test func knownAnswerForAnEmptyBlob() throws {
        #expect(try Self.seal([]).hex == "706872626c6f6201101112131415161718191a1b1c1d1e1f5803f3792ff02f1890822c122e4a3060")
    }

    @Test func knownAnswerAcrossAChunkBoundary() throws {
        let sealed = try Self.seal(Self.pattern(Self.chunk + 5))
        #expect(sealed.count == 65597)
        #expect(Array(sealed[(24 + Self.chunk)..<(24 + Self.chunk + 16)]).hex == "479daca671dc7582789b847ae71ba4a5")
        #expect(Array(sealed.suffix(16)).hex == "1ec9870bcdbfd5521fa70af207370be1")
    }

    @Test(arguments: [0, 1, 65535, 65536, 65537, 3 * 65536, 3 * 65536 + 17])
    func roundTrip(size: Int) throws {
        let plaintext = Self.pattern(size)
        let sealed = try Self.seal(plaintext, nonce: nil)
        #expect(Int64(sealed.count) == BlobStream.sealedSize(plaintextSize: Int64(size)))
        let (released, error) = Self.open(sealed)
        #expect(error == nil)
        #expect(released == plaintext)
    }

    @Test func missingFinalChunkIsRejected() throws {
        let sealed = try Self.seal(Self.pattern(2 * Self.chunk + 10))
        let withoutLast = Array(sealed.prefix(24 + 2 * BlobStream.sealedChunkSize))
        let (released, error) = Self.open(withoutLast)
        #expect(error as? BlobStreamError == .chunkFailed(index: 1))
        #expect(released == Array(Self.pattern(Self.chunk)), "only the authenticated first chunk was released")
    }

    /// A stream whose first chunk is marked final, followed by another final chunk.
    @Test func twoFinalChunksAreRejected() throws {
        let payloadKey = try KeyDerivation.hkdf(key: Self.key, salt: Self.nonce, info: BlobStream.info)
        let gcm = try AESGCM(key: payloadKey, forEncryption: true)
        func sealChunk(_ plain: [UInt8], index: UInt64, final: Bool) throws -> [UInt8] {
            var out = [UInt8](repeating: 0, count: plain.count + 16)
            let nonce = BlobStream.chunkNonce(counter: index, final: final)
            try nonce.withUnsafeBytes { n in
                try plain.withUnsafeBytes { p in
                    try out.withUnsafeMutableBytes { o in
                        try gcm.seal(nonce: n, aad: UnsafeRawBufferPointer(start: nil, count: 0), input: p,
                                     output: UnsafeMutableRawBufferPointer(rebasing: o[0..<plain.count]),
                                     tag: UnsafeMutableRawBufferPointer(rebasing: o[plain.count...]))
                    }
                }
            }
            return out
        }
        let full = Self.pattern(Self.chunk)
        let stream = BlobStream.magic + Self.nonce + (try sealChunk(full, index: 0, final: true)) + (try sealChunk([1, 2, 3], index: 1, final: true))
        let (released, error) = Self.open(stream)
        #expect(error as? BlobStreamError == .chunkFailed(index: 0))
        #expect(released.isEmpty)
        // And an empty final chunk after a full one is refused as such.
        let emptyFinal = BlobStream.magic + Self.nonce + (try sealChunk(full, index: 0, final: false)) + (try sealChunk([], index: 1, final: true))
        #expect(Self.open(emptyFinal).error as? BlobStreamError == .emptyFinalChunk(index: 1))
    }

    @Test func trailingGarbageIsRejected() throws {
        for size in [10, Self.chunk] {
            let sealed = try Self.seal(Self.pattern(size)) + Array("garbage".utf8)
            #expect(Self.open(sealed).error != nil)
            #expect(Self.open(try Self.seal(Self.pattern(size)) + [UInt8](repeating: 0, count: 40)).error != nil)
        }
    }

    @Test func aFlippedBitInChunkTwoReleasesOnlyChunkOne() throws {
        var sealed = try Self.seal(Self.pattern(3 * Self.chunk))
        sealed[24 + BlobStream.sealedChunkSize + 1234] ^= 0x01
        let (released, error) = Self.open(sealed)
        #expect(error as? BlobStreamError == .chunkFailed(index: 1))
        #expect(released == Array(Self.pattern(Self.chunk)))
    }

    @Test(arguments: [1, 23, 24, 30, 24 + 65552, 24 + 65552 + 100])
    func truncationIsRejected(keep: Int) throws {
        let sealed = try Self.seal(Self.pattern(2 * Self.chunk + 100))
        #expect(Self.open(Array(sealed.prefix(keep))).error != nil)
    }

    @Test func reorderedChunksAreRejected() throws {
        let sealed = try Self.seal(Self.pattern(3 * Self.chunk))
        let c = BlobStream.sealedChunkSize
        let swapped = Array(sealed[0..<24]) + Array(sealed[(24 + c)..<(24 + 2 * c)]) + Array(sealed[24..<(24 + c)]) + Array(sealed[(24 + 2 * c)...])
        #expect(Self.open(swapped).error as? BlobStreamError == .chunkFailed(index: 0))
    }

    @Test func aWrongKeyOrHeaderIsRejected() throws {
        let sealed = try Self.seal(Self.pattern(100))
        #expect(Self.open(sealed, key: SecretBytes(copying: [UInt8](repeating: 9, count: 32))).error as? BlobStreamError == .chunkFailed(index: 0))
        var badMagic = sealed
        badMagic[0] = UInt8(ascii: "X")
        #expect(Self.open(badMagic).error as? BlobStreamError == .badHeader)
        var badNonce = sealed
        badNonce[10] ^= 1
        #expect(Self.open(badNonce).error as? BlobStreamError == .chunkFailed(index: 0))
    }
}
