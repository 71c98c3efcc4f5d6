import Foundation
import GRDB

/// The extracted text of one document on its way to the index, held in bounded memory.
///
/// A document's pages arrive from a worker one by one, but its row and index entries are
/// committed together once the last page is in (type and date are guessed from the text first).
/// Holding every page until then let a small PDF of thousands of text-heavy pages grow the
/// key-holding process by hundreds of megabytes. Pages are kept in memory up to `memoryLimit`
/// bytes of text; beyond that they are written to `document_page_staging` (inside the encrypted
/// database, never a plain file) and read back, in order, as the document is indexed. The text
/// the guessers see is the first `guessLimit` bytes.
final class PageSpool {
    static let memoryLimit = 4 << 20
    static let guessLimit = 256 << 10

    private let database: VaultDatabase
    /// Identifies this document's staged rows.
    let token: String
    private var held: [ExtractedPage] = []
    private var heldBytes = 0
    private(set) var stagedPages = 0
    /// The start of the document's text, for the type and date guessers.
    private(set) var guessText = ""
    private(set) var textPages = 0
    /// What OCR made of each page it read or tried to, with the words of the pages it read.
    private(set) var ocrPages: [(record: DocumentPageOCR, layout: PageLayout?)] = []

    init(database: VaultDatabase) throws {
        self.database = database
        token = try SecureRandom.bytes(12).hex
    }

    func append(_ page: ExtractedPage) throws {
        if let record = DocumentPageOCR(page) {
            ocrPages.append((record, page.source == .ocr && page.quality == .text ? page.layout : nil))
        }
        guard page.quality == .text, !page.text.isEmpty else { return }
        textPages += 1
        if guessText.utf8.count < Self.guessLimit {
            guessText += (guessText.isEmpty ? "" : "\n") + page.text
        }
        held.append(page)
        heldBytes += page.text.utf8.count
        if heldBytes >= Self.memoryLimit { try stage() }
    }

    /// Writes the held pages to the staging table and forgets them.
    private func stage() throws {
        let pages = held
        let token = token
        try database.write { db in
            let insert = try db.makeStatement(sql: "INSERT INTO document_page_staging (token, page, text) VALUES (?, ?, ?)")
            for page in pages { try insert.execute(arguments: [token, page.number, page.text]) }
        }
        stagedPages += pages.count
        held.removeAll()
        heldBytes = 0
        TestPause.here(.textStaged)
    }

    /// Every text page in order (staged ones first, then those held), inside the caller's
    /// transaction; the staged rows are deleted in the same transaction.
    func forEachPage(_ db: Database, _ body: (Int, String) throws -> Void) throws {
        if stagedPages > 0 {
            let cursor = try Row.fetchCursor(db, sql: "SELECT page, text FROM document_page_staging WHERE token = ? ORDER BY page",
                                             arguments: [token])
            while let row = try cursor.next() { try body(row["page"], row["text"]) }
            try db.execute(sql: "DELETE FROM document_page_staging WHERE token = ?", arguments: [token])
        }
        for page in held { try body(page.number, page.text) }
    }

    /// Forgets everything, staged rows included (the document was not committed).
    func discard() {
        held.removeAll()
        ocrPages.removeAll()
        guessText = ""
        guard stagedPages > 0 else { return }
        let token = token
        _ = try? database.write { db in try db.execute(sql: "DELETE FROM document_page_staging WHERE token = ?", arguments: [token]) }
        stagedPages = 0
    }
}
