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
}
