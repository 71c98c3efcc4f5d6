import Testing
@testable import PHRCore
@testable import PHRRender

/// The framed messages between the parent and a worker, and the parent's checks of them.
@Suite struct WorkerProtocolTests {
    func roundTrip(_ message: WorkerMessage) throws -> WorkerMessage {
        var decoder = FrameDecoder(maximumPayload: 1 << 20)
        message.encoded().withUnsafeBytes { decoder.append($0) }
        let frame = try #require(try decoder.next())
        #expect(try decoder.next() == nil)
        return try WorkerMessage.decode(kind: frame.kind, payload: frame.payload)
    }

    @Test func everyMessageSurvivesEncoding() throws {
        let messages: [WorkerMessage] = [
            .ready(version: WorkerProtocol.version, extractor: "poppler 22.12.0; phr-extract 1"),
            .opened(WorkerOpenedDocument(pageCount: 117, isEncrypted: true, creationTime: 1_741_774_500, title: "Laborbefund – März")),
            .opened(WorkerOpenedDocument(pageCount: 0, isEncrypted: false, creationTime: nil, title: nil)),
            .page(number: 3, flags: [.hasImages], text: "𐐐𐐯𐑊𐐬 שלום\nline two"),
            .page(number: 4, flags: .failed, text: ""),
            .page(WorkerPage(number: 5, flags: [.hasImages], source: .ocr, confidence: 87, width: 595.28, height: 841.89,
                             note: "turned 180 degrees",
                             words: [PageWord(text: "Ferritin", x0: 72, y0: 100.5, x1: 120.2, y1: 111, line: 0, confidence: 91),
                                     PageWord(text: "12", x0: 300, y0: 100.5, x1: 312, y1: 111, line: 0, confidence: 64)],
                             text: "Ferritin 12")),
            .page(WorkerPage(number: 6, flags: [.hasImages, .ocrFailed], source: .ocr, note: "OCR took longer than 26 s", text: "")),
            .done(.read, retiring: false, syntaxErrors: 0, reason: ""),
            .done(.unreadable, retiring: true, syntaxErrors: 1283, reason: "damaged beyond repair"),
        ]
        for message in messages {
            #expect(try roundTrip(message) == message)
        }
    }

    @Test func framesArriveInPiecesAndTogether() throws {
        let bytes = WorkerMessage.page(number: 1, flags: [], text: "abc").encoded()
            + WorkerMessage.done(.read, retiring: false, syntaxErrors: 2, reason: "").encoded()
        var decoder = FrameDecoder(maximumPayload: 1024)
        var decoded: [WorkerMessage] = []
        for byte in bytes {
            [byte].withUnsafeBytes { decoder.append($0) }
            while let frame = try decoder.next() {
                decoded.append(try WorkerMessage.decode(kind: frame.kind, payload: frame.payload))
            }
        }
        #expect(decoded == [.page(number: 1, flags: [], text: "abc"), .done(.read, retiring: false, syntaxErrors: 2, reason: "")])
        #expect(decoder.pendingByteCount == 0)
    }

    @Test func oversizedUnknownAndMalformedFramesAreViolations() throws {
        var decoder = FrameDecoder(maximumPayload: 16)
        WorkerMessage.page(number: 1, flags: [], text: String(repeating: "x", count: 100)).encoded().withUnsafeBytes { decoder.append($0) }
        #expect(throws: ExtractionError.self) { try decoder.next() }

        #expect(throws: ExtractionError.protocolViolation(detail: "unknown message kind 9")) {
            try WorkerMessage.decode(kind: 9, payload: [])
        }
        #expect(throws: ExtractionError.protocolViolation(detail: "a message ends early")) {
            try WorkerMessage.decode(kind: WorkerMessage.Kind.opened.rawValue, payload: [1, 0])
        }
        #expect(throws: ExtractionError.protocolViolation(detail: "unknown document status")) {
            try WorkerMessage.decode(kind: WorkerMessage.Kind.done.rawValue, payload: [7, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: ExtractionError.protocolViolation(detail: "trailing bytes in a ready message")) {
            try WorkerMessage.decode(kind: WorkerMessage.Kind.ready.rawValue, payload: [2, 0, 1, 0, 0, 0, 0x78, 0])
        }
        #expect(throws: ExtractionError.protocolViolation(detail: "a message ends early")) {
            try WorkerMessage.decode(kind: WorkerMessage.Kind.ready.rawValue, payload: [2, 0, 9, 0, 0, 0, 0x78])
        }
    }

    @Test func jobsCarryTheOCRRequestAndTheFirstPage() throws {
        let job = WorkerJob(passwordCandidates: [], ocr: OCROptions(mode: .always, languages: "deu+eng", textLayerWords: true), firstPage: 7)
        var decoder = FrameDecoder(maximumPayload: 1024)
        job.encoded().withUnsafeBytes { decoder.append($0) }
        let frame = try #require(try decoder.next())
        let decoded = try WorkerJob.decode(kind: frame.kind, payload: frame.payload)
        #expect(decoded.ocr == job.ocr)
        #expect(decoded.firstPage == 7)
        // The table reading of `phr lab extract` travels too.
        let tables = WorkerJob(passwordCandidates: [], ocr: OCROptions(mode: .auto, languages: "eng", tables: true), firstPage: 1)
        var again = FrameDecoder(maximumPayload: 1024)
        tables.encoded().withUnsafeBytes { again.append($0) }
        let tableFrame = try #require(try again.next())
        let decodedTables = try WorkerJob.decode(kind: tableFrame.kind, payload: tableFrame.payload).ocr
        #expect(decodedTables.tables && !decodedTables.textLayerWords)
        #expect(decoded.lastPage == nil)
    }

    /// The second part of a split document: a job for pages 4 to 6, and the limit that stops
    /// the first worker after page 3. A range that ends before it starts is refused.
    @Test func aSplitDocumentsJobAndLimitTravel() throws {
        var decoder = FrameDecoder(maximumPayload: 1024)
        (WorkerJob(passwordCandidates: [], firstPage: 4, lastPage: 6).encoded() + WorkerLimit(lastPage: 3).encoded()
            + WorkerJob(passwordCandidates: [], firstPage: 4, lastPage: 3).encoded()).withUnsafeBytes { decoder.append($0) }
        let job = try #require(try decoder.next())
        let decoded = try WorkerJob.decode(kind: job.kind, payload: job.payload)
        #expect(decoded.firstPage == 4 && decoded.lastPage == 6)
        let limit = try #require(try decoder.next())
        #expect(limit.kind == WorkerLimit.kind)
        #expect(try WorkerLimit.decode(payload: limit.payload) == WorkerLimit(lastPage: 3))
        #expect(throws: ExtractionError.self) { try WorkerJob.decode(kind: limit.kind, payload: limit.payload) }
        let backwards = try #require(try decoder.next())
        #expect(throws: ExtractionError.self) { try WorkerJob.decode(kind: backwards.kind, payload: backwards.payload) }
        #expect(throws: ExtractionError.self) { try WorkerLimit.decode(payload: [0, 0, 0, 0]) }
    }

    @Test func wordBoxesSurviveTheirCodingAndMalformedOnesAreRefused() throws {
        let words = [PageWord(text: "Hämoglobin", x0: 0, y0: 1.25, x1: 6553.5, y1: 12, line: 3, confidence: 100),
                     PageWord(text: String(repeating: "ü", count: 200), x0: 1, y0: 2, x1: 3, y1: 4, line: 65535)]
        let decoded = try #require(PageWordCoding.decode(PageWordCoding.encode(words)))
        #expect(decoded[0] == PageWord(text: "Hämoglobin", x0: 0, y0: 1.3, x1: 6553.5, y1: 12, line: 3, confidence: 100)
            || decoded[0] == PageWord(text: "Hämoglobin", x0: 0, y0: 1.2, x1: 6553.5, y1: 12, line: 3, confidence: 100))
        // Cut at a character boundary within 255 bytes.
        #expect(decoded[1].text == String(repeating: "ü", count: 127))
        let encoded = PageWordCoding.encode(words)
        #expect(PageWordCoding.decode(encoded.dropLast()) == nil)
        #expect(PageWordCoding.decode([2, 0, 0, 0, 0]) == nil)
        #expect(PageWordCoding.decode([1, 0xFF, 0xFF, 0xFF, 0xFF]) == nil)
        #expect(PageWordCoding.decode(encoded + [0]) == nil)
    }

    @Test func anOCRPageWithTextIsSearchableAndALowConfidenceOneIsMarked() throws {
        var assembly = DocumentAssembly()
        try assembly.open(WorkerOpenedDocument(pageCount: 3, isEncrypted: false))
        let clear = try assembly.page(WorkerPage(number: 1, source: .ocr, confidence: 92, width: 612, height: 792,
                                                 words: [PageWord(text: "Ferritin", x0: 1, y0: 1, x1: 2, y1: 2, line: 0, confidence: 92)],
                                                 text: "Ferritin"))
        #expect(clear.quality == .text && clear.source == .ocr && !clear.isLowConfidenceOCR)
        #expect(clear.layout?.words.count == 1 && clear.layout?.width == 612)
        let faint = try assembly.page(WorkerPage(number: 2, source: .ocr, confidence: 41, text: "faint words"))
        #expect(faint.quality == .text && faint.isLowConfidenceOCR)
        let failed = try assembly.page(WorkerPage(number: 3, flags: [.hasImages, .ocrFailed], source: .ocr,
                                                  note: "OCR took longer than 26 s", text: ""))
        #expect(failed.quality == .imageOnly && failed.ocrFailed && failed.note == "OCR took longer than 26 s")
        let summary = try assembly.summary(status: .read, syntaxErrors: 0, reason: "")
        #expect(summary.outcome == .partial)
        #expect(summary.reason == "2 of 3 pages by OCR, mean confidence 67, 1 low-confidence, 1 of 3 pages are images where OCR found no text")
        #expect(summary.ocrPages == 2)
    }

    @Test func jobsCarryPasswordCandidatesAndAreWipedOnceRead() throws {
        let job = WorkerJob(passwordCandidates: [Array("IX".utf8), [0xE9]])
        var decoder = FrameDecoder(maximumPayload: 1024)
        (job.encoded() + WorkerJob(passwordCandidates: []).encoded()).withUnsafeBytes { decoder.append($0) }
        let frame = try #require(try decoder.next())
        #expect(try WorkerJob.decode(kind: frame.kind, payload: frame.payload).passwordCandidates == job.passwordCandidates)
        decoder.wipeConsumed()
        let second = try #require(try decoder.next())
        #expect(try WorkerJob.decode(kind: second.kind, payload: second.payload).passwordCandidates.isEmpty)
    }

    @Test func theParentChecksPagesAgainstThePageCount() throws {
        var assembly = DocumentAssembly()
        #expect(throws: ExtractionError.self) { try assembly.page(number: 1, flags: [], text: "early") }
        try assembly.open(WorkerOpenedDocument(pageCount: 2, isEncrypted: false, creationTime: nil, title: "  A\u{7}\n title  "))
        #expect(throws: ExtractionError.self) { try assembly.open(WorkerOpenedDocument(pageCount: 9, isEncrypted: false)) }
        #expect(throws: ExtractionError.self) { try assembly.page(number: 2, flags: [], text: "skipped one") }
        let first = try assembly.page(number: 1, flags: [], text: "Hello")
        #expect(first == ExtractedPage(number: 1, text: "Hello", quality: .text))
        #expect(throws: ExtractionError.self) { try assembly.summary(status: .read, syntaxErrors: 0, reason: "") }
        _ = try assembly.page(number: 2, flags: [.hasImages], text: "")
        #expect(throws: ExtractionError.self) { try assembly.page(number: 3, flags: [], text: "beyond the end") }
        let summary = try assembly.summary(status: .read, syntaxErrors: 4, reason: "ignored")
        #expect(summary == ExtractionSummary(outcome: .partial, pageCount: 2, textPages: 1,
                                             reason: "1 of 2 pages are images without text (need OCR)",
                                             metadata: DocumentMetadata(title: "A title"), syntaxErrors: 4))
    }

    /// Pages a part's worker could not open again are lost as one run, however many the
    /// worker's page count says (a billion pages costs the parent nothing), and named as runs.
    @Test func lostPagesAreRunsNotOneEntryEach() throws {
        var assembly = DocumentAssembly()
        try assembly.open(WorkerOpenedDocument(pageCount: 1_000_000_000, isEncrypted: false))
        _ = try assembly.page(number: 1, flags: [], text: "Page one")
        try assembly.losePage("the reader crashed (SIGSEGV)")
        _ = try assembly.page(number: 3, flags: [], text: "Page three")
        try assembly.losePages(through: 1_000_000_000, "the document could not be opened again")
        #expect(throws: ExtractionError.self) { try assembly.losePage("beyond the end") }
        let summary = try assembly.summary(status: .read, syntaxErrors: 0, reason: "")
        #expect(summary.outcome == .partial)
        #expect(summary.reason == "999999998 of 1000000000 pages could not be read (pages 2, 4-1000000000: the reader crashed (SIGSEGV))")
    }

    @Test func titlesLoseControlsAndExtraWhitespace() {
        #expect(DocumentAssembly.cleanTitle("  Lab\u{0}results\n 2025\u{202E} ") == "Lab results 2025")
        #expect(DocumentAssembly.cleanTitle(" \u{1}\n") == nil)
        #expect(DocumentAssembly.cleanTitle(String(repeating: "a", count: 400))?.count == 300)
    }

    @Test func aWorkersReasonIsReducedToOnePrintableLine() {
        #expect(DocumentAssembly.sanitize("damaged\u{1B}[31m\nbeyond repair") == "damaged[31mbeyond repair")
        #expect(DocumentAssembly.sanitize(String(repeating: "x", count: 500))?.count == 200)
        #expect(DocumentAssembly.sanitize(" \n ") == nil)
    }

    @Test func pageTextIsCutAtACharacterBoundary() {
        #expect(ExtractionWorker.truncated("aé", toUTF8Bytes: 2) == "a")
        #expect(ExtractionWorker.truncated("𐐐x", toUTF8Bytes: 3) == "")
        #expect(ExtractionWorker.truncated("abc", toUTF8Bytes: 3) == "abc")
    }
}
