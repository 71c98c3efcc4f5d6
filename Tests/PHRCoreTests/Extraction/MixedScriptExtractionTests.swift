import Foundation
@testable import PHRCore
@testable import PHRTypesetting
import Testing

/// A page mixing left-to-right and right-to-left scripts, drawn with pango and real fonts as
/// phr's own PDFs are: every paragraph is extracted, in full, as pdftotext reads it.
@Suite struct MixedScriptExtractionTests {
    static let spanish = "Informe médico."
    static let arabic = "تقرير طبي للمريض. ضغط الدم طبيعي ويستمر العلاج دون تغيير. يجب على المريض مراجعة الطبيب بعد شهر واحد لإجراء فحص الدم."
    static let japanese = "患者の診療報告書です。"

    @Test func noParagraphIsLostAfterARightToLeftRun() throws {
        let directory = try TestSupport.temporaryDirectory("mixed-scripts")
        defer { TestSupport.remove(directory) }
        let (path, _) = try TypesettingTests.render(directory) { flow in
            flow.paragraph(.plain(Self.spanish))
            flow.paragraph(.plain(Self.arabic))
            flow.paragraph(.plain(Self.japanese))
        }
        let (_, pages) = try ExtractionFixtures.extract(path)
        let text = try #require(pages.first).text
        let words = Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
        // The page is mainly right-to-left: poppler-glib's glyph selection used to drop the
        // Spanish line and the footer (pdftotext has them).
        #expect(try PDFTools.text(path).contains("Informe médico."))
        #expect(words.isSuperset(of: ["Informe", "médico.", "page", "1", "/"]), "\(text)")
        #expect(text.contains("患者の診療報告書です"))
        func arabicLetters(_ string: String) -> Int {
            string.unicodeScalars.filter { (0x0621...0x064A).contains($0.value) }.count
        }
        #expect(arabicLetters(text) == arabicLetters(Self.arabic), "every Arabic letter is kept")
    }

    /// Words of the Arabic paragraph as a keyboard types them (none with lam-alef, whose
    /// ligature poppler and pdftotext both read as alef-lam).
    static let arabicWords = ["تقرير", "طبي", "للمريض.", "ضغط", "الدم", "طبيعي", "يجب", "على", "المريض", "مراجعة", "الطبيب", "بعد", "شهر", "واحد",
                              "فحص"]

    /// pango draws Arabic glyph by glyph from the left; on a mainly left-to-right page poppler
    /// returned each glyph as a word of its own in that order ("ض ي ر م ل ا" for "المريض").
    @Test func arabicOnAMainlyLeftToRightPageReadsAsTyped() throws {
        let directory = try TestSupport.temporaryDirectory("mixed-scripts-ltr")
        defer { TestSupport.remove(directory) }
        let spanish = String(repeating: "Informe médico del paciente: la presión arterial es normal y el tratamiento sigue sin cambios. ", count: 4)
        let (path, _) = try TypesettingTests.render(directory) { flow in
            flow.paragraph(.plain(spanish))
            flow.paragraph(.plain(Self.arabic))
            flow.paragraph(.plain(Self.japanese))
        }
        let text = try #require(try ExtractionFixtures.extract(path).1.first).text
        let words = Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(words.isSuperset(of: Self.arabicWords), "\(text)")
        #expect(text.contains("يجب على المريض مراجعة الطبيب بعد شهر واحد"), "\(text)")
        #expect(text.contains("患者の診療報告書です") && text.contains("Informe médico del paciente"))
    }

    /// On a mainly right-to-left page the glyphs come in typed order already: they are joined,
    /// not turned around.
    @Test func arabicOnAMainlyRightToLeftPageReadsAsTyped() throws {
        let directory = try TestSupport.temporaryDirectory("mixed-scripts-rtl")
        defer { TestSupport.remove(directory) }
        let (path, _) = try TypesettingTests.render(directory) { flow in
            flow.paragraph(.plain(Self.spanish))
            flow.paragraph(.plain(Self.arabic))
            flow.paragraph(.plain(Self.japanese))
        }
        let text = try #require(try ExtractionFixtures.extract(path).1.first).text
        let words = Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(words.isSuperset(of: Self.arabicWords), "\(text)")
    }
}
