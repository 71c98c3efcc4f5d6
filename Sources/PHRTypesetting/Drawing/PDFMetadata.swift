/// The document information dictionary written into a PDF.
///
/// Leave `creationDate` nil and cairo stamps the current time; set it to make a re-run write the
/// same bytes (the sample generator does).
/// https://www.cairographics.org/manual/cairo-PDF-Surfaces.html#cairo-pdf-surface-set-metadata
public struct PDFMetadata: Sendable {
    public var title: String
    public var author: String?
    public var subject: String?
    public var keywords: String?
    public var creator: String?
    /// ISO 8601 with a zone ("2025-06-01T12:00:00Z"), the only form cairo accepts here; used for
    /// both the creation and the modification date.
    public var creationDate: String?

    public init(title: String, author: String? = nil, subject: String? = nil, keywords: String? = nil,
                creator: String? = nil, creationDate: String? = nil) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.creator = creator
        self.creationDate = creationDate
    }
}
