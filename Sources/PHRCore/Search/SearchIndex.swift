import Foundation
import GRDB

/// The write side of phr's one full-text index (FTS5 in the encrypted database): every record
/// kind hands its searchable text to `replace` when it changes and calls `remove` when it goes.
///
/// Rows live in `search_entry` (the text, stored once) and are indexed by the `search_fts`
/// external-content FTS5 table; every change goes through here so the two stay in step (an
/// external-content index must be told the old values of a row to forget it). A record kind plugs in by turning its
/// record into `SearchEntry` values: documents give one entry per page, other kinds one entry.
public enum SearchIndex {
    public struct Entry: Sendable, Equatable {
        public var page: Int?
        public var title: String
        public var tags: [String]
        public var body: String
        /// The record's type for filters (a document type, a log metric...).
        public var type: String?
        /// YYYY-MM-DD, for date filters and recency ranking.
        public var date: String?

        public init(page: Int? = nil, title: String, tags: [String] = [], body: String, type: String? = nil, date: String? = nil) {
            self.page = page
            self.title = title
            self.tags = tags
            self.body = body
            self.type = type
            self.date = date
        }
    }

    /// Replaces everything indexed for one record.
    ///
    /// Every statement here is compiled once per connection (GRDB's statement cache): an import
    /// calls this once per record, and compiling the same few statements again for each of
    /// 5,500 C-CDA results was a fifth of `phr import`'s time.
    public static func replace(_ db: Database, kind: String, recordID: String, profileID: Int64, entries: [Entry]) throws {
        try remove(db, kind: kind, recordID: recordID)
        for entry in entries { try insert(db, kind: kind, recordID: recordID, profileID: profileID, entry: entry) }
    }

    /// Adds one entry to a record's (after `remove`, for records indexed in pieces).
    public static func append(_ db: Database, kind: String, recordID: String, profileID: Int64, entry: Entry) throws {
        try insert(db, kind: kind, recordID: recordID, profileID: profileID, entry: entry)
    }

    /// Stores one entry with its alternates and adds it to the indexes.
    private static func insert(_ db: Database, kind: String, recordID: String, profileID: Int64, entry: Entry) throws {
        let tags = entry.tags.joined(separator: " ")
        let alternates = alternates(of: entry.title + "\n" + entry.body)
        try db.cachedStatement(sql: """
            INSERT INTO search_entry (kind, record_id, profile_id, page, title, tags, body, type, date, alternates)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [kind, recordID, profileID, entry.page, entry.title, tags, entry.body, entry.type, entry.date, alternates])
        try index(db, rowID: db.lastInsertedRowID, title: entry.title, tags: tags, body: entry.body, alternates: alternates)
    }

    /// Updates the title, tags, type and date on every entry of a record, keeping the bodies
    /// (after a document's metadata was edited).
    public static func updateMetadata(_ db: Database, kind: String, recordID: String, title: String, tags: [String],
                                      type: String?, date: String?) throws {
        let joinedTags = tags.joined(separator: " ")
        for row in try rows(db, kind: kind, recordID: recordID) {
            try forget(db, row)
            let body: String = row["body"]
            let alternates = alternates(of: title + "\n" + body)
            try db.execute(sql: "UPDATE search_entry SET title = ?, tags = ?, type = ?, date = ?, alternates = ? WHERE id = ?",
                           arguments: [title, joinedTags, type, date, alternates, row["id"]])
            try index(db, rowID: row["id"], title: title, tags: joinedTags, body: body, alternates: alternates)
        }
    }

    public static func remove(_ db: Database, kind: String, recordID: String) throws {
        let rows = try rows(db, kind: kind, recordID: recordID)
        guard !rows.isEmpty else { return }
        for row in rows { try forget(db, row) }
        try db.cachedStatement(sql: "DELETE FROM search_entry WHERE kind = ? AND record_id = ?").execute(arguments: [kind, recordID])
    }

    private static func rows(_ db: Database, kind: String, recordID: String) throws -> [Row] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT id, title, tags, body, alternates FROM search_entry WHERE kind = ? AND record_id = ?"),
                         arguments: [kind, recordID])
    }

    /// Adds a row's terms (and its `alternates`, already stored with it) to the word index and
    /// its unsegmented-script runs to the trigram index.
    private static func index(_ db: Database, rowID: Int64, title: String, tags: String, body: String, alternates: String) throws {
        try db.cachedStatement(sql: "INSERT INTO search_fts (rowid, title, tags, body, alternates) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [rowID, title, tags, body, alternates])
        let unsegmented = ScriptRuns.runs(in: title + "\n" + body)
        if !unsegmented.isEmpty {
            try db.cachedStatement(sql: "INSERT INTO search_cjk (entry_id, text) VALUES (?, ?)").execute(arguments: [rowID, unsegmented])
            try db.cachedStatement(sql: "INSERT INTO search_cjk_fts (rowid, text) VALUES (?, ?)").execute(arguments: [rowID, unsegmented])
        }
    }

    /// Right-to-left words (Hebrew, Arabic, Syriac, Thaana) spelled backwards, one per line.
    ///
    /// Some PDFs lay out right-to-left text glyph by glyph in visual order, and poppler then
    /// extracts each word reversed ("يبيبح" for "حبيبي") while others come out in logical order,
    /// and nothing in the text says which. Indexing both spellings finds the word as typed either
    /// way; the alternates are never shown.
    static func alternates(of text: String) -> String {
        // Every script above starts at U+0590, whose UTF-8 lead bytes are 0xD6 and up (and no
        // continuation byte is): most text has none, and is done without a look at its scalars.
        guard text.utf8.contains(where: { $0 >= 0xD6 }) else { return "" }
        var words: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if current.count >= 2 { words.append(String(String.UnicodeScalarView(current.reversed()))) }
            current = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if isRightToLeft(scalar) {
                current.append(scalar)
            } else if !(!current.isEmpty && scalar.properties.generalCategory == .nonspacingMark) {
                flush()
            }
        }
        flush()
        return words.joined(separator: "\n")
    }

    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x05FF, 0x0600...0x06FF, 0x0700...0x074F, 0x0750...0x077F, 0x0780...0x07BF, 0x08A0...0x08FF,
             0xFB1D...0xFDFF, 0xFE70...0xFEFF:
            return scalar.properties.generalCategory != .nonspacingMark
        default:
            return false
        }
    }

    /// Removes a row's terms from the indexes: FTS5's 'delete' command needs the indexed values.
    private static func forget(_ db: Database, _ row: Row) throws {
        try db.cachedStatement(sql: "INSERT INTO search_fts (search_fts, rowid, title, tags, body, alternates) VALUES ('delete', ?, ?, ?, ?, ?)")
            .execute(arguments: [row["id"], row["title"], row["tags"], row["body"], row["alternates"]])
        if let text = try String.fetchOne(db.cachedStatement(sql: "SELECT text FROM search_cjk WHERE entry_id = ?"), arguments: [row["id"]]) {
            try db.cachedStatement(sql: "INSERT INTO search_cjk_fts (search_cjk_fts, rowid, text) VALUES ('delete', ?, ?)")
                .execute(arguments: [row["id"], text])
            try db.cachedStatement(sql: "DELETE FROM search_cjk WHERE entry_id = ?").execute(arguments: [row["id"]])
        }
    }

    /// Rows in the word index: one per document page or record.
    public static func indexedRows(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM search_fts_docsize") ?? 0
    }

    /// After a bulk change (a folder of documents, an import, a reindex): merges the word and
    /// trigram indexes into one b-tree each when the `addedRows` just indexed are at least a
    /// sixteenth of the index. Returns whether it merged.
    ///
    /// FTS5 writes each transaction's rows as a new segment and merges segments four at a time,
    /// so after a bulk load every query looks each word up in several large segments and merges
    /// their posting lists. On the 34,024-page bench vault, merging took 0.85 s and then
    /// 'thyro*' went from 22 to 13 ms and "iron deficiency" from 14 to 6-9 ms. A merge rewrites
    /// the whole index, which costs about a sixteenth of indexing it, so the threshold keeps the
    /// merge no dearer than indexing the rows that prompted it; single additions are left to
    /// FTS5's own automatic merging.
    @discardableResult
    public static func compactAfterBulkChange(_ db: Database, addedRows: Int) throws -> Bool {
        try compact(db, changedRows: addedRows, total: indexedRows(db))
    }

    /// The same, for a change measured by the index's size before it (`indexedRows`).
    @discardableResult
    public static func compactAfterBulkChange(_ db: Database, rowsBefore: Int) throws -> Bool {
        let total = try indexedRows(db)
        return try compact(db, changedRows: total - rowsBefore, total: total)
    }

    private static func compact(_ db: Database, changedRows: Int, total: Int) throws -> Bool {
        guard changedRows > 0, changedRows * 16 >= total else { return false }
        try db.execute(sql: "INSERT INTO search_fts (search_fts) VALUES ('optimize')")
        try db.execute(sql: "INSERT INTO search_cjk_fts (search_cjk_fts) VALUES ('optimize')")
        return true
    }

    /// The indexed bodies of a record by page (documents) in order.
    public static func bodies(_ db: Database, kind: String, recordID: String) throws -> [(page: Int?, body: String)] {
        try Row.fetchAll(db, sql: "SELECT page, body FROM search_entry WHERE kind = ? AND record_id = ? ORDER BY page",
                         arguments: [kind, recordID]).map { ($0["page"], $0["body"]) }
    }
}
