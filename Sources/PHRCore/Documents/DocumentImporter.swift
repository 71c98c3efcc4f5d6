import Foundation
import GRDB
import Glibc

/// `phr doc add` and `phr doc reindex`: files into encrypted blobs, text out of them in worker
/// processes, and document rows plus search entries into the database.
///
/// A batch never stops at a bad file: each file gets its own result, and each document is
/// committed on its own as soon as its text is in, so an interrupted batch keeps what finished.
public final class DocumentImporter {
    public let vault: Vault
    public let profile: Profile
    let extractor: TextExtractor
    /// Read ambiguous numeric dates such as 03/04/2025 day first, as outside the United States.
    public var preferDayFirst: Bool

    /// The value of `document.extractor`: which code produced the text, for `doc reindex`.
    var extractorVersion: String { extractor.extractorVersion ?? "phr-extract 1" }

    public init(vault: Vault, profile: Profile, extractor: TextExtractor = TextExtractor(),
                preferDayFirst: Bool = false) {
        self.vault = vault
        self.profile = profile
        self.extractor = extractor
        self.preferDayFirst = preferDayFirst
    }

    /// What the user said about the files being added.
    public struct Options: Sendable {
        public var title: String?
        public var type: String?
        public var date: String?
        public var tags: [String] = []
        public var provider: String?
        public var note: String?
        public var pdfPassword: SecretBytes?

        public init() {}
    }

    /// The result for one file.
    public struct FileResult: Codable, Sendable, Equatable {
        public enum Status: String, Codable, Sendable {
            /// Stored and indexed (or stored with the outcome saying why not).
            case added
            /// The same content is already in the vault; nothing was stored.
            case duplicate
            /// Not stored.
            case failed
        }

        public var file: String
        public var status: Status
        /// The document (the existing one for a duplicate).
        public var document: Document?
        /// Why it failed, or why its text is missing; one line.
        public var reason: String?

        /// A failure, or a stored document whose text could not be read at all (a damaged or
        /// locked PDF): the command reports both and exits 65.
        public var isProblem: Bool {
            switch status {
            case .failed: return true
            case .duplicate: return false
            case .added: return document?.outcome == "unreadable" || document?.outcome == "password_required"
            }
        }
    }

    /// Files and directories (searched recursively; hidden entries skipped) in the order given,
    /// plus how many files in directories were skipped for not being PDFs or images.
    public static func expand(_ paths: [String]) throws -> (files: [String], skipped: Int) {
        var files: [String] = []
        var skipped = 0
        for path in paths {
            guard FileSystem.exists(path) else { throw DocumentImportError.missing(path) }
            guard FileSystem.isDirectory(path) else {
                files.append(path)
                continue
            }
            guard let enumerator = FileManager.default.enumerator(atPath: path) else { continue }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    if FileSystem.isDirectory("\(path)/\(relative)") { enumerator.skipDescendants() }
                    continue
                }
                let full = (path as NSString).appendingPathComponent(relative)
                guard !FileSystem.isDirectory(full) else { continue }
                if let kind = try? FileSniffer.kind(ofFileAt: full), kind != .other {
                    found.append(full)
                } else {
                    skipped += 1
                }
            }
            files += found.sorted()
        }
        return (files, skipped)
    }

    // MARK: Adding

    /// A file stored as a blob and waiting for (or not needing) extraction.
    private struct Pending {
        var index: Int
        var path: String
        var kind: FileSniffer.Kind
        var blob: BlobStore.StoredBlob
        var pages: [ExtractedPage] = []
    }

    /// Adds `paths` (files only; see `expand`). `progress(done, total, file)` is called as files
    /// finish. Returns one result per path, in order.
    public func add(_ paths: [String], options: Options,
                    progress: (Int, Int, String) -> Void = { _, _, _ in }) throws -> [FileResult] {
        var results = [FileResult?](repeating: nil, count: paths.count)
        let rowsBefore = try vault.database.read { db in try SearchIndex.indexedRows(db) }
        var pending: [Pending] = []
        var blobsInBatch: [String: Int] = [:]
        var done = 0
        func finish(_ index: Int, _ result: FileResult) {
            results[index] = result
            done += 1
            progress(done, paths.count, paths[index])
        }

        // 1. Store each file as a blob (streamed, encrypted) unless its content is already here.
        for (index, path) in paths.enumerated() {
            do {
                let kind = try FileSniffer.kind(ofFileAt: path)
                guard kind != .other else {
                    let empty = (FileSystem.fileSize(path) ?? 0) == 0
                    finish(index, FileResult(file: path, status: .failed, reason: empty ? "the file is empty" : "not a PDF, PNG or JPEG file"))
                    continue
                }
                let blob = try vault.blobs.store(fileAt: path)
                if let existing = try vault.database.read({ db in
                    try String.fetchOne(db, sql: "SELECT id FROM document WHERE blob_name = ?", arguments: [blob.name])
                }) {
                    let document = try vault.database.read { db in try DocumentStore.fetch(db, id: existing) }
                    finish(index, FileResult(file: path, status: .duplicate, document: document,
                                             reason: "already in vault as \(existing)"))
                    continue
                }
                if let earlier = blobsInBatch[blob.name] {
                    finish(index, FileResult(file: path, status: .duplicate, reason: "same content as \(paths[earlier])"))
                    continue
                }
                blobsInBatch[blob.name] = index
                pending.append(Pending(index: index, path: path, kind: kind, blob: blob))
            } catch let error as POSIXIOError {
                finish(index, FileResult(file: path, status: .failed, reason: error.localizedDescription))
            }
        }

        // 2. Images need no extraction: they are stored as needing OCR.
        for item in pending where item.kind.isImage {
            let summary = ExtractionSummary(outcome: .noText, pageCount: 1, reason: "an image: needs OCR to be searchable")
            finish(item.index, try commit(item, summary: summary, options: options))
        }

        // 3. PDFs go to the extraction workers, several at a time; each is committed when done.
        var pdfs = pending.filter { $0.kind == .pdf }
        let jobs = pdfs.map { ExtractionJob(.path($0.path), password: options.pdfPassword) }
        do {
            try extractor.extractAll(jobs, onPage: { job, page in
                pdfs[job].pages.append(page)
            }, onFinish: { job, summary in
                let result = try commit(pdfs[job], summary: summary, options: options)
                pdfs[job].pages = []
                finish(pdfs[job].index, result)
            })
        } catch {
            // Extraction stopped (no worker could start, or the command was interrupted): the
            // blobs this batch stored for documents not yet committed go again, so the vault is
            // left as it was plus the documents already reported.
            let orphans = pdfs.filter { results[$0.index] == nil && $0.blob.isNew }.map(\.blob.name)
            try? vault.blobs.removeFiles(names: orphans)
            throw error
        }
        // Every document is committed; merging the index is an optimisation, and one that fails
        // (a full disk) is rolled back and leaves the index as it was.
        _ = try? vault.database.write { db in try SearchIndex.compactAfterBulkChange(db, rowsBefore: rowsBefore) }
        return results.map { $0! }
    }

    /// Writes one document: blob registration, row, tags and search entries in one transaction.
    /// If the transaction fails, a blob this batch created is removed again.
    private func commit(_ item: Pending, summary: ExtractionSummary, options: Options) throws -> FileResult {
        let fileName = RecordFields.replacingControlCharacters((item.path as NSString).lastPathComponent)
        let text = item.pages.filter { $0.quality == .text }.map(\.text).joined(separator: "\n")
        let title = try options.title.map(DocumentFields.title) ?? Self.title(metadata: summary.metadata.title, fileName: fileName)
        let (date, dateSource) = try date(given: options.date, text: text, fileName: fileName, metadata: summary.metadata)
        let type: String
        let typeSource: String
        if let given = options.type {
            type = try DocumentFields.type(given)
            typeSource = "user"
        } else {
            type = DocumentTypeGuesser.guess(text: text, title: summary.metadata.title, fileName: fileName).rawValue
            typeSource = "guessed"
        }
        let tags = try Set(options.tags.map(DocumentFields.tag)).sorted()
        let now = Timestamp.string(Date())
        do {
            let document = try vault.database.write { db -> Document in
                try vault.blobs.register(item.blob, in: db)
                let id = try RecordID.generate(db, table: "document")
                try db.execute(sql: """
                    INSERT INTO document (id, profile_id, blob_name, file_name, media_type, title, type, type_source,
                        date, date_source, provider, note, outcome, outcome_detail, page_count, text_pages, size, sha256,
                        extractor, added_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [id, profile.id, item.blob.name, fileName, item.kind.mediaType, title, type, typeSource,
                                     date, dateSource, try DocumentFields.provider(options.provider), try DocumentFields.note(options.note), summary.outcome.rawValue, summary.reason,
                                     summary.pageCount, summary.textPages, item.blob.size, Data(item.blob.sha256),
                                     extractorVersion, now, now])
                for tag in tags {
                    try db.execute(sql: "INSERT INTO document_tag (document_id, tag) VALUES (?, ?)", arguments: [id, tag])
                }
                var document = try DocumentStore.fetch(db, id: id)!
                try Self.index(db, document: &document, pages: item.pages, profileID: profile.id)
                return document
            }
            return FileResult(file: item.path, status: .added, document: document, reason: summary.reason)
        } catch {
            if item.blob.isNew { try? vault.blobs.removeFiles(names: [item.blob.name]) }
            throw error
        }
    }

    /// Search entries for every page with text; the title, tags, provider and note go with each.
    static func index(_ db: Database, document: inout Document, pages: [ExtractedPage], profileID: Int64) throws {
        let entries = pages.filter { $0.quality == .text && !$0.text.isEmpty }.map { page in
            SearchIndex.Entry(page: page.number, title: document.searchTitle, tags: document.tags,
                              body: page.text + (document.note.map { "\n" + $0 } ?? ""),
                              type: document.type, date: document.date)
        }
        if entries.isEmpty {
            // A document without text is still found by its title, tags, provider and note.
            try SearchIndex.replace(db, kind: DocumentStore.kind, recordID: document.id, profileID: profileID, entries: [
                SearchIndex.Entry(page: 1, title: document.searchTitle, tags: document.tags, body: document.note ?? "",
                                  type: document.type, date: document.date),
            ])
        } else {
            try SearchIndex.replace(db, kind: DocumentStore.kind, recordID: document.id, profileID: profileID, entries: entries)
        }
    }

    // MARK: Re-extracting

    /// Extracts the text of `documents` again from their blobs (decrypted into memory files, never
    /// onto a disk), replacing their search entries and outcomes. User-set title, type and date
    /// are kept; guessed ones are guessed again.
    public func reindex(_ documents: [Document], password: SecretBytes? = nil,
                        progress: (Int, Int, String) -> Void = { _, _, _ in }) throws -> [Document] {
        // Images have no text to extract; they keep their outcome.
        let pdfs = documents.filter { $0.mediaType == "application/pdf" }
        var pages: [[ExtractedPage]] = Array(repeating: [], count: pdfs.count)
        var damaged: [String: String] = [:]
        var updated: [Document] = []
        var done = 0
        // Each document is decrypted only when a worker is free, so at most a worker's worth of
        // plaintext sits in memory files at a time.
        var decryptionFailure: Error?
        let jobs = pdfs.lazy.map { document -> ExtractionJob in
            let memory: FileDescriptor
            do {
                memory = try MemoryFile.make()
                try self.vault.blobs.read(name: document.blobName) { try memory.write($0) }
            } catch {
                // A blob that fails authentication yields an empty file; onFinish reports it.
                decryptionFailure = error
                damaged[document.id] = (error as? VaultError)?.errorDescription ?? error.localizedDescription
                return ExtractionJob(.file((try? MemoryFile.make()) ?? FileDescriptor(fd: -1, path: "memfd")))
            }
            return ExtractionJob(.file(memory), password: password)
        }
        try extractor.extractAll(jobs, onPage: { job, page in
            pages[job].append(page)
        }, onFinish: { job, summary in
            var document = pdfs[job]
            if damaged[document.id] == nil {
                updated.append(try self.replaceText(of: &document, summary: summary, pages: pages[job]))
            }
            pages[job] = []
            done += 1
            progress(done, pdfs.count, document.id)
        })
        if let decryptionFailure {
            if case VaultError.integrity = decryptionFailure {
                throw VaultError.integrity(damaged.keys.sorted().map { "document \($0): \(damaged[$0]!)" })
            }
            throw decryptionFailure
        }
        // Re-extracted pages replace the old ones: for the index, as many rows again.
        let rewritten = updated.reduce(0) { $0 + max($1.textPages, 1) }
        _ = try? vault.database.write { db in try SearchIndex.compactAfterBulkChange(db, addedRows: rewritten) }
        return updated + documents.filter { $0.mediaType != "application/pdf" }
    }

    private func replaceText(of document: inout Document, summary: ExtractionSummary, pages: [ExtractedPage]) throws -> Document {
        let text = pages.filter { $0.quality == .text }.map(\.text).joined(separator: "\n")
        if document.typeSource == "guessed" {
            document.type = DocumentTypeGuesser.guess(text: text, title: summary.metadata.title, fileName: document.fileName).rawValue
        }
        if document.dateSource != "user" {
            let (date, source) = try date(given: nil, text: text, fileName: document.fileName, metadata: summary.metadata)
            document.date = date
            document.dateSource = source
        }
        document.outcome = summary.outcome.rawValue
        document.outcomeDetail = summary.reason
        document.pageCount = summary.pageCount
        document.textPages = summary.textPages
        document.extractor = extractorVersion
        document.updatedAt = Timestamp.string(Date())
        let profileID = profile.id
        return try vault.database.write { db in
            try db.execute(sql: """
                UPDATE document SET type = ?, date = ?, date_source = ?, outcome = ?, outcome_detail = ?, page_count = ?,
                    text_pages = ?, extractor = ?, updated_at = ? WHERE id = ?
                """, arguments: [document.type, document.date, document.dateSource, document.outcome, document.outcomeDetail,
                                 document.pageCount, document.textPages, document.extractor, document.updatedAt, document.id])
            try Self.index(db, document: &document, pages: pages, profileID: profileID)
            return document
        }
    }

    // MARK: Guesses

    /// Generic titles PDF writers leave behind ("untitled", "Microsoft Word - x.docx"): not titles.
    static func isMeaningfulTitle(_ title: String) -> Bool {
        let lowered = title.lowercased().trimmingCharacters(in: .whitespaces)
        let generic = ["untitled", "untitled document", "(anonymous)", "anonymous", "document", "title", "none", "scan", "image"]
        if lowered.count < 3 || generic.contains(lowered) { return false }
        if lowered.hasPrefix("microsoft word - ") || lowered.hasPrefix("microsoft powerpoint - ") { return false }
        for ending in [".doc", ".docx", ".pdf", ".odt", ".rtf", ".txt", ".tex", ".dvi", ".jpg", ".png", ".tif", ".tiff"]
            where lowered.hasSuffix(ending) {
            return false
        }
        return lowered.contains { $0.isLetter }
    }

    /// The PDF's own title when it is a real one, else the file name made readable.
    static func title(metadata: String?, fileName: String) -> String {
        // Both come from the file, not a person: control characters become U+FFFD rather than refuse it.
        let metadata = metadata.map(RecordFields.replacingControlCharacters)
        let fileName = RecordFields.replacingControlCharacters(fileName)
        if let metadata, isMeaningfulTitle(metadata) { return String(metadata.prefix(300)) }
        var stem = (fileName as NSString).deletingPathExtension
        stem = stem.replacingOccurrences(of: "__", with: " ").map { $0 == "_" || $0 == "-" ? " " : $0 }
            .reduce(into: "") { $0.append($1) }
        stem = stem.split(separator: " ").joined(separator: " ")
        guard let first = stem.first else { return fileName }
        return first.uppercased() + stem.dropFirst()
    }

    /// --date, else a date found in the text or file name, else the PDF's creation date.
    func date(given: String?, text: String, fileName: String, metadata: DocumentMetadata) throws -> (String?, String?) {
        if let given { return (try DocumentFields.date(given), "user") }
        if let guess = DocumentDateGuesser.guess(text: text, fileName: fileName, preferDayFirst: preferDayFirst),
           let day = guess.day, let date = CalendarDate(year: guess.year, month: guess.month, day: day) {
            return (date.description, "guessed")
        }
        if let created = metadata.creationDate {
            return (CalendarDate(created, in: TimeZone(identifier: "UTC")!).description, "metadata")
        }
        return (nil, nil)
    }
}

/// Errors of `phr doc add` that stop the command before any file is read.
public enum DocumentImportError: PHRError, Equatable {
    case missing(String)

    public var exitStatus: ExitStatus { .noInput }

    public var errorDescription: String? {
        switch self {
        case .missing(let path): return "\(path): no such file or directory"
        }
    }
}
