import Foundation
import Testing
@testable import PHRCore
@testable import PHRRender

/// OCR in the extraction workers: what gets read, what a hostile or hanging image costs, and
/// the words' boxes. Accuracy per degradation class is measured in PHRCLITests' OCRAccuracyTests.
@Suite(.serialized) struct OCRExtractionTests {
    let directory: String

    init() throws {
        directory = try TestSupport.temporaryDirectory("ocr")
    }

    static let letter = SyntheticPDF.Page.text("Referral letter", "Dear colleague, please see Alex Example",
                                               "for a cardiology consultation regarding palpitations.")

    /// Page `page` of `pdf` as a grey PNG at `dpi`, drawn by pdftoppm (poppler-utils).
    func render(_ pdf: String, page: Int = 1, dpi: Int = 300, name: String) throws -> String {
        let prefix = "\(directory)/\(name)"
        let process = try Process.run(URL(fileURLWithPath: "/usr/bin/pdftoppm"),
                                      arguments: ["-r", "\(dpi)", "-gray", "-png", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf, prefix])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return prefix + ".png"
    }

    static let auto = OCROptions(mode: .auto, languages: "eng")

    @Test func aJunkTextLayerIsReadByOCRInstead() throws {
        defer { TestSupport.remove(directory) }
        let path = try SyntheticPDF(pages: [Self.letter], glyphs: .privateUse).write(to: "\(directory)/junk.pdf")
        var pages: [ExtractedPage] = []
        let summary = try ExtractionFixtures.extractor().extract(.path(path), ocr: Self.auto) { pages.append($0) }
        #expect(summary.outcome == .ocr, "\(summary.reason ?? "")")
        #expect(summary.ocrPages == 1)
        let page = try #require(pages.first)
        #expect(page.source == .ocr && page.quality == .text)
        #expect(page.text.contains("cardiology consultation"), "\(page.text)")
        #expect((page.ocrConfidence ?? 0) >= OCRLanguages.lowConfidenceFloor)
        // The words come with upright boxes on the page, in points: the title above the body.
        let words = try #require(page.layout?.words)
        let title = try #require(words.first { $0.text == "Referral" })
        let body = try #require(words.first { $0.text == "cardiology" })
        #expect(title.y1 <= body.y0 && title.line < body.line)
        #expect(words.allSatisfy { $0.x0 >= 0 && $0.x1 <= 612 && $0.y0 >= 0 && $0.y1 <= 792 && $0.x0 < $0.x1 })
        // Without OCR the junk stays out of the index, as before.
        let withoutOCR = try ExtractionFixtures.extractor().extract(.path(path), ocr: .none) { _ in }
        #expect(withoutOCR.outcome == .junkText)
    }

    @Test func aScannedPageIsReadAndATextLayerIsLeftAlone() throws {
        defer { TestSupport.remove(directory) }
        let path = try SyntheticPDF(pages: [.text("Discharge summary", "Hospital course: uneventful."), .scanned])
            .write(to: "\(directory)/mixed.pdf")
        var pages: [ExtractedPage] = []
        let summary = try ExtractionFixtures.extractor().extract(.path(path), ocr: Self.auto) { pages.append($0) }
        #expect(pages.map(\.source) == [.textLayer, .ocr])
        #expect(pages[0].text.contains("Hospital course"))
        // The synthetic scan is a blank picture: OCR ran and found nothing.
        #expect(pages[1].quality == .imageOnly && !pages[1].ocrFailed)
        #expect(summary.outcome == .partial)
        #expect(summary.reason == "1 of 2 pages are images where OCR found no text")
    }

    /// An image bomb (50,000 x 50,000 pixels in a few hundred bytes) and a truncated photo are
    /// each that file's outcome, refused before decoding; the batch goes on.
    @Test func anImageBombAndATruncatedImageCostThemselvesOnly() throws {
        defer { TestSupport.remove(directory) }
        let bomb = "\(directory)/bomb.png"
        #expect(FileManager.default.createFile(atPath: bomb, contents: Data(PNGHeader.bomb(width: 50_000, height: 50_000))))
        let good = try render(try SyntheticPDF(pages: [Self.letter]).write(to: "\(directory)/letter.pdf"), dpi: 200, name: "letter")
        let truncated = "\(directory)/truncated.png"
        let bytes = try #require(FileManager.default.contents(atPath: good))
        #expect(FileManager.default.createFile(atPath: truncated, contents: bytes.prefix(bytes.count / 3)))
        let (summaries, pages) = try ExtractionFixtures.extractAll([bomb, truncated, good].map { ExtractionJob(.path($0), ocr: Self.auto) },
                                                                   with: ExtractionFixtures.extractor())
        #expect(summaries[0]?.outcome == .unreadable)
        #expect(summaries[0]?.reason == "the image is 50000 x 50000 pixels, more than phr reads (100 megapixels, 32767 pixels a side)")
        #expect(summaries[1]?.outcome == .unreadable)
        #expect(summaries[1]?.reason?.contains("damaged or truncated") == true, "\(summaries[1]?.reason ?? "")")
        #expect(summaries[2]?.outcome == .ocr)
        #expect(pages[2]?.first?.text.contains("palpitations") == true)
        // One megapixel, but a side longer than Tesseract takes (it aborted the worker): refused too.
        let strip = "\(directory)/strip.png"
        #expect(FileManager.default.createFile(atPath: strip, contents: Data(PNGHeader.bomb(width: 40_000, height: 25))))
        let (stripSummaries, _) = try ExtractionFixtures.extractAll([ExtractionJob(.path(strip), ocr: Self.auto)], with: ExtractionFixtures.extractor())
        #expect(stripSummaries[0]?.outcome == .unreadable)
        #expect(stripSummaries[0]?.reason == "the image is 40000 x 25 pixels, more than phr reads (100 megapixels, 32767 pixels a side)")
    }

    /// Tesseract's deadline stops word recognition, not the layout analysis before it, which on a
    /// dark, noisy photo takes seconds per pass (issue 37, item 7: such a photo burned 30 s of CPU
    /// and ended "unreadable"). Here every pass first burns 6 s of CPU (a debug hook), with 12 s
    /// per page and so an 8 s OCR cap: a second pass (the table reading) would end past the CPU
    /// limit and get the worker killed, so it is not started; the page keeps its OCR text.
    @Test func aPassThatWouldOverrunTheCapIsNotStarted() throws {
        defer { TestSupport.remove(directory) }
        let path = try SyntheticPDF(pages: [.text("Laboratory report", "Hemoglobin 13.5 g/dL")], glyphs: .privateUse)
            .write(to: "\(directory)/slow.pdf")
        let limits = ExtractionLimits(cpuSecondsPerStep: 12, stepTimeout: 60, parallelWorkers: 1)
        let extractor = ExtractionFixtures.extractor(limits, faults: ["PHR_TEST_OCR_PASS_SPIN": "6"])
        var pages: [ExtractedPage] = []
        let summary = try extractor.extract(.path(path), ocr: OCROptions(mode: .auto, languages: "eng", tables: true)) { pages.append($0) }
        #expect(summary.outcome == .ocr, "\(summary.reason)")
        #expect(pages.count == 1 && pages[0].source == .ocr && pages[0].text.contains("Hemoglobin"), "\(pages.map(\.text))")
        #expect(summary.reason?.contains("CPU") != true, "\(summary.reason ?? "")")
    }

    /// A page on which OCR hangs (the worker test fault fires on its OCR text) is killed after
    /// the step timeout; the pages after it are read by a fresh worker.
    @Test func aPageThatHangsCostsThatPageOnly() throws {
        defer { TestSupport.remove(directory) }
        let path = try SyntheticPDF(pages: [.text("Laboratory report", "Hemoglobin 13.5 g/dL"),
                                            .text("Lipid panel", "Zanzibar triglycerides 140 mg/dL"),
                                            .text("Comments", "Fasting sample.")], glyphs: .privateUse)
            .write(to: "\(directory)/lab.pdf")
        // Long enough for a fresh worker to load its model and read a page while other suites
        // run OCR on the same two cores.
        let limits = ExtractionLimits(stepTimeout: 12)
        let extractor = ExtractionFixtures.extractor(limits, faults: [WorkerTestFaults.hangVariable: "Zanzibar"])
        var pages: [ExtractedPage] = []
        let summary = try extractor.extract(.path(path), ocr: Self.auto) { pages.append($0) }
        #expect(pages.map(\.number) == [1, 3])
        #expect(pages.allSatisfy { $0.source == .ocr && $0.quality == .text })
        #expect(summary.outcome == .partial)
        #expect(summary.reason == "2 of 3 pages by OCR, mean confidence \(Int((pages.compactMap(\.ocrConfidence).reduce(0, +) / 2).rounded())), 1 of 3 pages could not be read (page 2: the reader made no progress for 12 s)")
    }

    /// Six pages to OCR on two workers: once the second worker has nothing else to do, it takes
    /// the later pages, and the caller gets every page in order with the text one worker reads.
    /// A worker that dies on a page of either part costs that page only.
    @Test func aLongScanIsReadOnBothWorkersInOrder() throws {
        defer { TestSupport.remove(directory) }
        let words = ["Amsterdam", "Bordeaux", "Cordoba", "Dortmund", "Zanzibar", "Florence"]
        let path = try SyntheticPDF(pages: words.map { .text("Referral \($0)", "Dear colleague, please see Alex Example.") })
            .write(to: "\(directory)/six.pdf")
        let always = OCROptions(mode: .always, languages: "eng")
        var one: [ExtractedPage] = []
        let single = ExtractionFixtures.extractor(ExtractionLimits(parallelWorkers: 1))
        let alone = try single.extract(.path(path), ocr: always) { one.append($0) }
        #expect(single.splits == 0)
        var two: [ExtractedPage] = []
        let pair = ExtractionFixtures.extractor()
        let shared = try pair.extract(.path(path), ocr: always) { two.append($0) }
        #expect(pair.splits >= 1)
        #expect(two.map(\.number) == Array(1...6))
        #expect(two.map(\.text) == one.map(\.text))
        #expect(zip(words, two).allSatisfy { $1.text.contains($0) })
        #expect(shared == alone && shared.outcome == .ocr)

        // Page 5 is in the second worker's part, page 2 in the first's.
        for (marker, lost) in [("Zanzibar", 5), ("Bordeaux", 2)] {
            let faulty = ExtractionFixtures.extractor(faults: [WorkerTestFaults.crashVariable: marker])
            var pages: [ExtractedPage] = []
            let summary = try faulty.extract(.path(path), ocr: always) { pages.append($0) }
            #expect(faulty.splits >= 1)
            #expect(pages.map(\.number) == Array(1...6).filter { $0 != lost })
            #expect(summary.outcome == .partial)
            #expect(summary.reason?.hasSuffix("1 of 6 pages could not be read (page \(lost): the reader crashed (SIGSEGV))") == true,
                    "\(summary.reason ?? "")")
        }
    }

    /// Word boxes read on a page lying on its side are turned with the page: on a 100 x 200
    /// image, a word at the top left is at the top right after a quarter turn clockwise, at the
    /// bottom right after a half turn, at the bottom left after three quarters.
    @Test func wordBoxesTurnWithThePage() {
        TestSupport.remove(directory)
        let word = PageWord(text: "Ferritin", x0: 10, y0: 20, x1: 40, y1: 30, line: 0, confidence: 90)
        func box(_ quarters: Int) -> [Double] {
            let turned = OCREngine.turned(word, quarters: quarters, width: 100, height: 200)
            return [turned.x0, turned.y0, turned.x1, turned.y1]
        }
        #expect(box(0) == [10, 20, 40, 30])
        #expect(box(1) == [170, 10, 180, 40])
        #expect(box(2) == [60, 170, 90, 180])
        #expect(box(3) == [20, 60, 30, 90])
        #expect(OCREngine.turned(word, quarters: 1, width: 100, height: 200).text == "Ferritin")
    }

    /// A page OCR read with low confidence is still found, but after every other hit, however
    /// well its words match.
    @Test func lowConfidenceOCRPagesRankAfterEveryOtherHit() throws {
        let (vault, _, vaultDirectory) = try TestSupport.makeVault("ocrrank")
        defer {
            TestSupport.remove(vaultDirectory)
            TestSupport.remove(directory)
        }
        let profile = try vault.database.read { try Profiles.resolve($0, name: nil) }
        let importer = DocumentImporter(vault: vault, profile: profile, extractor: ExtractionFixtures.extractor())
        let strong = try SyntheticPDF(pages: [.text("Ferritin ferritin ferritin", "Ferritin 12 ng/mL, ferritin low")]).write(to: "\(directory)/strong.pdf")
        let weak = try SyntheticPDF(pages: [.text("Iron studies", "A long page about many things; ferritin is named once here among other words")])
            .write(to: "\(directory)/weak.pdf")
        var options = DocumentImporter.Options()
        options.ocr = .none
        let added = try importer.add([strong, weak], options: options).compactMap(\.document)
        let engine = SearchEngine(vault: vault, profile: profile)
        #expect(try engine.search("ferritin").hits.map(\.id) == [added[0].id, added[1].id])
        // The page that matches best turns out to be a low-confidence OCR reading.
        try vault.database.write { db in
            try db.execute(sql: "INSERT INTO document_page (document_id, page, ocr, confidence) VALUES (?, 1, 'low_confidence', 41)",
                           arguments: [added[0].id])
        }
        #expect(try engine.search("ferritin").hits.map(\.id) == [added[1].id, added[0].id])
        #expect(try engine.search("\"ferritin\"").hits.map(\.id) == [added[1].id, added[0].id])
    }

    @Test func missingLanguageDataIsNamedWithItsPackage() throws {
        defer { TestSupport.remove(directory) }
        // A data directory with English only.
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/eng.traineddata",
                                                   withDestinationPath: OCRLanguages.dataDirectory(environment: [:]) + "/eng.traineddata")
        let environment = ["TESSDATA_PREFIX": directory]
        #expect(OCRLanguages.missing("deu+eng", directory: directory) == ["deu"])
        #expect(throws: DocumentError.ocrLanguageMissing(languages: ["deu"], directory: directory, option: Field("ocr-lang"))) {
            try OCRLanguages.validate("deu+eng", environment: environment)
        }
        let error = DocumentError.ocrLanguageMissing(languages: ["chi_sim"], directory: directory, option: Field("ocr-lang"))
        #expect(error.exitStatus == .unavailable)
        #expect(error.hint?.description.contains("apt-get install tesseract-ocr-chi-sim") == true)
        #expect(OCRLanguages.parse("eng; rm -rf") == nil && OCRLanguages.parse("deu+eng") == ["deu", "eng"])
        #expect(OCRLanguages.defaultSpec(environment: ["LANG": "de_DE.UTF-8", "TESSDATA_PREFIX": directory]) == "eng",
                "German data is not installed, so English alone")
    }
}

/// A PNG that declares huge dimensions over a tiny, incomplete image: what an image bomb looks
/// like to a reader that trusts the header.
enum PNGHeader {
    static func bomb(width: UInt32, height: UInt32) -> [UInt8] {
        var ihdr: [UInt8] = []
        for value in [width, height] { ihdr += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        ihdr += [1, 0, 0, 0, 0]  // 1 bit per pixel, grey, deflate, no filter, no interlace
        // A zlib stream of a few empty rows: the rest of the picture is missing.
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let length = UInt32(data.count)
        let body = Array(type.utf8) + data
        let crc = CRC32.checksum(body)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
