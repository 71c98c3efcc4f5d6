import Foundation

/// A document in the vault: its metadata, where its original is, and what extraction made of it.
public struct Document: Codable, Sendable, Equatable {
    public var id: String
    public var profile: String
    public var title: String
    public var type: String
    /// "guessed" from the text or "user" (set with --type or `doc edit`).
    public var typeSource: String
    /// YYYY-MM-DD, or nil if none was given or found.
    public var date: String?
    /// "guessed" (from the text), "metadata" (the PDF's creation date) or "user".
    public var dateSource: String?
    public var provider: String?
    public var note: String?
    public var tags: [String]
    public var fileName: String
    public var mediaType: String
    public var outcome: ExtractionOutcome
    /// Why text is missing or partial, in one line; nil when fully indexed.
    public var outcomeDetail: String?
    public var pageCount: Int
    /// Pages whose text is in the search index.
    public var textPages: Int
    public var size: Int64
    /// SHA-256 of the original, hex (for share-bundle manifests and `sha256sum` comparisons).
    public var sha256: String
    /// Which extractor produced the text (re-run `doc reindex` after an upgrade).
    public var extractor: String
    public var addedAt: String
    public var updatedAt: String
    /// Whether the document waits for OCR (`phr doc reindex --ocr`).
    public var ocr: DocumentOCRState
    /// The blob holding the original (internal; not part of the JSON output).
    package var blobName: String

    enum CodingKeys: String, CodingKey {
        case id, profile, title, type
        case typeSource = "type_source"
        case date
        case dateSource = "date_source"
        case provider, note, tags
        case fileName = "file_name"
        case mediaType = "media_type"
        case outcome
        case outcomeDetail = "outcome_detail"
        case pageCount = "page_count"
        case textPages = "text_pages"
        case size, sha256, extractor
        case addedAt = "added_at"
        case updatedAt = "updated_at"
        case ocr
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        profile = try c.decode(String.self, forKey: .profile)
        title = try c.decode(String.self, forKey: .title)
        type = try c.decode(String.self, forKey: .type)
        typeSource = try c.decode(String.self, forKey: .typeSource)
        date = try c.decodeIfPresent(String.self, forKey: .date)
        dateSource = try c.decodeIfPresent(String.self, forKey: .dateSource)
        provider = try c.decodeIfPresent(String.self, forKey: .provider)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        tags = try c.decode([String].self, forKey: .tags)
        fileName = try c.decode(String.self, forKey: .fileName)
        mediaType = try c.decode(String.self, forKey: .mediaType)
        outcome = try c.decode(ExtractionOutcome.self, forKey: .outcome)
        outcomeDetail = try c.decodeIfPresent(String.self, forKey: .outcomeDetail)
        pageCount = try c.decode(Int.self, forKey: .pageCount)
        textPages = try c.decode(Int.self, forKey: .textPages)
        size = try c.decode(Int64.self, forKey: .size)
        sha256 = try c.decode(String.self, forKey: .sha256)
        extractor = try c.decode(String.self, forKey: .extractor)
        addedAt = try c.decode(String.self, forKey: .addedAt)
        updatedAt = try c.decode(String.self, forKey: .updatedAt)
        ocr = try c.decodeIfPresent(DocumentOCRState.self, forKey: .ocr) ?? .notNeeded
        blobName = ""
    }

    /// Every field, as stored (the vault's row reader builds documents with it).
    package init(
        id: String,
        profile: String,
        title: String,
        type: String,
        typeSource: String,
        date: String?,
        dateSource: String?,
        provider: String?,
        note: String?,
        tags: [String],
        fileName: String,
        mediaType: String,
        outcome: ExtractionOutcome,
        outcomeDetail: String?,
        pageCount: Int,
        textPages: Int,
        size: Int64,
        sha256: String,
        extractor: String,
        addedAt: String,
        updatedAt: String,
        ocr: DocumentOCRState,
        blobName: String
    ) {
        self.id = id
        self.profile = profile
        self.title = title
        self.type = type
        self.typeSource = typeSource
        self.date = date
        self.dateSource = dateSource
        self.provider = provider
        self.note = note
        self.tags = tags
        self.fileName = fileName
        self.mediaType = mediaType
        self.outcome = outcome
        self.outcomeDetail = outcomeDetail
        self.pageCount = pageCount
        self.textPages = textPages
        self.size = size
        self.sha256 = sha256
        self.extractor = extractor
        self.addedAt = addedAt
        self.updatedAt = updatedAt
        self.ocr = ocr
        self.blobName = blobName
    }

    /// What a person reads for the outcome: "indexed", "no text, needs OCR", ... (no brackets:
    /// listings put it in brackets after the title).
    public var outcomeDescription: String {
        switch outcome {
        case .indexed: return "indexed"
        case .ocr: return "indexed by OCR"
        case .partial: return "partially indexed"
        case .noText: return ocr == .done ? "no text" : "no text, needs OCR"
        case .junkText: return "unreadable text (not indexed)"
        case .unreadable: return "unreadable"
        case .passwordRequired: return "password required"
        }
    }
}

/// Whether a document still needs OCR.
public enum DocumentOCRState: String, Codable, Sendable, CaseIterable {
    /// Its text layer is all it needs (or it has no content to read).
    case notNeeded = "not_needed"
    /// Stored without OCR (added with --ocr never, or before phr had OCR): `phr doc reindex --ocr` reads it.
    case waiting
    /// OCR has read it (whatever it found).
    case done
}
