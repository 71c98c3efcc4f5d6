import Foundation
import Testing
@testable import PHRCore

/// Known-answer tests of the OpenSSL wrappers against published vectors.
@Suite struct CryptoPrimitivesTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    @Test func aes256GCMMatchesTheGCMSpecificationTestCase16() throws {
        // McGrew & Viega, "The Galois/Counter Mode of Operation", test case 16.
        let key = SecretBytes(copying: Self.bytes("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
        let plaintext = Self.bytes("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let aad = Self.bytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let nonce = Self.bytes("cafebabefacedbaddecaf888")
        let gcm = try AESGCM(key: key, forEncryption: true)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: 16)
        try nonce.withUnsafeBytes { n in
            try aad.withUnsafeBytes { a in
                try plaintext.withUnsafeBytes { p in
                    try ciphertext.withUnsafeMutableBytes { c in
                        try tag.withUnsafeMutableBytes { t in
                            try gcm.seal(nonce: n, aad: a, input: p, output: c, tag: t)
                        }
                    }
                }
            }
        }
        #expect(ciphertext.hex == "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662")
        #expect(tag.hex == "76fc6ece0f4e1768cddf8853bb2d551b")

        let opener = try AESGCM(key: key, forEncryption: false)
        var opened = [UInt8](repeating: 0, count: plaintext.count)
        var badTag = tag
        badTag[0] ^= 1
        #expect(throws: CryptoError.authenticationFailed) {
            try nonce.withUnsafeBytes { n in
                try aad.withUnsafeBytes { a in
                    try ciphertext.withUnsafeBytes { c in
                        try badTag.withUnsafeBytes { t in
                            try opened.withUnsafeMutableBytes { o in
                                try opener.open(nonce: n, aad: a, input: c, tag: t, output: o)
                            }
                        }
                    }
                }
            }
        }
        #expect(opened.allSatisfy { $0 == 0 }, "a failed open must not leave unauthenticated plaintext")
    }

    @Test func scryptMatchesRFC7914() throws {
        // RFC 7914 section 12: scrypt("password", "NaCl", N=1024, r=8, p=16); we take 32 bytes.
        let key = try KeyDerivation.scrypt(passphrase: SecretBytes(copying: Array("password".utf8)),
                                           salt: Array("NaCl".utf8),
                                           parameters: ScryptParameters(log2N: 10, r: 8, p: 16))
        #expect(key.withUnsafeBytes { Array($0) }.hex == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162")
    }

    @Test func scryptRefusesParametersOutsideTheBounds() {
        #expect(!ScryptParameters(log2N: 23, r: 8, p: 1).isWithinBounds)
        #expect(!ScryptParameters(log2N: 20, r: 16, p: 1).isWithinBounds, "2 GiB is over the 1 GiB cap")
        #expect(!ScryptParameters(log2N: 9, r: 8, p: 1).isWithinBounds)
        #expect(ScryptParameters.standard.isWithinBounds)
        #expect(ScryptParameters.standard.memoryBytes == 128 << 20)
    }

    @Test func hkdfMatchesRFC5869TestCase1() throws {
        let okm = try KeyDerivation.hkdf(key: SecretBytes(copying: [UInt8](repeating: 0x0b, count: 22)),
                                         salt: Self.bytes("000102030405060708090a0b0c"),
                                         info: Self.bytes("f0f1f2f3f4f5f6f7f8f9"), count: 42)
        #expect(okm.withUnsafeBytes { Array($0) }.hex == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test func hmacSHA256MatchesRFC4231TestCase2() throws {
        let mac = try HMACSHA256.mac(key: SecretBytes(copying: Array("Jefe".utf8)), Array("what do ya want for nothing?".utf8))
        #expect(mac.hex == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func sha256MatchesFIPS180Example() throws {
        #expect(try SHA256Hasher.hash(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func recoveryKeysRoundTripAndForgiveTyping() throws {
        let (text, secret) = try RecoveryKey.generate()
        #expect(text.count == 39, "eight groups of four plus seven dashes")
        let parsed = try #require(RecoveryKey.parse(text))
        #expect(parsed.isEqual(to: secret))
        let sloppy = text.lowercased().replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "0", with: "o")
        #expect(try #require(RecoveryKey.parse(sloppy)).isEqual(to: secret))
        #expect(RecoveryKey.parse("correct horse battery staple") == nil)
        #expect(RecoveryKey.parse(String(text.dropLast())) == nil)
    }
}
