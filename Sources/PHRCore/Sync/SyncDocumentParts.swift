import Foundation
import GRDB

/// The parts of a document that live beside its row and travel with it: its tags, the text of its
/// pages as indexed (so another device finds it without reading the file again), what OCR
/// recorded for each page, and its blob's entry (the encrypted file itself travels as an object
/// of its own, under its content name).
enum SyncDocumentParts {
    /// What the blob's entry says of its content (the same on every device; when it was
    /// registered is each device's own).
    struct Blob: Codable {
        var size: Int64
        var sha256: String
    }

    struct Page: Codable {
        var page: Int64
        var ocr: String
        var confidence: Double?
        var detail: String?
        var width: Double
        var height: Double
        var words: String
    }

    struct Text: Codable {
        var page: Int64?
        var body: String
    }

    static func fields(_ db: Database, documentID: String, blob name: String) throws -> [String: SyncValue] {
        var fields: [String: SyncValue] = [:]
        fields["tags"] = try json(DocumentStore.tags(db, documentID: documentID))
        let text = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT page, body FROM search_entry WHERE kind = ? AND record_id = ? ORDER BY ifnull(page, 0)
            """), arguments: [DocumentStore.kind, documentID]).map { Text(page: $0["page"], body: $0["body"]) }
        fields["text"] = try json(text)
        let pages = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT page, ocr, confidence, detail, width, height, words FROM document_page WHERE document_id = ? ORDER BY page
            """), arguments: [documentID]).map { row in
            Page(page: row["page"], ocr: row["ocr"], confidence: row["confidence"], detail: row["detail"], width: row["width"],
                 height: row["height"], words: (row["words"] as Data? ?? Data()).base64EncodedString())
        }
        fields["pages"] = try json(pages)
        if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT size, sha256 FROM blob WHERE name = ?"), arguments: [name]) {
            fields["blob"] = try json(Blob(size: row["size"], sha256: (row["sha256"] as Data).base64EncodedString()))
        }
        return fields
    }

    /// Adds the blob's entry before the document row that names it (the file is already in
    /// `blobs/`: the engine fetches it before applying).
    static func registerBlob(_ db: Database, fields: [String: SyncValue], blob: SyncValue) throws {
        guard let name = fields["blob_name"]?.text, let text = blob.text else { return }
        let entry = try SyncJSON.decoder.decode(Blob.self, from: Data(text.utf8))
        guard let sha = Data(base64Encoded: entry.sha256) else { throw SyncError.damagedState("a document's blob entry") }
        try db.execute(sql: "INSERT OR IGNORE INTO blob (name, size, sha256, created_at) VALUES (?, ?, ?, ?)",
                       arguments: [name, entry.size, sha, Timestamp.string(Date())])
    }

    /// Writes the tags, pages and search entries a change carries; the entries' title, tags, type
    /// and date follow the document as written.
    static func write(_ db: Database, documentID: String, fields: [String: SyncValue]) throws {
        if let tags = fields["tags"]?.text {
            try db.cachedStatement(sql: "DELETE FROM document_tag WHERE document_id = ?").execute(arguments: [documentID])
            for tag in try SyncJSON.decoder.decode([String].self, from: Data(tags.utf8)) {
                try db.cachedStatement(sql: "INSERT INTO document_tag (document_id, tag) VALUES (?, ?)").execute(arguments: [documentID, tag])
            }
        }
        if let pages = fields["pages"]?.text {
            try db.cachedStatement(sql: "DELETE FROM document_page WHERE document_id = ?").execute(arguments: [documentID])
            for page in try SyncJSON.decoder.decode([Page].self, from: Data(pages.utf8)) {
                try db.cachedStatement(sql: """
                    INSERT INTO document_page (document_id, page, ocr, confidence, detail, width, height, words)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [documentID, page.page, page.ocr, page.confidence, page.detail, page.width, page.height,
                                     Data(base64Encoded: page.words) ?? Data()])
            }
        }
        guard let document = try DocumentStore.fetch(db, id: documentID) else { return }
        let profileID = try Int64.fetchOne(db.cachedStatement(sql: "SELECT profile_id FROM document WHERE id = ?"), arguments: [documentID]) ?? -1
        if let text = fields["text"]?.text {
            try SearchIndex.remove(db, kind: DocumentStore.kind, recordID: documentID)
            for entry in try SyncJSON.decoder.decode([Text].self, from: Data(text.utf8)) {
                try SearchIndex.append(db, kind: DocumentStore.kind, recordID: documentID, profileID: profileID, entry: SearchIndex.Entry(
                    page: entry.page.map { Int($0) }, title: document.searchTitle, tags: document.tags, body: entry.body,
                    type: document.type, date: document.date))
            }
        } else {
            try SearchIndex.updateMetadata(db, kind: DocumentStore.kind, recordID: documentID, title: document.searchTitle,
                                           tags: document.tags, type: document.type, date: document.date)
        }
    }

    private static func json<T: Encodable>(_ value: T) throws -> SyncValue {
        .text(String(decoding: try SyncJSON.encoder.encode(value), as: UTF8.self))
    }
}
