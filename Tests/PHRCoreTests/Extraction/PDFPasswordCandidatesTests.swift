import Testing
@testable import PHRCore
@testable import PHRRender

/// The byte strings a typed password is tried as, and how they reach poppler unchanged.
@Suite struct PDFPasswordCandidatesTests {
    func candidates(_ text: String) -> [[UInt8]] {
        PDFPasswordCandidates.make(from: TestSupport.secret(text))
    }

    @Test func anASCIIPasswordIsTriedOnce() {
        #expect(candidates("user-secret") == [Array("user-secret".utf8)])
    }

    @Test func aLatin1PasswordIsTriedAsSASLpreppedUTF8ThenAsLatin1() {
        #expect(candidates("pässword") == [Array("pässword".utf8), [0x70, 0xE4, 0x73, 0x73, 0x77, 0x6F, 0x72, 0x64]])
    }

    @Test func anUnnormalizedPasswordIsAlsoTriedAsTyped() {
        let typed = "\u{2168}"  // Ⅸ
        #expect(candidates(typed) == [Array("IX".utf8), Array(typed.utf8)])
    }

    @Test func candidatesAreCutAt127Bytes() {
        let long = String(repeating: "é", count: 100)  // 200 bytes of UTF-8, 100 of Latin-1
        #expect(candidates(long).map(\.count) == [127, 100])
    }

    @Test func bytesThatAreNotUTF8AreTriedAsTheyAre() {
        let raw: [UInt8] = [0x66, 0xFF, 0x67]
        #expect(PDFPasswordCandidates.make(from: SecretBytes(copying: raw)) == [raw])
    }

    @Test func latin1TransparentSpellingSurvivesPopplersConversion() {
        // poppler converts the UTF-8 it is given to ISO 8859-1; this spelling converts back to the bytes.
        let bytes: [UInt8] = [0x49, 0xC3, 0xA9, 0xFF, 0x80]
        let spelled = PopplerReader.latin1TransparentUTF8(bytes)
        #expect(spelled.last == 0)
        let latin1 = String(decoding: spelled.dropLast(), as: UTF8.self).unicodeScalars.map { UInt8($0.value) }
        #expect(latin1 == bytes)
    }
}
