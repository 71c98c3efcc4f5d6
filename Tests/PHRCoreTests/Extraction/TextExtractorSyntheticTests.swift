import Foundation
import Testing
@testable import PHRCore

/// Extraction of PDFs written by `SyntheticPDF`, for what the corpus does not cover: SASLprep'd
/// AES-256 passwords, junk text layers, mixed pages, form fields, memory files and a 200 MB file.
@Suite struct TextExtractorSyntheticTests {
    let directory: String

    init() throws {
        directory = try TestSupport.temporaryDirectory("synthetic-pdf")
    }

    func write(_ pdf: SyntheticPDF, _ name: String = "document.pdf") throws -> String {
        try pdf.write(to: "\(directory)/\(name)")
    }

    static let letter = SyntheticPDF.Page.text("Referral letter", "Reason for referral: persistent cough", "Date: 2025-03-12")

    @Test func anR6PasswordIsSASLpreppedBeforePopplerSeesIt() throws {
        defer { TestSupport.remove(directory) }
        // A conforming writer stored SASLprep("Ⅸ") = "IX"; the user types the Roman numeral.
        let path = try write(SyntheticPDF(pages: [Self.letter], userPassword: Array("IX".utf8)))
        let extractor = ExtractionFixtures.extractor()
        for typed in ["Ⅸ", "I\u{00AD}X", "IX"] {
            let (summary, pages) = try ExtractionFixtures.extract(path, password: typed, with: extractor)
            #expect(summary.outcome == .indexed, "typed \(typed.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(summary.metadata.isEncrypted)
            #expect(pages.first?.text.contains("persistent cough") == true)
        }
        let (wrong, pages) = try ExtractionFixtures.extract(path, password: "XI", with: extractor)
        #expect(wrong.outcome == .passwordRequired)
        #expect(pages.isEmpty)
    }

    @Test func aDecomposedAccentOpensAFileProtectedWithTheComposedOne() throws {
        defer { TestSupport.remove(directory) }
        let path = try write(SyntheticPDF(pages: [Self.letter], userPassword: Array("caf\u{E9}".utf8)))
        let (summary, _) = try ExtractionFixtures.extract(path, password: "cafe\u{301}")
        #expect(summary.outcome == .indexed)
        let (unnormalized, _) = try ExtractionFixtures.extract(path, password: "cafe")
        #expect(unnormalized.outcome == .passwordRequired)
    }

    @Test func privateUseTextIsJunkAndNeverHandedOn() throws {
        defer { TestSupport.remove(directory) }
        let path = try write(SyntheticPDF(pages: [Self.letter, Self.letter], glyphs: .privateUse))
        let (summary, pages) = try ExtractionFixtures.extract(path)
        #expect(summary.outcome == .junkText)
        #expect(summary.reason == "the text layer is unusable (fonts without character maps); needs OCR")
        #expect(pages.map(\.quality) == [.junk, .junk])
        #expect(pages.allSatisfy { $0.text.isEmpty })
    }

    @Test func glyphNumbersInsteadOfCharactersAreJunk() throws {
        defer { TestSupport.remove(directory) }
        let path = try write(SyntheticPDF(pages: [Self.letter], glyphs: .glyphNumbers))
        let (summary, _) = try ExtractionFixtures.extract(path)
        #expect(summary.outcome == .junkText)
    }

    @Test func aDocumentWithTextAndScannedPagesIsPartial() throws {
        defer { TestSupport.remove(directory) }
        let path = try write(SyntheticPDF(pages: [Self.letter, .scanned, .blank]))
        let (summary, pages) = try ExtractionFixtures.extract(path)
        #expect(summary.outcome == .partial)
        #expect(summary.reason == "1 of 3 pages are images without text (need OCR)")
        #expect(pages.map(\.quality) == [.text, .imageOnly, .blank])
        #expect(summary.textPages == 1)
    }

    @Test func blankPagesDoNotMakeATextDocumentPartial() throws {
        defer { TestSupport.remove(directory) }
        let path = try write(SyntheticPDF(pages: [Self.letter, .blank]))
        let (summary, _) = try ExtractionFixtures.extract(path)
        #expect(summary.outcome == .indexed)
    }

    @Test func filledFormFieldsAreText() throws {
        defer { TestSupport.remove(directory) }
        var page = SyntheticPDF.Page.text("Patient intake form")
        page.formValues = ["Jane Example", "penicillin allergy"]
        let path = try write(SyntheticPDF(pages: [page]))
        let (summary, pages) = try ExtractionFixtures.extract(path)
        #expect(summary.outcome == .indexed)
        let text = try #require(pages.first).text
        #expect(text.contains("Patient intake form"))
        #expect(text.contains("Jane Example") && text.contains("penicillin allergy"))
    }

    @Test func titleAndCreationDateAreRead() throws {
        defer { TestSupport.remove(directory) }
        let path = try write(SyntheticPDF(pages: [Self.letter], title: "Referral to pulmonology\u{1}",
                                          creationDate: "D:20250312101500Z"))
        let (summary, _) = try ExtractionFixtures.extract(path)
        #expect(summary.metadata.title == "Referral to pulmonology")
        #expect(summary.metadata.creationDate.map(Timestamp.string) == "2025-03-12T10:15:00Z")
        #expect(!summary.metadata.isEncrypted)
    }

    @Test func aMemoryFileIsExtractedThroughItsDescriptor() throws {
        defer { TestSupport.remove(directory) }
        let path = try write(SyntheticPDF(pages: [Self.letter]))
        let memory = try MemoryFile.make()
        try memory.write(Array(try #require(FileManager.default.contents(atPath: path))))
        let summary = try ExtractionFixtures.extractor().extract(.file(memory)) { page in
            #expect(page.text.contains("persistent cough"))
        }
        #expect(summary.outcome == .indexed)
    }

    @Test func aLazyBatchOpensEachDocumentOnlyWhenAWorkerIsFree() throws {
        defer { TestSupport.remove(directory) }
        let paths = try (0..<6).map { try write(SyntheticPDF(pages: [Self.letter]), "batch-\($0).pdf") }
        var opened = 0
        var finished = 0
        let jobs = paths.lazy.map { path -> ExtractionJob in
            opened += 1
            #expect(opened - finished <= 2, "at most one document per worker in flight")
            return ExtractionJob(.file(try! FileDescriptor.openForReading(path)))
        }
        try ExtractionFixtures.extractor().extractAll(jobs, onPage: { _, _ in }, onFinish: { _, summary in
            finished += 1
            #expect(summary.outcome == .indexed)
        })
        #expect(finished == 6)
    }

    /// DESIGN.md section 10: adding a 200 MB PDF must not hold it in memory. The parent passes a
    /// descriptor and reads one kilobyte; the worker reads what poppler needs.
    @Test func a200MegabytePDFIsNeverLoadedIntoTheParent() throws {
        defer { TestSupport.remove(directory) }
        let size = 200 << 20
        let path = try write(SyntheticPDF(pages: [Self.letter], paddingBytes: size))
        #expect((FileSystem.fileSize(path) ?? 0) > Int64(size))
        let before = ExtractionFixtures.peakResidentBytes()
        let (summary, pages) = try ExtractionFixtures.extract(path)
        #expect(summary.outcome == .indexed)
        #expect(pages.first?.text.contains("persistent cough") == true)
        #expect(ExtractionFixtures.peakResidentBytes() - before < 64 << 20)
    }
}
