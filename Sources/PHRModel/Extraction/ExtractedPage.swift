/// One page of extracted text, handed to the caller as soon as the worker has read it.
public struct ExtractedPage: Sendable, Equatable {
    /// The page number, from 1.
    public let number: Int
    /// The page's text, cleaned for search (see `PageTextCleaner`). Empty unless `quality` is
    /// `.text`, so junk never reaches the search index by accident.
    public let text: String
    /// What the page held.
    public let quality: PageQuality
    /// Where the text came from.
    public let source: PageTextSource
    /// The mean OCR word confidence (0 to 100) of an OCR page.
    public let ocrConfidence: Double?
    /// The words with their boxes: for OCR pages, and for text-layer pages when asked for.
    public let layout: PageLayout?
    /// Why OCR failed on the page, or what it had to do ("turned 180 degrees"); nil otherwise.
    public let note: String?
    /// OCR was needed and could not run (too large, timed out, no language data): `note` says why.
    public let ocrFailed: Bool

    public init(number: Int, text: String, quality: PageQuality, source: PageTextSource = .textLayer,
                ocrConfidence: Double? = nil, layout: PageLayout? = nil, note: String? = nil, ocrFailed: Bool = false) {
        self.ocrFailed = ocrFailed
        self.number = number
        self.text = quality == .text ? text : ""
        self.quality = quality
        self.source = source
        self.ocrConfidence = ocrConfidence
        self.layout = layout
        self.note = note
    }

    /// An OCR page below `OCRLanguages.lowConfidenceFloor`: searchable, ranked below text.
    public var isLowConfidenceOCR: Bool {
        source == .ocr && quality == .text && (ocrConfidence ?? 0) < OCRLanguages.lowConfidenceFloor
    }
}

/// What one page held, as judged by `PageTextAssessor` from the worker's report.
public enum PageQuality: String, Codable, Sendable, CaseIterable {
    /// Searchable text.
    case text
    /// Neither text nor images: an intentionally blank page, or text drawn as vector curves.
    case blank
    /// Images and no text: a scanned page that needs OCR.
    case imageOnly = "image_only"
    /// Text that is mostly replacement, private-use, control or unmapped-glyph characters.
    case junk
    /// poppler could not load the page.
    case failed
}
