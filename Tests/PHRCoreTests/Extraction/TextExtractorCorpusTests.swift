import Foundation
import Testing
@testable import PHRCore
@testable import PHRModel

/// Every PDF of the third-party corpus (`CorpusData`, pdfs/SOURCES.md) through the real worker
/// process: the outcome each category must give, page counts against the manifest (pdfinfo's),
/// passwords, and words of several scripts found on their page.
@Suite struct TextExtractorCorpusTests {
    @Test(.corpus) func theCorpusIsPresent() {
        #expect(ExtractionFixtures.corpusFiles.count >= 50, "missing \(ExtractionFixtures.corpus)")
    }

    @Test(.corpus, arguments: ExtractionFixtures.files(in: "text") + ExtractionFixtures.files(in: "medical"))
    func textDocumentsAreIndexedWithEveryPage(_ file: ExtractionFixtures.CorpusFile) throws {
        let pageCount = try #require(file.pageCount)
        let (summary, pages) = try ExtractionFixtures.extract(file.path)
        #expect(summary.outcome == .indexed, "\(summary.reason ?? "")")
        #expect(summary.pageCount == pageCount)
        #expect(pages.map(\.number) == Array(1...pageCount))
        #expect(summary.textPages >= 1)
        #expect(summary.reason == nil)
        #expect(!summary.metadata.isEncrypted)
    }

    @Test(.corpus, arguments: ExtractionFixtures.files(in: "scanned"))
    func scansHaveNoTextAndNeedOCR(_ file: ExtractionFixtures.CorpusFile) throws {
        let (summary, pages) = try ExtractionFixtures.extract(file.path)
        #expect(summary.outcome == .noText)
        #expect(summary.pageCount == file.pageCount)
        #expect(pages.allSatisfy { $0.text.isEmpty && ($0.quality == .imageOnly || $0.quality == .blank) })
        if file.dest != "ocrmypdf__vector.pdf" {
            // Text drawn as curves has no images either; every real scan does.
            #expect(pages.allSatisfy { $0.quality == .imageOnly })
        }
    }

    @Test(.corpus, arguments: ExtractionFixtures.files(in: "broken"))
    func brokenFilesAreReadAfterRepairOrReportedUnreadable(_ file: ExtractionFixtures.CorpusFile) throws {
        let (summary, pages) = try ExtractionFixtures.extract(file.path)
        if let pageCount = file.pageCount {
            // poppler repairs these (pdfinfo opened them).
            #expect([.indexed, .partial].contains(summary.outcome), "\(summary.reason ?? "")")
            #expect(summary.pageCount == pageCount)
            #expect(pages.count == pageCount)
        } else {
            #expect(summary.outcome == .unreadable)
            #expect(pages.isEmpty)
            let reason = try #require(summary.reason)
            #expect(!reason.contains("\n") && reason.count < 120)
            #expect(reason.first?.isLowercase == true)
        }
    }

    @Test(.corpus) func brokenFilesGetAReasonThatSaysWhy() throws {
        let expected = [
            "DERIVED_truncated50pct__tracemonkey.pdf": "truncated: the file ends before its end-of-file marker",
            "qpdf__bad1.pdf": "not a PDF file or an image",
            "pdfjs__Brotli-Prototype-FileA.pdf": "uses a compression method poppler cannot read (BrotliDecode)",
            "pdfjs__poppler-67295-0.pdf": "damaged: invalid page count",
            "qpdf__bad40.pdf": "damaged: the document catalog is missing",
            "ocrmypdf__invalid.pdf": "damaged: no usable cross-reference table or trailer",
        ]
        let extractor = ExtractionFixtures.extractor()
        for (name, reason) in expected {
            let (summary, _) = try ExtractionFixtures.extract(ExtractionFixtures.file(name).path, with: extractor)
            #expect(summary.outcome == .unreadable, "\(name)")
            #expect(summary.reason == reason, "\(name)")
        }
        let (repaired, _) = try ExtractionFixtures.extract(ExtractionFixtures.file("pdfjs__poppler-90-0-fuzzed.pdf").path, with: extractor)
        #expect(repaired.syntaxErrors > 100, "poppler's syntax errors are counted, not printed")
    }

    @Test(.corpus, arguments: ExtractionFixtures.files(in: "encrypted"))
    func encryptedFilesOpenWithTheirPasswordAndOnlyThen(_ file: ExtractionFixtures.CorpusFile) throws {
        let extractor = ExtractionFixtures.extractor()
        let (withoutPassword, _) = try ExtractionFixtures.extract(file.path, with: extractor)
        #expect(withoutPassword.metadata.isEncrypted)
        guard let password = file.password else {
            // Owner-password-only files open without a password.
            #expect([.indexed, .noText].contains(withoutPassword.outcome))
            #expect(withoutPassword.pageCount == file.pageCount)
            return
        }
        #expect(withoutPassword.outcome == .passwordRequired)
        #expect(withoutPassword.reason == "a password is required")

        let (wrong, _) = try ExtractionFixtures.extract(file.path, password: "not-\(password)", with: extractor)
        #expect(wrong.outcome == .passwordRequired)
        #expect(wrong.reason == "the password is wrong")
        #expect(!(wrong.reason ?? "").contains(password))

        let (opened, pages) = try ExtractionFixtures.extract(file.path, password: password, with: extractor)
        #expect([.indexed, .noText].contains(opened.outcome), "\(opened.reason ?? "")")
        #expect(opened.metadata.isEncrypted)
        #expect(opened.pageCount == file.pageCount)
        #expect(pages.count == file.pageCount)
    }

    @Test(.corpus) func aes256Revision6TextComesOutWithThePassword() throws {
        let file = ExtractionFixtures.file("qpdf__enc-XI-R6-V5-U_view-O_master.pdf")
        let (summary, pages) = try ExtractionFixtures.extract(file.path, password: "view")
        #expect(summary.outcome == .indexed)
        #expect(pages.count == 30 && pages.allSatisfy { $0.quality == .text })
        #expect(pages.map(\.text).prefix(3) == ["Potato 0", "Potato 1", "Potato 2"])
    }

    /// A known word of each script, on the page it is printed on.
    @Test(.corpus, arguments: [
        ("pdfjs__issue11656_hebrew.pdf", 1, "לחוק"),
        ("pdfjs__issue13211_thai.pdf", 1, "เวกเตอร์"),
        ("popplertest__deseret.pdf", 1, "𐐐𐐯𐑊𐐬"),
        ("pdfjs__ArabicCIDTrueType.pdf", 1, "العربية"),
        ("pypdf__GeoTopo-komprimiert.pdf", 1, "Einführung"),
        ("pypdf__GeoTopo-komprimiert.pdf", 3, "Würfel"),
        ("pdfjs__standard_fonts.pdf", 1, "quick brown fox"),
        ("pdfjs__standard_fonts.pdf", 13, "θυιχκ βροων φοξ"),
        ("popplertest__WithActualText.pdf", 1, "slow brown fox"),
        ("medical__lab_report_cbc_lipid_3p.pdf", 1, "Hemoglobin"),
    ])
    func aKnownWordIsOnItsPage(_ name: String, _ pageNumber: Int, _ word: String) throws {
        let (_, pages) = try ExtractionFixtures.extract(ExtractionFixtures.file(name).path)
        let page = try #require(pages.first { $0.number == pageNumber })
        #expect(page.text.contains(word))
    }

    @Test(.corpus) func rightToLeftRunsBecomeSeparateWordsWithoutControls() throws {
        let (_, pages) = try ExtractionFixtures.extract(ExtractionFixtures.file("pdfjs__issue11656_hebrew.pdf").path)
        let text = try #require(pages.first).text
        #expect(text.hasPrefix("לחיוב פעולות"))
        #expect(!text.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) })
        let (_, arabic) = try ExtractionFixtures.extract(ExtractionFixtures.file("pdfjs__ArabicCIDTrueType.pdf").path)
        #expect(!(arabic.first?.text.unicodeScalars.contains { PageTextCleaner.isPresentationForm($0.value) } ?? true),
                "presentation forms are folded to the letters a keyboard types")
        // poppler reads this page in typed order; joining glyph runs must not turn it around.
        #expect(arabic.first?.text.hasPrefix("انواع الخطوط العربية") == true, "\(arabic.first?.text ?? "")")
    }

    @Test(.corpus) func metadataComesFromTheDocumentInformation() throws {
        let (summary, _) = try ExtractionFixtures.extract(ExtractionFixtures.file("pdfjs__calrgb.pdf").path)
        #expect(summary.metadata.title == "CalRGB Color Space Test PDF")
        #expect(summary.metadata.creationDate.map { Timestamp.string($0) } == "2014-08-16T09:27:19Z")
    }

    @Test(.corpus) func theWholeCorpusRunsInOneBatchWithoutStoppingTheParent() throws {
        let files = ExtractionFixtures.corpusFiles
        let jobs = files.map { ExtractionJob(.path($0.path), password: $0.password.map(TestSupport.secret)) }
        let (summaries, pages) = try ExtractionFixtures.extractAll(jobs, with: ExtractionFixtures.extractor())
        #expect(summaries.count == files.count)
        for (index, file) in files.enumerated() {
            let summary = try #require(summaries[index])
            #expect((pages[index] ?? []).count == (summary.outcome == .unreadable ? 0 : summary.pageCount), "\(file.dest)")
            if let pageCount = file.pageCount, summary.outcome != .passwordRequired {
                #expect(summary.pageCount == pageCount, "\(file.dest)")
            }
        }
    }
}
