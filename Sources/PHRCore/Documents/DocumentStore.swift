import Foundation
import GRDB
import Glibc

/// Reading, editing, exporting and removing documents of one profile. Adding and re-extracting
/// are in `DocumentImporter`.
public struct DocumentStore {
    public let vault: Vault
    public let profile: Profile

    static let kind = "doc"

    public init(vault: Vault, profile: Profile) {
        self.vault = vault
        self.profile = profile
    }

    static let selectSQL = """
        SELECT d.*, p.name AS profile FROM document d JOIN profile p ON p.id = d.profile_id
        """

    static func tags(_ db: Database, documentID: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT tag FROM document_tag WHERE document_id = ? ORDER BY tag", arguments: [documentID])
    }

    static func fetch(_ db: Database, id: String) throws -> Document? {
        guard let row = try Row.fetchOne(db, sql: selectSQL + " WHERE d.id = ?", arguments: [id]) else { return nil }
        return try Document(row: row, tags: tags(db, documentID: id))
    }

    /// The document whose ID starts with `prefix`, in this profile.
    public func resolve(_ db: Database, _ prefix: String) throws -> Document {
        let id = try RecordID.resolve(db, table: "document", kind: "document", prefix: prefix, profileID: profile.id)
        return try Self.fetch(db, id: id)!
    }

    public func get(_ prefix: String) throws -> Document {
        try vault.database.read { db in try resolve(db, prefix) }
    }

    /// Filters for `list`. Dates are YYYY-MM-DD and inclusive.
    public struct Filter: Sendable {
        public var type: String?
        public var tag: String?
        public var since: String?
        public var until: String?
        /// At most this many, after skipping `offset` (a page of a long list).
        public var limit: Int?
        public var offset: Int

        public init(type: String? = nil, tag: String? = nil, since: String? = nil, until: String? = nil,
                    limit: Int? = nil, offset: Int = 0) {
            self.type = type
            self.tag = tag
            self.since = since
            self.until = until
            self.limit = limit
            self.offset = offset
        }
    }

    /// How many documents `filter` matches (its limit and offset aside).
    public func count(_ filter: Filter = Filter()) throws -> Int {
        try vault.database.read { db in
            let (conditions, arguments) = Self.conditions(filter, profileID: profile.id)
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM document d WHERE " + conditions, arguments: arguments) ?? 0
        }
    }

    /// Each document type this profile has, with how many documents are of it.
    public func typeCounts() throws -> [(type: String, count: Int)] {
        try vault.database.read { db in
            try Row.fetchAll(db, sql: "SELECT type, count(*) FROM document WHERE profile_id = ? GROUP BY type ORDER BY type",
                             arguments: [profile.id]).map { ($0[0], $0[1]) }
        }
    }

    /// Each tag on this profile's documents, with how many documents carry it.
    public func tagCounts() throws -> [(tag: String, count: Int)] {
        try vault.database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT t.tag, count(*) FROM document_tag t JOIN document d ON d.id = t.document_id
                WHERE d.profile_id = ? GROUP BY t.tag ORDER BY t.tag
                """, arguments: [profile.id]).map { ($0[0], $0[1]) }
        }
    }

    private static func conditions(_ filter: Filter, profileID: Int64) -> (String, StatementArguments) {
        var sql = "d.profile_id = ?"
        var arguments: StatementArguments = [profileID]
        if let type = filter.type {
            sql += " AND d.type = ?"
            arguments += [type]
        }
        if let tag = filter.tag {
            sql += " AND EXISTS (SELECT 1 FROM document_tag t WHERE t.document_id = d.id AND t.tag = ?)"
            arguments += [tag.lowercased()]
        }
        if let since = filter.since {
            sql += " AND d.date >= ?"
            arguments += [since]
        }
        if let until = filter.until {
            sql += " AND d.date <= ?"
            arguments += [until]
        }
        return (sql, arguments)
    }

    /// Documents newest first (by document date, then by when they were added).
    public func list(_ filter: Filter = Filter()) throws -> [Document] {
        try vault.database.read { db in
            let (conditions, arguments) = Self.conditions(filter, profileID: profile.id)
            var sql = Self.selectSQL + " WHERE " + conditions
            sql += " ORDER BY d.date IS NULL, d.date DESC, d.added_at DESC, d.id"
            if let limit = filter.limit { sql += " LIMIT \(max(0, limit)) OFFSET \(max(0, filter.offset))" }
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            return try rows.map { row in try Document(row: row, tags: Self.tags(db, documentID: row["id"])) }
        }
    }

    /// The indexed text of a document, page by page.
    public func text(of document: Document) throws -> [(page: Int, text: String)] {
        try vault.database.read { db in
            try SearchIndex.bodies(db, kind: Self.kind, recordID: document.id).compactMap { entry in
                entry.page.map { ($0, entry.body) }
            }
        }
    }

    // MARK: Editing

    /// Changes to a document's metadata; nil leaves a field as it is, "" clears an optional one.
    public struct Changes: Sendable {
        public var title: String?
        public var type: String?
        public var date: String?
        public var provider: String?
        public var note: String?
        public var addTags: [String] = []
        public var removeTags: [String] = []

        public init() {}
    }

    @discardableResult
    public func edit(_ prefix: String, _ changes: Changes) throws -> Document {
        try vault.database.write { db in
            var document = try resolve(db, prefix)
            if let title = changes.title {
                document.title = try DocumentFields.title(title)
            }
            if let type = changes.type {
                document.type = try DocumentFields.type(type)
                document.typeSource = "user"
            }
            if let date = changes.date {
                document.date = date.isEmpty ? nil : try DocumentFields.date(date)
                document.dateSource = date.isEmpty ? nil : "user"
            }
            if let provider = changes.provider { document.provider = try DocumentFields.provider(provider) }
            if let note = changes.note { document.note = try DocumentFields.note(note) }
            var tags = Set(document.tags)
            for tag in changes.addTags { tags.insert(try DocumentFields.tag(tag)) }
            for tag in changes.removeTags { tags.remove(try DocumentFields.tag(tag)) }
            document.tags = tags.sorted()
            document.updatedAt = Timestamp.string(Date())
            try db.execute(sql: """
                UPDATE document SET title = ?, type = ?, type_source = ?, date = ?, date_source = ?, provider = ?,
                    note = ?, updated_at = ? WHERE id = ?
                """, arguments: [document.title, document.type, document.typeSource, document.date, document.dateSource,
                                 document.provider, document.note, document.updatedAt, document.id])
            try db.execute(sql: "DELETE FROM document_tag WHERE document_id = ?", arguments: [document.id])
            for tag in document.tags {
                try db.execute(sql: "INSERT INTO document_tag (document_id, tag) VALUES (?, ?)", arguments: [document.id, tag])
            }
            try SearchIndex.updateMetadata(db, kind: Self.kind, recordID: document.id, title: document.searchTitle,
                                           tags: document.tags, type: document.type, date: document.date)
            return document
        }
    }

    // MARK: Removing

    /// Removes a document: its row, tags and search entries in one transaction (secure_delete
    /// zeroes them inside the encrypted pages), then its blob file unless another document
    /// shares it or a `doc add` of the same content registered it meanwhile.
    public func remove(_ prefix: String) throws -> Document {
        try removeReporting(prefix).document
    }

    /// The IDs of the lab results `phr lab extract` saved from `documentID`.
    static func labResultIDs(_ db: Database, documentID: String, profileID: Int64) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT id FROM observation WHERE profile_id = ? AND lab_origin = ? AND lab_document_id = ? ORDER BY id
            """, arguments: [profileID, LabDetails.Origin.document.rawValue, documentID])
    }

    /// How many lab results were saved from `documentID` by `phr lab extract`.
    public func labResultCount(_ documentID: String) throws -> Int {
        try vault.database.read { db in try Self.labResultIDs(db, documentID: documentID, profileID: profile.id).count }
    }

    /// `remove`, saying whether the encrypted original is gone too. It stays when another phr
    /// process holds `blobs/` (a backup, an add) or cannot be removed now; the removal itself is
    /// committed either way, and `phr check --repair` removes the file later.
    ///
    /// Lab results saved from the document are a person's accepted results and stay (they keep
    /// naming the document as their source) unless `withLabResults`, which removes them in the
    /// same transaction; `labResults` says how many were kept or removed.
    public func removeReporting(_ prefix: String, withLabResults: Bool = false) throws
        -> (document: Document, originalKept: Bool, labResults: Int) {
        var orphaned: [String] = []
        var labResults = 0
        let document = try vault.database.write { db in
            let document = try resolve(db, prefix)
            let results = try Self.labResultIDs(db, documentID: document.id, profileID: profile.id)
            labResults = results.count
            if withLabResults {
                for id in results { try RecordRows.delete(db, table: ObservationStore.table, kind: ObservationStore.kind, id: id) }
            }
            try SearchIndex.remove(db, kind: Self.kind, recordID: document.id)
            try db.execute(sql: "DELETE FROM document WHERE id = ?", arguments: [document.id])
            let stillUsed = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM document WHERE blob_name = ?)",
                                              arguments: [document.blobName])!
            if !stillUsed {
                try db.execute(sql: "DELETE FROM blob WHERE name = ?", arguments: [document.blobName])
                orphaned.append(document.blobName)
            }
            return document
        }
        TestPause.here(.removalCommitted)
        guard !orphaned.isEmpty else { return (document, false, labResults) }
        let removed = (try? vault.leftovers(among: orphaned, remove: true))?.removed ?? false
        return (document, !removed, labResults)
    }

    // MARK: Exporting

    /// Writes the original bytes to `path`, mode 0600, through a temporary file that becomes
    /// `path` only once the whole blob authenticated. Refuses to replace an existing file.
    public func export(_ document: Document, to path: String) throws {
        let out = try OutputFile(destination: path, replace: false, exists: { DocumentError.exists($0) })
        do {
            try vault.blobs.read(name: document.blobName) { try out.write($0) }
            try out.commit()
        } catch {
            out.abandon()
            throw error
        }
    }

    /// Streams the original bytes to a descriptor (standard output). Bytes of a chunk reach the
    /// descriptor only after that chunk authenticated; a failure midway is reported, and the
    /// reader of the stream sees a short output.
    public func export(_ document: Document, toDescriptor fd: Int32) throws {
        let out = FileDescriptor(fd: fd, path: "standard output")
        try vault.blobs.read(name: document.blobName) { try out.write($0) }
    }
}

extension Document {
    /// The title as indexed: the title plus the provider, so either finds the document.
    var searchTitle: String {
        [title, provider].compactMap { $0 }.joined(separator: " · ")
    }
}

extension DocumentStore {
    /// Replaces what OCR recorded for `documentID`'s pages.
    static func replaceOCRPages(_ db: Database, documentID: String, pages: [(record: DocumentPageOCR, layout: PageLayout?)]) throws {
        try db.execute(sql: "DELETE FROM document_page WHERE document_id = ?", arguments: [documentID])
        let insert = try db.makeStatement(sql: """
            INSERT INTO document_page (document_id, page, ocr, confidence, detail, width, height, words)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (record, layout) in pages {
            let confidence = record.confidence.map { max(0, min(100, $0)) }
            try insert.execute(arguments: [documentID, record.page, record.status, confidence, record.detail,
                                           max(0, layout?.width ?? 0), max(0, layout?.height ?? 0),
                                           Data(PageWordCoding.encode(layout?.words ?? []))])
        }
    }

    /// What OCR made of each page of a document that it read or tried to, in page order.
    public static func ocrPages(_ db: Database, documentID: String) throws -> [DocumentPageOCR] {
        try Row.fetchAll(db, sql: "SELECT page, ocr, confidence, detail FROM document_page WHERE document_id = ? ORDER BY page",
                         arguments: [documentID]).map { row in
            DocumentPageOCR(page: row["page"], status: DocumentPageOCR.Status(rawValue: row["ocr"]) ?? .failed,
                            confidence: row["confidence"], detail: row["detail"])
        }
    }

    /// The words and boxes OCR stored for a document's pages, in page order. Text-layer pages
    /// are not stored: `DocumentImporter.layouts` reads them from the original on demand.
    public static func ocrLayouts(_ db: Database, documentID: String) throws -> [PageLayout] {
        try Row.fetchAll(db, sql: """
            SELECT page, confidence, width, height, words FROM document_page
            WHERE document_id = ? AND ocr IN ('read', 'low_confidence') ORDER BY page
            """, arguments: [documentID]).map { row in
            let words = PageWordCoding.decode((row["words"] as Data?) ?? Data()) ?? []
            return PageLayout(page: row["page"], width: row["width"], height: row["height"], source: .ocr,
                              meanConfidence: row["confidence"], words: words)
        }
    }

    /// How many of the profile's documents wait for OCR.
    public static func waitingForOCR(_ db: Database, profileID: Int64?) throws -> Int {
        if let profileID {
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM document WHERE ocr = 'waiting' AND profile_id = ?",
                                    arguments: [profileID]) ?? 0
        }
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM document WHERE ocr = 'waiting'") ?? 0
    }
}

extension DocumentError {
    /// The first line of `--pdf-password-file`: the password of encrypted PDFs (at most 64 KiB
    /// read). A file that cannot be read is an input problem, never "wrong passphrase" (77).
    public static func readPasswordFile(_ path: String) throws -> SecretBytes {
        var bytes: [UInt8]
        do {
            bytes = try FileDescriptor.openForReading(path).readToEnd(limit: 64 << 10)
        } catch let error as POSIXIOError {
            throw DocumentError.passwordFile(path: path, reason: String(cString: strerror(error.code)).lowercased(), code: error.code)
        }
        defer { wipe(&bytes) }
        var end = bytes.firstIndex(of: 0x0a) ?? bytes.count
        if end > 0 && bytes[end - 1] == 0x0d { end -= 1 }
        guard end > 0 else { throw DocumentError.passwordFile(path: path, reason: "the first line is empty", code: nil) }
        return SecretBytes(copying: bytes[0..<end])
    }
}

/// Validation of document fields typed by people.
public enum DocumentFields {
    /// One line (line breaks become spaces) of at most 300 characters, like every label phr keeps.
    public static func title(_ text: String) throws -> String {
        try RecordFields.text(text, field: Field.title)
    }

    public static func type(_ text: String) throws -> String {
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard let type = DocumentType(rawValue: lowered) else {
            let names = DocumentType.allCases.map(\.rawValue).joined(separator: ", ")
            throw RecordError.invalidField(field: Field.type, reason: "'\(text)' is not a document type; use one of \(names)")
        }
        return type.rawValue
    }

    /// A calendar date as YYYY-MM-DD; accepts YYYY-MM-DD only, to avoid day/month ambiguity.
    public static func date(_ text: String, field: Field = Field.date) throws -> String {
        guard let date = CalendarDate(text.trimmingCharacters(in: .whitespaces)) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is not a date; use YYYY-MM-DD, e.g. 2025-03-14")
        }
        return date.description
    }

    public static func tag(_ text: String) throws -> String {
        let tag = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard !tag.isEmpty, tag.count <= 64, !tag.contains(where: { $0.isWhitespace || $0 == "," }) else {
            throw RecordError.invalidField(field: Field.tag, reason: "'\(text)' is not a tag; use one word without spaces or commas")
        }
        try RecordFields.refuseControlCharacters(tag, field: Field.tag)
        return tag
    }

    /// --provider and --note: free text under the one control-character rule ("" clears).
    public static func provider(_ text: String?) throws -> String? {
        try RecordFields.optionalText(text, field: Field.provider)
    }

    public static func note(_ text: String?) throws -> String? {
        try RecordFields.optionalText(text, field: Field.note, limit: RecordFields.maximumTextLength, multiline: true)
    }
}
