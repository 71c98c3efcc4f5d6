import CPHRVFS
import Foundation
import Testing
@testable import PHRCore

/// The CPHRVFS page format: known answers from an independent implementation
/// (Vectors/make_vectors.py, pyca/cryptography), round trips, and every kind of tampering.
@Suite struct PageCipherTests {
    static let key = [UInt8](0..<32)
    static let nonce = [UInt8](0xA0..<0xAC)
    static let kindDB = Int32(UInt8(ascii: "D"))
    static let kindJournal = Int32(UInt8(ascii: "J"))

    /// Byte i of page n is (i * 7 + n) mod 251, reserve zero; page 1 gets a valid SQLite header.
    static func plainPage(_ number: UInt32) -> [UInt8] {
        var page = (0..<4096).map { UInt8((Int($0) * 7 + Int(number)) % 251) }
        for i in 4064..<4096 { page[i] = 0 }
        if number == 1 {
            page.replaceSubrange(0..<16, with: Array("SQLite format 3\0".utf8))
            page.replaceSubrange(16..<24, with: [0x10, 0x00, 0x01, 0x01, 32, 0x40, 0x20, 0x20])
        }
        return page
    }

    static func encrypt(_ plain: [UInt8], page: UInt32, kind: Int32, nonce: [UInt8]? = Self.nonce) throws -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: 4096)
        let rc = key.withUnsafeBytes { k in
            plain.withUnsafeBytes { p in
                raw.withUnsafeMutableBytes { r in
                    if let nonce {
                        return nonce.withUnsafeBytes { n in phr_page_encrypt(k.u8, page, kind, p.u8, r.u8m, n.u8) }
                    }
                    return phr_page_encrypt(k.u8, page, kind, p.u8, r.u8m, nil)
                }
            }
        }
        try #require(rc == Int32(PHR_OK))
        return raw
    }

    static func decrypt(_ raw: [UInt8], page: UInt32, kind: Int32) -> (Int32, [UInt8]) {
        var plain = [UInt8](repeating: 0xEE, count: 4096)
        let rc = key.withUnsafeBytes { k in
            raw.withUnsafeBytes { r in plain.withUnsafeMutableBytes { p in phr_page_decrypt(k.u8, page, kind, r.u8, p.u8m) } }
        }
        return (rc, plain)
    }

    @Test func knownAnswerForAnOrdinaryPage() throws {
        let raw = try Self.encrypt(Self.plainPage(2), page: 2, kind: Self.kindDB)
        #expect(Array(raw[0..<16]).hex == "e4116c3a5bee2e8c5824cf9c5127a4b5")
        #expect(Array(raw[24..<40]).hex == "36bf9e39b966a1da309fb708ac284225")
        #expect(Array(raw[4064..<4076]) == Self.nonce)
        #expect(Array(raw[4076..<4092]).hex == "f718c906830b1afd349f68f67b6d8171")
        #expect(Array(raw[4092..<4096]) == [0, 0, 0, 0])
    }

    @Test func knownAnswerForPageOneKeepsItsHeaderFieldsInTheClear() throws {
        let raw = try Self.encrypt(Self.plainPage(1), page: 1, kind: Self.kindDB)
        #expect(Array(raw[0..<16]) == Array("phr db format 1\0".utf8))
        #expect(raw[16] == 0x10 && raw[17] == 0x00, "page size 4096 stays readable")
        #expect(raw[20] == 32, "header byte 20 holds the reserve")
        #expect(Array(raw[24..<40]).hex == "4fa8cb938007d165838d68250573d0c9")
        #expect(Array(raw[4076..<4092]).hex == "ef73accff02daa38a6ca1ebe0808455b")
    }

    @Test func knownAnswerForAJournalPage() throws {
        let raw = try Self.encrypt(Self.plainPage(7), page: 7, kind: Self.kindJournal)
        #expect(Array(raw[0..<16]).hex == "e116693166e133875d23ca875c18a9ae")
        #expect(Array(raw[4076..<4092]).hex == "4e6a72d3f289ad116545506c0e9cbc10")
    }

    @Test(arguments: [UInt32(1), 2, 1000])
    func roundTripRestoresThePageWithAZeroReserve(page: UInt32) throws {
        let plain = Self.plainPage(page)
        let raw = try Self.encrypt(plain, page: page, kind: Self.kindDB, nonce: nil)
        let (rc, decrypted) = Self.decrypt(raw, page: page, kind: Self.kindDB)
        #expect(rc == Int32(PHR_OK))
        #expect(decrypted == plain)
    }

    @Test func randomNoncesMakeEveryWriteDifferent() throws {
        let a = try Self.encrypt(Self.plainPage(3), page: 3, kind: Self.kindDB, nonce: nil)
        let b = try Self.encrypt(Self.plainPage(3), page: 3, kind: Self.kindDB, nonce: nil)
        #expect(a != b)
        #expect(Array(a[4064..<4076]) != Array(b[4064..<4076]))
    }

    @Test func aPageCannotMoveToAnotherPositionOrFile() throws {
        let raw = try Self.encrypt(Self.plainPage(5), page: 5, kind: Self.kindDB)
        #expect(Self.decrypt(raw, page: 6, kind: Self.kindDB).0 == Int32(PHR_ERR_AUTH))
        #expect(Self.decrypt(raw, page: 5, kind: Self.kindJournal).0 == Int32(PHR_ERR_AUTH))
    }

    /// Content, header, nonce, tag and spare bytes: one flipped bit anywhere is caught, and the
    /// output buffer holds zeros, never unauthenticated plaintext.
    @Test(arguments: [0, 17, 20, 23, 24, 2000, 4063, 4064, 4075, 4076, 4091, 4092, 4095])
    func aFlippedBitAnywhereFailsAuthentication(offset: Int) throws {
        var raw = try Self.encrypt(Self.plainPage(1), page: 1, kind: Self.kindDB)
        raw[offset] ^= 0x04
        let (rc, plain) = Self.decrypt(raw, page: 1, kind: Self.kindDB)
        #expect(rc == Int32(PHR_ERR_AUTH))
        #expect(plain.allSatisfy { $0 == 0 })
    }

    @Test func aWrongKeyFailsAuthentication() throws {
        let raw = try Self.encrypt(Self.plainPage(4), page: 4, kind: Self.kindDB)
        var plain = [UInt8](repeating: 0, count: 4096)
        let otherKey = [UInt8](repeating: 7, count: 32)
        let rc = otherKey.withUnsafeBytes { k in
            raw.withUnsafeBytes { r in plain.withUnsafeMutableBytes { p in phr_page_decrypt(k.u8, 4, Self.kindDB, r.u8, p.u8m) } }
        }
        #expect(rc == Int32(PHR_ERR_AUTH))
    }

    @Test func pageOneWithoutOurReserveIsNeverEncrypted() throws {
        var plain = Self.plainPage(1)
        plain[20] = 0  // SQLite's default reserve: the tag would overwrite cell content
        var raw = [UInt8](repeating: 0, count: 4096)
        let rc = Self.key.withUnsafeBytes { k in
            plain.withUnsafeBytes { p in raw.withUnsafeMutableBytes { r in phr_page_encrypt(k.u8, 1, Self.kindDB, p.u8, r.u8m, nil) } }
        }
        #expect(rc == Int32(PHR_ERR_FORMAT))
    }
}
