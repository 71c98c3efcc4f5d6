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

    /// Records the `opened` message.
    mutating func open(_ document: WorkerOpenedDocument) throws {
        guard opened == nil else { throw ExtractionError.protocolViolation(detail: "a document opened twice") }
        opened = document
    }

    /// Records a `page` message and returns the page to hand to the caller.
    mutating func page(number: Int, flags: WorkerPageFlags, text: String) throws -> ExtractedPage {
        guard let opened, number == pagesReceived + 1, number <= opened.pageCount else {
            throw ExtractionError.protocolViolation(detail: "page \(number) out of order")
        }
        pagesReceived = number
        let quality = PageTextAssessor.quality(of: text, hasImages: flags.contains(.hasImages),
                                               failed: flags.contains(.failed))
        counts[quality, default: 0] += 1
        return ExtractedPage(number: number, text: quality == .text ? PageTextCleaner.clean(text) : "", quality: quality)
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
                                     reason: pageReason, metadata: metadata(), syntaxErrors: syntaxErrors)
        }
    }

    /// The summary when the worker died or was killed before `done`; `failure` says how.
    func summary(failure: String) -> ExtractionSummary {
        let textPages = counts[.text] ?? 0
        guard let opened else {
            return ExtractionSummary(outcome: .unreadable, reason: failure, metadata: metadata())
        }
        let place = "on page \(pagesReceived + 1) of \(opened.pageCount)"
        return ExtractionSummary(outcome: textPages > 0 ? .partial : .unreadable, pageCount: opened.pageCount,
                                 textPages: textPages, reason: "\(failure) \(place)", metadata: metadata())
    }

    private func classify() -> (ExtractionOutcome, String?) {
        let pageCount = opened?.pageCount ?? 0
        let text = counts[.text] ?? 0
        let junk = counts[.junk] ?? 0
        let failed = counts[.failed] ?? 0
        let images = counts[.imageOnly] ?? 0
        if pageCount == 0 { return (.unreadable, "the document has no pages") }
        if text > 0 {
            guard junk + failed + images > 0 else { return (.indexed, nil) }
            var parts: [String] = []
            if failed > 0 { parts.append("\(failed) of \(pageCount) pages could not be read") }
            if junk > 0 { parts.append("\(junk) of \(pageCount) pages hold unusable text") }
            if images > 0 { parts.append("\(images) of \(pageCount) pages are images without text (need OCR)") }
            return (.partial, parts.joined(separator: ", "))
        }
        if junk > 0 { return (.junkText, "the text layer is unusable (fonts without character maps); needs OCR") }
        if failed == pageCount { return (.unreadable, "no page could be read") }
        return (.noText, "no text layer; needs OCR")
    }

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
