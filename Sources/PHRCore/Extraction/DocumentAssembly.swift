import Foundation

/// The parent's account of one document while its worker reports on it: it checks each message
/// against what came before, turns pages into `ExtractedPage`s, and decides the outcome.
///
/// Everything a worker says is treated as untrusted input (the worker has just parsed a
/// possibly hostile file): page numbers must arrive in order and within the page count, titles
/// are cleaned, and the worker's reason text is reduced to a short printable line.
struct DocumentAssembly {
    private(set) var opened: WorkerOpenedDocument?
    private(set) var pagesReceived = 0
    private var counts: [PageQuality: Int] = [:]
    /// OCR pages with text, their confidences, and pages where OCR failed.
    private var ocrConfidences: [Double] = []
    private var lowConfidencePages = 0
    private var ocrFailures: [Int] = []
    /// Pages skipped because the worker died on them (a resumed document), or that a part's
    /// worker could not open again (a split document): runs of pages, however many.
    private var lostPages: [ClosedRange<Int>] = []

    /// Records the `opened` message. A document read by several workers (split, or resumed after
    /// a worker died on a page) opens in each: with the same page count, or it is not the same
    /// document.
    mutating func open(_ document: WorkerOpenedDocument) throws {
        if let opened {
            guard opened.pageCount == document.pageCount else {
                throw ExtractionError.protocolViolation(detail: "a document opened twice with different page counts")
            }
            return
        }
        opened = document
    }

    /// The next page is lost: a worker died or hung on it (`reason` says how), and the rest of
    /// the document goes on in a fresh worker.
    mutating func losePage(_ reason: String) throws {
        try losePages(through: pagesReceived + 1, reason)
    }

    /// The pages from the next one to `last` are lost, in one step whatever their number (the
    /// page count comes from the worker).
    mutating func losePages(through last: Int, _ reason: String) throws {
        guard let opened, pagesReceived < last, last <= opened.pageCount else {
            throw ExtractionError.protocolViolation(detail: "a lost page beyond the end")
        }
        counts[.failed, default: 0] += last - pagesReceived
        lostPages.append((pagesReceived + 1)...last)
        lostPageReasons.append(reason)
        pagesReceived = last
    }

    /// "page 3", "pages 3, 7-250" (at most ten runs named).
    private var lostPagesText: String {
        let count = lostPages.reduce(0) { $0 + $1.count }
        let runs = lostPages.prefix(10).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
        return "page\(count == 1 ? "" : "s") " + runs.joined(separator: ", ") + (lostPages.count > 10 ? "..." : "")
    }

    /// Records a text-layer `page` message.
    mutating func page(number: Int, flags: WorkerPageFlags, text: String) throws -> ExtractedPage {
        try page(WorkerPage(number: number, flags: flags, text: text))
    }

    /// Records a `page` message and returns the page to hand to the caller.
    mutating func page(_ page: WorkerPage) throws -> ExtractedPage {
        let number = page.number
        guard let opened, number == pagesReceived + 1, number <= opened.pageCount else {
            throw ExtractionError.protocolViolation(detail: "page \(number) out of order")
        }
        pagesReceived = number
        let note = Self.sanitize(page.note)
        if page.flags.contains(.ocrFailed) { ocrFailures.append(number) }
        let quality: PageQuality
        if page.source == .ocr {
            let visible = page.text.unicodeScalars.contains { !$0.properties.isWhitespace }
            quality = visible ? .text : (page.flags.contains(.failed) ? .failed : .imageOnly)
        } else {
            quality = PageTextAssessor.quality(of: page.text, hasImages: page.flags.contains(.hasImages),
                                               failed: page.flags.contains(.failed))
        }
        counts[quality, default: 0] += 1
        if page.source == .ocr && quality != .text { ocrEmptyPages += 1 }
        if page.flags.contains(.ocrFailed), ocrFailureReason == nil, let note {
            ocrFailureReason = "OCR failed: \(note)"
            if page.flags.contains(.failed) { imageFailure = note }
        }
        let text = quality == .text ? PageTextCleaner.clean(page.text) : ""
        var confidence: Double?
        if page.source == .ocr, quality == .text {
            confidence = page.confidence ?? 0
            ocrConfidences.append(confidence!)
            if confidence! < OCRLanguages.lowConfidenceFloor { lowConfidencePages += 1 }
        }
        var layout: PageLayout?
        if !page.words.isEmpty || page.source == .ocr {
            layout = PageLayout(page: number, width: page.width, height: page.height, source: page.source,
                                meanConfidence: confidence, words: page.words.map(Self.cleanWord))
        }
        return ExtractedPage(number: number, text: text, quality: quality, source: page.source,
                             ocrConfidence: confidence, layout: layout, note: note, ocrFailed: page.flags.contains(.ocrFailed))
    }

    /// A word as the worker sent it, without controls (it is untrusted text too).
    private static func cleanWord(_ word: PageWord) -> PageWord {
        var clean = word
        if word.text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            clean.text = String(String.UnicodeScalarView(word.text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        }
        return clean
    }

    /// The summary once the worker said `done`.
    func summary(status: WorkerDocumentStatus, syntaxErrors: Int, reason workerReason: String) throws -> ExtractionSummary {
        let reason = Self.sanitize(workerReason)
        switch status {
        case .passwordRequired:
            return ExtractionSummary(outcome: .passwordRequired, reason: reason ?? "a password is required",
                                     metadata: metadata(encrypted: true), syntaxErrors: syntaxErrors)
        case .unreadable:
            return ExtractionSummary(outcome: .unreadable, pageCount: opened?.pageCount ?? 0,
                                     reason: reason ?? "damaged beyond repair", metadata: metadata(),
                                     syntaxErrors: syntaxErrors)
        case .read:
            guard let opened, pagesReceived == opened.pageCount else {
                throw ExtractionError.protocolViolation(detail: "a document finished with pages missing")
            }
            let (outcome, pageReason) = classify()
            return ExtractionSummary(outcome: outcome, pageCount: opened.pageCount, textPages: counts[.text] ?? 0,
                                     reason: pageReason, metadata: metadata(), syntaxErrors: syntaxErrors,
                                     ocrPages: ocrConfidences.count)
        }
    }

    /// The summary when a worker died or was killed before `done`; `failure` says how, and
    /// `page` where (by default the first page not yet received).
    func summary(failure: String, page: Int? = nil) -> ExtractionSummary {
        let textPages = counts[.text] ?? 0
        guard let opened else {
            return ExtractionSummary(outcome: .unreadable, reason: failure, metadata: metadata())
        }
        let place = "on page \(min(page ?? pagesReceived + 1, opened.pageCount)) of \(opened.pageCount)"
        return ExtractionSummary(outcome: textPages > 0 ? .partial : .unreadable, pageCount: opened.pageCount,
                                 textPages: textPages, reason: "\(failure) \(place)", metadata: metadata(),
                                 ocrPages: ocrConfidences.count)
    }

    private var lostPageReasons: [String] = []

    private func classify() -> (ExtractionOutcome, String?) {
        let pageCount = opened?.pageCount ?? 0
        let text = counts[.text] ?? 0
        let junk = counts[.junk] ?? 0
        let failed = counts[.failed] ?? 0
        let images = counts[.imageOnly] ?? 0
        if pageCount == 0 { return (.unreadable, "the document has no pages") }
        let ocrFailed = ocrFailures.count
        if text > 0 {
            var ocrPart: String?
            if !ocrConfidences.isEmpty {
                let mean = ocrConfidences.reduce(0, +) / Double(ocrConfidences.count)
                let pages = pageCount == 1 ? "" : "\(ocrConfidences.count) of \(pageCount) pages by OCR, "
                ocrPart = "\(pages)mean confidence \(Int(mean.rounded()))"
                    + (lowConfidencePages > 0 ? ", \(lowConfidencePages) low-confidence" : "")
            }
            guard junk + failed + images > 0 else { return (ocrPart == nil ? .indexed : .ocr, ocrPart) }
            var parts: [String] = ocrPart.map { [$0] } ?? []
            if failed > 0 {
                let lost = lostPages.isEmpty ? "" : " (\(lostPagesText): \(lostPageReasons.first ?? "the reader failed"))"
                parts.append("\(failed) of \(pageCount) pages could not be read\(lost)")
            }
            if junk > 0 { parts.append("\(junk) of \(pageCount) pages hold unusable text") }
            if images > 0 {
                parts.append(attemptedOCR
                    ? "\(images) of \(pageCount) pages are images where OCR found no text"
                    : "\(images) of \(pageCount) pages are images without text (need OCR)")
            }
            return (.partial, parts.joined(separator: ", "))
        }
        if junk > 0 { return (.junkText, "the text layer is unusable (fonts without character maps); needs OCR") }
        if failed == pageCount {
            // An image that cannot be read at all (too large, damaged) says why.
            if let imageFailure { return (.unreadable, imageFailure) }
            if lostPages.count == 1 && pageCount == 1 {  // one run of the one page
                return (.unreadable, "\(lostPageReasons.first ?? "the reader failed") on page 1 of 1")
            }
            if !lostPages.isEmpty { return (.unreadable, "no page could be read: \(lostPageReasons.first ?? "the reader failed")") }
            return (.unreadable, "no page could be read")
        }
        if ocrFailed > 0 || images > 0 && attemptedOCR {
            return (.noText, ocrFailureReason ?? "OCR found no text")
        }
        return (.noText, "no text layer; needs OCR")
    }

    /// True once any page came back from OCR (with or without text).
    private var attemptedOCR: Bool { !ocrConfidences.isEmpty || !ocrFailures.isEmpty || ocrEmptyPages > 0 }
    private var ocrEmptyPages = 0
    private var ocrFailureReason: String?
    private var imageFailure: String?

    private func metadata(encrypted: Bool = false) -> DocumentMetadata {
        guard let opened else { return DocumentMetadata(isEncrypted: encrypted) }
        let created = opened.creationTime.flatMap { $0 > 0 ? Date(timeIntervalSince1970: TimeInterval($0)) : nil }
        return DocumentMetadata(title: opened.title.flatMap { Self.cleanTitle($0) }, creationDate: created,
                                isEncrypted: opened.isEncrypted || encrypted)
    }

    /// A title without controls or runs of whitespace, at most 300 characters; nil if blank.
    /// Whether it is a real title or a writer's "Untitled" is for the documents layer to judge.
    static func cleanTitle(_ title: String) -> String? {
        let words = title.unicodeScalars
            .map { scalar -> Character in
                let category = scalar.properties.generalCategory
                return category == .control || category == .format || category == .privateUse ? " " : Character(scalar)
            }
            .split(whereSeparator: { $0.isWhitespace })
            .map { String($0) }
        let joined = words.joined(separator: " ")
        guard !joined.isEmpty else { return nil }
        return joined.count > 300 ? String(joined.prefix(300)) : joined
    }

    /// The worker's reason as one printable line of at most 200 characters; nil if empty.
    static func sanitize(_ reason: String) -> String? {
        let printable = String(reason.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.map(Character.init))
        let trimmed = printable.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        return trimmed.count > 200 ? String(trimmed.prefix(200)) : trimmed
    }
}
