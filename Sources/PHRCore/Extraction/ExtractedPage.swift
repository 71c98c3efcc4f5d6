/// One page of extracted text, handed to the caller as soon as the worker has read it.
public struct ExtractedPage: Sendable, Equatable {
    /// The page number, from 1.
    public let number: Int
    /// The page's text, cleaned for search (see `PageTextCleaner`). Empty unless `quality` is
    /// `.text`, so junk never reaches the search index by accident.
    public let text: String
    /// What the page held.
    public let quality: PageQuality

    public init(number: Int, text: String, quality: PageQuality) {
        self.number = number
        self.text = quality == .text ? text : ""
        self.quality = quality
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
