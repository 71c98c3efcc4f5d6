import Foundation
import Testing
@testable import PHRCore

/// SASLprep (RFC 4013) against the RFC's own examples and each step of RFC 3454.
@Suite struct SASLprepTests {
    /// RFC 4013 section 3, examples 1 to 5.
    @Test(arguments: [
        ("I\u{00AD}X", "IX"),  // soft hyphen mapped to nothing
        ("user", "user"),
        ("USER", "USER"),  // case is preserved
        ("\u{00AA}", "a"),  // NFKC
        ("\u{2168}", "IX"),  // NFKC: ROMAN NUMERAL NINE
    ])
    func theRFCExamplesPrepare(_ input: String, _ output: String) throws {
        #expect(try SASLprep.prepare(input) == output)
    }

    /// RFC 4013 section 3, examples 6 and 7.
    @Test func theRFCErrorExamplesFail() {
        #expect(throws: ExtractionError.passwordProhibitedCharacter) { try SASLprep.prepare("\u{0007}") }
        #expect(throws: ExtractionError.passwordBidirectionalText) { try SASLprep.prepare("\u{0627}\u{0031}") }
    }

    @Test func nonASCIISpacesBecomeSpacesAndZeroWidthCharactersVanish() throws {
        #expect(try SASLprep.prepare("a\u{00A0}b\u{3000}c") == "a b c")
        #expect(try SASLprep.prepare("a\u{200B}b\u{FEFF}c\u{FE0F}") == "abc")
    }

    @Test func normalizationComposesAndFoldsCompatibilityForms() throws {
        #expect(try SASLprep.prepare("cafe\u{0301}") == "caf\u{00E9}")
        #expect(try SASLprep.prepare("\u{FB01}x") == "fix")
        #expect(try SASLprep.prepare("\u{FF21}\u{FF22}") == "AB")  // fullwidth
    }

    /// Controls, private use, non-characters, replacement, ideographic description, directional
    /// controls, tags and musical formatting (tables C.2 to C.9).
    @Test(arguments: [0x0000, 0x007F, 0x0085, 0xE000, 0xF0000, 0xFDD0, 0xFFFF, 0x1FFFE, 0xFFFD, 0x2FF0, 0x200E,
                      0x202E, 0xE0001, 0x1D173] as [UInt32])
    func prohibitedCharactersAreRejected(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(throws: ExtractionError.passwordProhibitedCharacter) { try SASLprep.prepare("a\(Character(scalar))b") }
    }

    @Test func rightToLeftPasswordsMustBeWhollyRightToLeft() throws {
        #expect(try SASLprep.prepare("\u{05E9}\u{05DC}\u{05D5}\u{05DD}") == "\u{05E9}\u{05DC}\u{05D5}\u{05DD}")
        #expect(try SASLprep.prepare("\u{0627}1\u{0628}") == "\u{0627}1\u{0628}")  // digits inside are fine
        #expect(throws: ExtractionError.passwordBidirectionalText) { try SASLprep.prepare("\u{05E9}a\u{05DD}") }
        #expect(throws: ExtractionError.passwordBidirectionalText) { try SASLprep.prepare("1\u{05E9}") }
    }

    @Test func storedStringsRejectCodePointsUnassignedInUnicode32() throws {
        let laterEmoji = "\u{1F600}"  // Unicode 6.1
        #expect(try SASLprep.prepare(laterEmoji) == laterEmoji)
        #expect(throws: ExtractionError.passwordProhibitedCharacter) { try SASLprep.prepare(laterEmoji, storedString: true) }
        #expect(try SASLprep.prepare("pässword", storedString: true) == "pässword")
    }

    @Test func errorsNeverNameTheCharacter() {
        for error in [ExtractionError.passwordProhibitedCharacter, .passwordBidirectionalText] {
            #expect(!error.localizedDescription.contains("\u{0007}"))
            #expect(error.exitStatus == .dataError)
        }
    }

    @Test func theTablesAreSortedAndDisjoint() {
        for table in [StringprepTables.mappedToNothing, StringprepTables.nonASCIISpace, StringprepTables.prohibited,
                      StringprepTables.randALCat, StringprepTables.lCat] {
            #expect(zip(table, table.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
        }
        #expect(StringprepTables.contains(StringprepTables.lCat, 0x41))
        #expect(!StringprepTables.contains(StringprepTables.lCat, 0x05D0))
        #expect(StringprepTables.contains(StringprepTables.randALCat, 0x05D0))
    }
}
