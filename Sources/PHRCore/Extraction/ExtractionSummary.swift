import Foundation

/// The result of extracting one document: its outcome, page counts and metadata.
public struct ExtractionSummary: Codable, Sendable, Equatable {
    /// The outcome the vault records.
    public var outcome: ExtractionOutcome
    /// Pages in the document; 0 when it could not be opened.
    public var pageCount: Int
    /// Pages handed to `onPage` with searchable text.
    public var textPages: Int
    /// A short lowercase line saying what went wrong or what is missing; nil for `indexed`.
    /// Never contains document text or passwords.
    public var reason: String?
    /// The document information poppler read, if the document opened.
    public var metadata: DocumentMetadata
    /// How many syntax problems poppler reported while reading (repaired or not); 0 for a clean file.
    public var syntaxErrors: Int
    /// Pages whose text came from OCR.
    public var ocrPages: Int
    /// Reading stopped for lack of time, not because of the file: another try may do better.
    public var timedOut = false

    public init(outcome: ExtractionOutcome, pageCount: Int = 0, textPages: Int = 0, reason: String? = nil,
                metadata: DocumentMetadata = DocumentMetadata(), syntaxErrors: Int = 0, ocrPages: Int = 0) {
        self.ocrPages = ocrPages
        self.outcome = outcome
        self.pageCount = pageCount
        self.textPages = textPages
        self.reason = reason
        self.metadata = metadata
        self.syntaxErrors = syntaxErrors
    }
}

/// Metadata from the PDF's document information dictionary and its encryption dictionary.
public struct DocumentMetadata: Codable, Sendable, Equatable {
    /// The /Title entry, trimmed and without control characters; nil if absent or blank.
    public var title: String?
    /// The /CreationDate entry; nil if absent or unparseable.
    public var creationDate: Date?
    /// True if the file is encrypted, including owner-password-only files that open without a password.
    public var isEncrypted: Bool

    public init(title: String? = nil, creationDate: Date? = nil, isEncrypted: Bool = false) {
        self.title = title
        self.creationDate = creationDate
        self.isEncrypted = isEncrypted
    }
}
