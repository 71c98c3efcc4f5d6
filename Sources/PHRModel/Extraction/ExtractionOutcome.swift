/// What text extraction made of one document; the vault records it with the document.
///
/// The raw values are the vault's and the JSON output's spelling; never rename them.
public enum ExtractionOutcome: String, Codable, Sendable, CaseIterable {
    /// Every page that has content has searchable text, from its text layer.
    case indexed
    /// Every page that has content has searchable text, and some or all of it came from OCR.
    case ocr
    /// Some pages have text; others could not be read, hold junk, or are images needing OCR.
    case partial
    /// No text layer (scans, photos, text drawn as curves): needs OCR to become searchable.
    case noText = "no_text"
    /// Text came out, but as garbage (broken ToUnicode maps, unmapped glyphs); kept out of search.
    case junkText = "junk_text"
    /// Not a PDF, truncated, damaged beyond repair, or the reader crashed or hung on it.
    case unreadable
    /// Encrypted, and no password or a wrong one was given.
    case passwordRequired = "password_required"

    /// True if the document contributes text to the search index.
    public var isSearchable: Bool { self == .indexed || self == .ocr || self == .partial }
}
