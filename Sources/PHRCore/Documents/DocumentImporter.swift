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
    /// The OCR languages used when a command does not choose (the vault's default).
    public var ocrLanguages = "eng"

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
        /// Whether scans and photos are read by OCR, and in which languages.
        public var ocr: OCROptions = .default

        public init() {}
    }

    /// The result for one file.
    public struct FileResult: Codable, Sendable, Equatable {
        public enum Status: String, Codable, Sendable {
            /// Stored and indexed (or stored with the outcome saying why not).
            case added
            /// The same content is already in this profile's documents; nothing was stored.
            case duplicate
            /// Not stored.
            case failed
            /// A file found in a directory that is not a PDF or an image: passed over, not an error.
            case skipped
        }

        public var file: String
        public var status: Status
        /// The document (the existing one for a duplicate).
        public var document: Document?
        /// Why it failed, or why its text is missing; one line.
        public var reason: String?

        public init(file: String, status: Status, document: Document? = nil, reason: String? = nil) {
            self.file = file
            self.status = status
            self.document = document
            self.reason = reason
        }

        /// A failure, or a stored document whose text could not be read at all (a damaged or
        /// locked PDF): the command reports both and exits 65.
        public var isProblem: Bool {
            switch status {
            case .failed: return true
            case .duplicate, .skipped: return false
            case .added: return document?.outcome == .unreadable || document?.outcome == .passwordRequired
            }
        }
    }

    /// A file to add, and whether it was found inside a directory (where files that are not
    /// documents are passed over rather than refused).
    public struct InputFile: Sendable, Equatable {
        public var path: InputPath
        public var inDirectory: Bool
        /// The file's name as its owner knows it, when the path is not it (a browser's upload,
        /// held in a memory file): shown in results, kept as the document's file name.
        public var name: String?

        public init(path: InputPath, inDirectory: Bool = false, name: String? = nil) {
            self.path = path
            self.inDirectory = inDirectory
            self.name = name
        }
    }

    /// What `expand` found: the files to try, and entries of directories that cannot be read
    /// (each reported with its reason).
    public struct Expansion: Sendable {
        public var files: [InputFile] = []
        public var problems: [FileResult] = []
    }

    /// Files and directories (searched recursively, without recursion on their depth; hidden
    /// entries skipped; symbolic links to directories not followed) in the order given. Only
    /// regular files are listed; a FIFO, socket or device inside a directory, or a directory that
    /// cannot be read, is a problem with its reason. Names are bytes: a name that is not UTF-8,
    /// or a path longer than PATH_MAX, is found and opened like any other.
    public static func expand(_ paths: [InputPath]) throws -> Expansion {
        var expansion = Expansion()
        for path in paths {
            guard let info = path.linkStatus() else {
                throw DocumentImportError.missing(path.display)
            }
            let isLink = info.st_mode & S_IFMT == S_IFLNK
            let directoryFD = (info.st_mode & S_IFMT == S_IFDIR || isLink) ? path.open(O_RDONLY | O_DIRECTORY) : -1
            guard directoryFD >= 0 else {
                if isLink && errno != ENOTDIR && errno != ENOENT && errno != ELOOP {
                    expansion.problems.append(FileResult(file: path.display, status: .failed, reason: "cannot open: \(ExtractionError.describe(errno))"))
                    continue
                }
                expansion.files.append(InputFile(path: path))
                continue
            }
            Glibc.close(directoryFD)
            // Depth-first, each directory's entries in byte order, with an explicit stack.
            var stack: [InputPath] = [path]
            var found: [InputFile] = []
            var isRoot = true
            while let directory = stack.popLast() {
                // The directory named on the command line may be a link (~/Documents often is);
                // links met inside it are not followed into (no loops, no escaping the tree).
                let fd = directory.open(O_RDONLY | O_DIRECTORY | (isRoot ? 0 : O_NOFOLLOW))
                isRoot = false
                guard fd >= 0, let stream = fdopendir(fd) else {
                    let code = errno
                    if fd >= 0 { Glibc.close(fd) }
                    expansion.problems.append(FileResult(file: directory.display, status: .failed,
                                                         reason: "cannot read the directory: \(ExtractionError.describe(code))"))
                    continue
                }
                var subdirectories: [InputPath] = []
                while let entry = readdir(stream) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                        Array(raw.prefix(while: { $0 != 0 }))
                    }
                    if name.first == UInt8(ascii: ".") { continue }  // ".", ".." and hidden entries
                    let child = directory.appending(name)
                    var kind = entry.pointee.d_type
                    if kind == UInt8(DT_UNKNOWN) {
                        var info = stat()
                        kind = InputPath.withCString(name) { fstatat(dirfd(stream), $0, &info, AT_SYMLINK_NOFOLLOW) } == 0
                            ? Self.directoryEntryType(info.st_mode) : UInt8(DT_UNKNOWN)
                    }
                    switch Int(kind) {
                    case Int(DT_DIR):
                        subdirectories.append(child)
                    case Int(DT_REG), Int(DT_LNK):
                        // A link is opened (and so followed) like a file; one to a directory
                        // fails that open and is reported, never walked (no loops).
                        found.append(InputFile(path: child, inDirectory: true))
                    default:
                        expansion.problems.append(FileResult(file: child.display, status: .failed,
                                                             reason: "not a regular file (\(Self.describeType(kind))); skipped"))
                    }
                }
                closedir(stream)
                stack += subdirectories.sorted(by: >)
            }
            expansion.files += found.sorted { $0.path < $1.path }
        }
        return expansion
    }

    /// `expand` for text paths.
    public static func expand(_ paths: [String]) throws -> Expansion {
        try expand(paths.map(InputPath.init))
    }

    static func directoryEntryType(_ mode: mode_t) -> UInt8 {
        switch mode & S_IFMT {
        case S_IFDIR: return UInt8(DT_DIR)
        case S_IFREG: return UInt8(DT_REG)
        case S_IFLNK: return UInt8(DT_LNK)
        case S_IFIFO: return UInt8(DT_FIFO)
        case S_IFSOCK: return UInt8(DT_SOCK)
        case S_IFCHR: return UInt8(DT_CHR)
        case S_IFBLK: return UInt8(DT_BLK)
        default: return UInt8(DT_UNKNOWN)
        }
    }

    static func describeType(_ type: UInt8) -> String {
        switch Int(type) {
        case Int(DT_FIFO): return "a FIFO"
        case Int(DT_SOCK): return "a socket"
        case Int(DT_CHR): return "a character device"
        case Int(DT_BLK): return "a block device"
        case Int(DT_DIR): return "a directory"
        default: return "an unknown kind of file"
        }
    }

    static func describe(mode: mode_t) -> String {
        describeType(directoryEntryType(mode))
    }

    // MARK: Adding

    /// A file opened, stored as a blob, and waiting for (or not needing) extraction.
    private struct Pending {
        var index: Int
        var display: String
        var fileName: String
        var kind: FileSniffer.Kind
        var blob: BlobStore.StoredBlob
        /// The one descriptor the file is read through: sniffed, encrypted and extracted from it.
        var file: FileDescriptor
        /// The file's identity and change times when it was opened.
        var opened: FileState
        var pages: PageSpool
    }

    /// What says a file was not rewritten while it was being added.
    struct FileState: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: timespec
        var changed: timespec

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim
            changed = info.st_ctim
        }

        static func == (lhs: FileState, rhs: FileState) -> Bool {
            lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
                && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
                && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
        }
    }

    /// Adds files given by text paths (see `add(files:)`).
    public func add(_ paths: [String], options: Options,
                    progress: (Int, Int, String) -> Void = { _, _, _ in }) throws -> [FileResult] {
        try add(files: paths.map { InputFile(path: InputPath($0)) }, options: options, progress: progress)
    }

    /// Adds `files` (see `expand`), one by one: each file is opened once (never blocking: a FIFO
    /// is refused, not waited on), sniffed, encrypted into a blob and handed to an extraction
    /// worker through that one descriptor, and its document is committed as soon as its text is
    /// in, with up to a worker's worth of files in flight. `progress(done, total, file)` is
    /// called as files finish, and `onResult(index, result)` with each file's result as it is
    /// final (committed, refused or skipped), in the order they finish. Returns one result per
    /// file, in order.
    ///
    /// When the vault itself cannot be written (a full disk, an I/O error), the batch stops:
    /// files in flight finish, nothing more is read, and `DocumentImportError.stopped` carries
    /// every file's result (the ones not reached say so) and the cause.
    public func add(files: [InputFile], options: Options,
                    progress: (Int, Int, String) -> Void = { _, _, _ in },
                    onResult: (Int, FileResult) -> Void = { _, _ in }) throws -> [FileResult] {
        try withoutActuallyEscaping(progress) { progress in
            try withoutActuallyEscaping(onResult) { onResult in
                try add(files: files, options: options, escapingProgress: progress, onResult: onResult)
            }
        }
    }

    private func add(files: [InputFile], options: Options, escapingProgress progress: @escaping (Int, Int, String) -> Void,
                     onResult: @escaping (Int, FileResult) -> Void) throws -> [FileResult] {
        var results = [FileResult?](repeating: nil, count: files.count)
        let rowsBefore = try vault.database.read { db in try SearchIndex.indexedRows(db) }
        var done = 0
        func finish(_ index: Int, _ result: FileResult) {
            results[index] = result
            done += 1
            onResult(index, result)
            progress(done, files.count, result.file)
        }

        // Blobs stored by this batch whose documents were not committed: removed at the end.
        var uncommitted = Set<String>()
        var stop: Error?
        // Files handed to the workers, by job number, until their result is known: each holds an
        // open descriptor and its text, released as soon as the file is finished.
        var pending: [Int: Pending] = [:]
        var jobCount = 0
        var spoolFailures: [Int: Error] = [:]
        var blobsInBatch: [String: String] = [:]
        let writerLock = try vault.blobs.writerLock()

        var queue = files.enumerated().makeIterator()
        let jobs = AnyIterator<ExtractionJob> {
            while stop == nil, let (index, file) = queue.next() {
                do {
                    guard let item = try self.prepare(index: index, file: file, blobsInBatch: &blobsInBatch, finish: finish) else { continue }
                    if item.blob.isNew { uncommitted.insert(item.blob.name) }
                    TestPause.here(.blobStored)
                    pending[jobCount] = item
                    jobCount += 1
                    return ExtractionJob(.file(item.file), password: options.pdfPassword, ocr: options.ocr)
                } catch {
                    guard Self.stopsTheBatch(error) else {
                        finish(index, FileResult(file: file.path.display, status: .failed, reason: Self.describe(error)))
                        continue
                    }
                    stop = error
                    finish(index, FileResult(file: file.path.display, status: .failed, reason: "not added: \(Self.describe(error))"))
                }
            }
            return nil
        }

        do {
            try extractor.extractAll(jobs, onPage: { job, page in
                guard let item = pending[job], spoolFailures[job] == nil else { return }
                do {
                    try item.pages.append(page)
                } catch {
                    // Staging text failed (a full disk): this document is not added, and if the
                    // vault cannot be written the batch stops after the files in flight.
                    spoolFailures[job] = error
                    if Self.stopsTheBatch(error), stop == nil { stop = error }
                }
            }, onFinish: { job, summary in
                guard let item = pending.removeValue(forKey: job) else { return }
                defer {
                    item.pages.discard()
                    try? item.file.close()
                }
                if let failure = spoolFailures.removeValue(forKey: job) {
                    finish(item.index, FileResult(file: item.display, status: .failed, reason: "not added: \(Self.describe(failure))"))
                    return
                }
                do {
                    var now = stat()
                    guard fstat(item.file.fd, &now) == 0, FileState(now) == item.opened else {
                        finish(item.index, FileResult(file: item.display, status: .failed,
                                                      reason: "the file changed while it was being added; add it again"))
                        return
                    }
                    finish(item.index, try self.commit(item, summary: summary, options: options))
                    uncommitted.remove(item.blob.name)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    // Another phr command added the same file to this profile meanwhile.
                    let existing = try? self.vault.database.read { db in
                        try String.fetchOne(db, sql: "SELECT id FROM document WHERE blob_name = ? AND profile_id = ?",
                                            arguments: [item.blob.name, self.profile.id])
                    }
                    guard let existing else { throw error }
                    uncommitted.remove(item.blob.name)
                    finish(item.index, FileResult(file: item.display, status: .duplicate, reason: "already in vault as \(existing)"))
                } catch {
                    if case VaultError.integrity = error { throw error }
                    if Self.stopsTheBatch(error), stop == nil { stop = error }
                    finish(item.index, FileResult(file: item.display, status: .failed, reason: "not added: \(Self.describe(error))"))
                }
            })
        } catch {
            // Extraction stopped (no worker could start, or the command was interrupted): the
            // blobs this batch stored for documents not yet committed go again, so the vault is
            // left as it was plus the documents already reported.
            for item in pending.values { item.pages.discard() }
            writerLock.release()
            _ = try? vault.leftovers(among: Array(uncommitted), remove: true)
            throw error
        }
        writerLock.release()
        if !uncommitted.isEmpty { _ = try? vault.leftovers(among: Array(uncommitted), remove: true) }
        if let stop {
            let final = results.enumerated().map { index, result in
                result ?? FileResult(file: files[index].path.display, status: .failed, reason: "not added: the batch stopped before this file")
            }
            throw DocumentImportError.stopped(results: final, cause: Self.describe(stop), status: Self.exitStatus(of: stop))
        }
        // Every document is committed; merging the index is an optimisation, and one that fails
        // (a full disk) is rolled back and leaves the index as it was.
        _ = try? vault.database.write { db in try SearchIndex.compactAfterBulkChange(db, rowsBefore: rowsBefore) }
        return results.map { $0! }
    }

    /// Opens, sniffs and stores one file. Returns nil when the file is finished already (a
    /// duplicate, not a document, unreadable), having called `finish`. Throws only what
    /// `stopsTheBatch` (the vault cannot be written).
    private func prepare(index: Int, file: InputFile, blobsInBatch: inout [String: String],
                         finish: (Int, FileResult) -> Void) throws -> Pending? {
        let display = file.name ?? file.path.display
        func failed(_ reason: String) -> Pending? {
            finish(index, FileResult(file: display, status: .failed, reason: reason))
            return nil
        }
        // O_NONBLOCK: opening a FIFO must not wait for a writer. It is cleared once the file is
        // known to be a regular file.
        let raw = file.path.open(O_RDONLY | O_NONBLOCK | O_NOCTTY)
        guard raw >= 0 else {
            let code = errno
            if code == ENOENT { return failed("no such file") }
            return failed("cannot open the file: \(ExtractionError.describe(code))")
        }
        let descriptor = FileDescriptor(fd: raw, path: display)
        var info = stat()
        guard fstat(raw, &info) == 0 else { return failed("cannot read the file: \(ExtractionError.describe(errno))") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return failed("not a regular file (\(Self.describe(mode: info.st_mode)))\(file.inDirectory ? "; skipped" : "")")
        }
        _ = fcntl(raw, F_SETFL, fcntl(raw, F_GETFL) & ~O_NONBLOCK)
        let opened = FileState(info)
        let kind: FileSniffer.Kind
        do {
            kind = try FileSniffer.kind(ofDescriptor: raw)
        } catch let error as POSIXIOError {
            return failed("cannot read the file: \(ExtractionError.describe(error.code))")
        }
        guard kind != .other else {
            if file.inDirectory {
                finish(index, FileResult(file: display, status: .skipped, reason: "not a PDF or an image"))
                return nil
            }
            return failed(info.st_size == 0 ? "the file is empty" : "not a PDF or an image (PNG, JPEG, TIFF, WebP, HEIC)")
        }
        let blob: BlobStore.StoredBlob
        do {
            blob = try vault.blobs.store { buffer in
                do {
                    return try descriptor.readFully(into: buffer)
                } catch let error as POSIXIOError {
                    throw SourceReadError(code: error.code)
                }
            }
        } catch let error as SourceReadError {
            return failed("cannot read the file: \(ExtractionError.describe(error.code))")
        }
        let fileName = file.name ?? String(decoding: file.path.lastComponent, as: UTF8.self)
        if let existing = try vault.database.read({ db in
            try String.fetchOne(db, sql: "SELECT id FROM document WHERE blob_name = ? AND profile_id = ?",
                                arguments: [blob.name, profile.id])
        }) {
            let document = try vault.database.read { db in try DocumentStore.fetch(db, id: existing) }
            finish(index, FileResult(file: display, status: .duplicate, document: document, reason: "already in vault as \(existing)"))
            return nil
        }
        if let earlier = blobsInBatch[blob.name] {
            finish(index, FileResult(file: display, status: .duplicate, reason: "same content as \(earlier)"))
            return nil
        }
        blobsInBatch[blob.name] = display
        return Pending(index: index, display: display, fileName: fileName, kind: kind, blob: blob, file: descriptor, opened: opened,
                       pages: try PageSpool(database: vault.database))
    }

    /// A read error of the file being added (as opposed to the vault), inside `BlobStore.store`.
    private struct SourceReadError: Error {
        let code: Int32
    }

    /// Errors that mean the vault cannot take more: the batch stops instead of failing file
    /// after file with the same message.
    static func stopsTheBatch(_ error: Error) -> Bool {
        if error is POSIXIOError { return true }
        if let error = error as? DatabaseError {
            return [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode)
        }
        if case VaultError.io = error { return true }
        return false
    }

    static func exitStatus(of error: Error) -> ExitStatus {
        if let error = error as? PHRError { return error.exitStatus }
        return .ioError
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: return "no space left on device (the vault database is full)"
            case .SQLITE_READONLY: return "the vault database is read-only"
            default: return "the vault database cannot be written (\(error.resultCode))"
            }
        }
        return (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }

    /// Writes one document: blob registration, row, tags and search entries in one transaction.
    private func commit(_ item: Pending, summary: ExtractionSummary, options: Options) throws -> FileResult {
        let fileName = RecordFields.replacingControlCharacters(item.fileName)
        let text = item.pages.guessText
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
        let document = try vault.database.write { db -> Document in
            try vault.blobs.register(item.blob, in: db)
            let id = try RecordID.generate(db, table: "document")
            try db.execute(sql: """
                INSERT INTO document (id, profile_id, blob_name, file_name, media_type, title, type, type_source,
                    date, date_source, provider, note, outcome, outcome_detail, page_count, text_pages, size, sha256,
                    extractor, added_at, updated_at, ocr)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, profile.id, item.blob.name, fileName, item.kind.mediaType, title, type, typeSource,
                                 date, dateSource, try DocumentFields.provider(options.provider), try DocumentFields.note(options.note), summary.outcome.rawValue, summary.reason,
                                 summary.pageCount, summary.textPages, item.blob.size, Data(item.blob.sha256),
                                 extractorVersion, now, now, Self.ocrState(summary: summary, pages: item.pages)])
            try DocumentStore.replaceOCRPages(db, documentID: id, pages: item.pages.ocrPages)
            for tag in tags {
                try db.execute(sql: "INSERT INTO document_tag (document_id, tag) VALUES (?, ?)", arguments: [id, tag])
            }
            var document = try DocumentStore.fetch(db, id: id)!
            try Self.index(db, document: &document, pages: item.pages, profileID: profile.id)
            return document
        }
        return FileResult(file: item.display, status: .added, document: document, reason: summary.reason)
    }

    /// Whether a document still needs OCR after this extraction: not if OCR read (or tried to
    /// read) any page, nor if nothing in it needs OCR.
    static func ocrState(summary: ExtractionSummary, pages: PageSpool) -> DocumentOCRState {
        // A file that cannot be read at all (a damaged or oversized image, a page that crashes
        // the reader) waits for nothing: another try reads it no better. One whose reading ran
        // out of time may read on a quieter machine: it waits.
        if summary.outcome == .unreadable && !summary.timedOut { return pages.ocrPages.isEmpty ? .notNeeded : .done }
        // Done once OCR read a page (finding text or not); pages where it could not run (a
        // timeout, a missing language) leave the document waiting for another try.
        if pages.ocrPages.contains(where: { $0.record.status != .failed }) { return .done }
        if !pages.ocrPages.isEmpty { return .waiting }
        switch summary.outcome {
        case .noText, .junkText: return .waiting
        case .partial where (summary.reason ?? "").contains("OCR") || (summary.reason ?? "").contains("unusable text"): return .waiting
        default: return .notNeeded
        }
    }

    /// Search entries for every page with text; the title, tags, provider and note go with each.
    static func index(_ db: Database, document: inout Document, pages: PageSpool, profileID: Int64) throws {
        try SearchIndex.remove(db, kind: DocumentStore.kind, recordID: document.id)
        let title = document.searchTitle, tags = document.tags, type = document.type, date = document.date
        let note = document.note.map { "\n" + $0 } ?? ""
        let id = document.id
        var any = false
        try pages.forEachPage(db) { number, text in
            any = true
            try SearchIndex.append(db, kind: DocumentStore.kind, recordID: id, profileID: profileID, entry: SearchIndex.Entry(
                page: number, title: title, tags: tags, body: text + note, type: type, date: date))
        }
        if !any {
            // A document without text is still found by its title, tags, provider and note.
            try SearchIndex.append(db, kind: DocumentStore.kind, recordID: id, profileID: profileID, entry: SearchIndex.Entry(
                page: 1, title: title, tags: tags, body: document.note ?? "", type: type, date: date))
        }
    }

    // MARK: Re-extracting

    /// Extracts the text of `documents` again from their blobs (decrypted into memory files, never
    /// onto a disk), replacing their search entries and outcomes. User-set title, type and date
    /// are kept; guessed ones are guessed again.
    ///
    /// `ocr` says whether pages are read by OCR: nil keeps each document as it was (documents OCR
    /// read are read by OCR again, the others are not); a mode applies to every document.
    /// Each document is committed as soon as it is read, so an interrupted run loses nothing
    /// and `reindex --ocr` of the documents still waiting continues where it stopped.
    /// `removed` hears of each document that was removed (by another phr process) while it was
    /// read: nothing is stored for it, and it is not among the documents returned.
    public func reindex(_ documents: [Document], password: SecretBytes? = nil, ocr: OCROptions? = nil,
                        removed: (String) -> Void = { _ in },
                        progress: (Int, Int, String) -> Void = { _, _, _ in }) throws -> [Document] {
        let options = ocr ?? OCROptions(mode: .never, languages: ocrLanguages)
        // Without an OCR request, documents OCR read keep their text (reading them again without
        // OCR would lose it, and with it could fail for want of a language pack on this machine);
        // images without OCR have no text to extract: both keep what they have.
        let pdfs = documents.filter { document in
            if ocr == nil { return document.mediaType == "application/pdf" && document.ocr != .done }
            return document.mediaType == "application/pdf" || FileSniffer.Kind(mediaType: document.mediaType).isImage
        }
        // Staged pages are leftovers to `phr check --repair` unless a writer holds blobs/.
        let writerLock = try vault.blobs.writerLock()
        defer { writerLock.release() }
        let pages: [PageSpool] = try pdfs.map { _ in try PageSpool(database: vault.database) }
        var damaged: [String: String] = [:]
        var updated: [Document] = []
        var done = 0
        // Each document is decrypted only when a worker is free, so at most a worker's worth of
        // plaintext sits in memory files at a time.
        var decryptionFailure: Error?
        var gone: Set<String> = []
        let jobs = pdfs.lazy.map { document -> ExtractionJob in
            let memory: FileDescriptor
            do {
                memory = try self.decryptedCopy(of: document)
            } catch {
                // A blob that fails authentication yields an empty file; onFinish reports it.
                decryptionFailure = error
                damaged[document.id] = (error as? VaultError)?.errorDescription ?? error.localizedDescription
                return ExtractionJob(.file((try? MemoryFile.make()) ?? FileDescriptor(fd: -1, path: "memfd")))
            }
            return ExtractionJob(.file(memory), password: password, ocr: options)
        }
        try extractor.extractAll(jobs, onPage: { job, page in
            try pages[job].append(page)
        }, onFinish: { job, summary in
            var document = pdfs[job]
            if damaged[document.id] == nil {
                TestPause.here(.documentRead)
                if let replaced = try self.replaceText(of: &document, summary: summary, pages: pages[job]) {
                    updated.append(replaced)
                } else {
                    gone.insert(document.id)
                    removed(document.id)
                }
            }
            pages[job].discard()
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
        let read = Set(pdfs.map(\.id))
        return updated + documents.filter { !read.contains($0.id) && !gone.contains($0.id) }
    }

    /// Every page's words with their boxes, in page order: what OCR stored for the pages it read,
    /// and for the other pages the text layer's words, read again from the original by an
    /// extraction worker. For the lab-results reader.
    public func layouts(of document: Document, password: SecretBytes? = nil) throws -> [PageLayout] {
        var byPage: [Int: PageLayout] = [:]
        for layout in try vault.database.read({ db in try DocumentStore.ocrLayouts(db, documentID: document.id) }) {
            byPage[layout.page] = layout
        }
        if document.mediaType == "application/pdf" && byPage.count < document.pageCount {
            let textLayer = try readLayouts(of: document, password: password,
                                            ocr: OCROptions(mode: .never, languages: ocrLanguages, textLayerWords: true))
            byPage.merge(textLayer) { stored, _ in stored }
        }
        return byPage.keys.sorted().map { byPage[$0]! }
    }

    /// The document read again with its scanned pages read as tables (`OCROptions.tables`) and
    /// the text layer's words for the others. Costs an OCR reading of the scanned pages: `phr lab
    /// extract` asks for it when `layouts(of:)` has OCR pages.
    public func tableLayouts(of document: Document, password: SecretBytes? = nil) throws -> [PageLayout] {
        let byPage = try readLayouts(of: document, password: password,
                                     ocr: OCROptions(mode: .auto, languages: ocrLanguages, textLayerWords: true, tables: true))
        return byPage.keys.sorted().map { byPage[$0]! }
    }

    /// The words of the pages with text, by page number, as a worker reads the original with `ocr`.
    private func readLayouts(of document: Document, password: SecretBytes?, ocr: OCROptions) throws -> [Int: PageLayout] {
        var byPage: [Int: PageLayout] = [:]
        _ = try extractor.extract(.file(try decryptedCopy(of: document)), password: password, ocr: ocr) { page in
            if page.quality == .text, let layout = page.layout { byPage[page.number] = layout }
        }
        return byPage
    }

    /// The document's original decrypted into a memory file, never onto a disk.
    private func decryptedCopy(of document: Document) throws -> FileDescriptor {
        let memory = try MemoryFile.make()
        try vault.blobs.read(name: document.blobName) { try memory.write($0) }
        return memory
    }

    /// Stores what a reindex read; nil when the document was removed meanwhile (`phr doc rm` in
    /// another process): then nothing is written for it.
    private func replaceText(of document: inout Document, summary: ExtractionSummary, pages: PageSpool) throws -> Document? {
        let text = pages.guessText
        if document.typeSource == "guessed" {
            document.type = DocumentTypeGuesser.guess(text: text, title: summary.metadata.title, fileName: document.fileName).rawValue
        }
        if document.dateSource != "user" {
            let (date, source) = try date(given: nil, text: text, fileName: document.fileName, metadata: summary.metadata)
            document.date = date
            document.dateSource = source
        }
        document.outcome = summary.outcome
        document.outcomeDetail = summary.reason
        document.pageCount = summary.pageCount
        document.textPages = summary.textPages
        document.extractor = extractorVersion
        document.updatedAt = Timestamp.string(Date())
        document.ocr = Self.ocrState(summary: summary, pages: pages)
        let profileID = profile.id
        return try vault.database.write { db -> Document? in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM document WHERE id = ?", arguments: [document.id]) == true else { return nil }
            try db.execute(sql: """
                UPDATE document SET type = ?, date = ?, date_source = ?, outcome = ?, outcome_detail = ?, page_count = ?,
                    text_pages = ?, extractor = ?, updated_at = ?, ocr = ? WHERE id = ?
                """, arguments: [document.type, document.date, document.dateSource, document.outcome, document.outcomeDetail,
                                 document.pageCount, document.textPages, document.extractor, document.updatedAt, document.ocr,
                                 document.id])
            try DocumentStore.replaceOCRPages(db, documentID: document.id, pages: pages.ocrPages)
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
        // A title is one line: a PDF title or file name with line breaks would break listings.
        let metadata = metadata.map { RecordFields.replacingControlCharacters(RecordFields.oneLine($0)) }
        let fileName = RecordFields.replacingControlCharacters(RecordFields.oneLine(fileName))
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

/// Errors of `phr doc add` that stop the command: before any file is read (`missing`), or when
/// the vault cannot take more (`stopped`, with every file's result so far).
public enum DocumentImportError: PHRError, Equatable {
    case missing(String)
    case stopped(results: [DocumentImporter.FileResult], cause: String, status: ExitStatus)

    public var exitStatus: ExitStatus {
        switch self {
        case .missing: return .noInput
        case .stopped(_, _, let status): return status
        }
    }

    public var message: Message {
        switch self {
        case .missing(let path): return "\(path): no such file or directory"
        case .stopped(let results, let cause, _):
            let added = results.filter { $0.status == .added }.count
            return "adding stopped: \(cause); \(added) of \(results.count) files were added (listed above), the rest were not"
        }
    }

    public var hint: Message? {
        switch self {
        case .missing: return nil
        case .stopped: return "free some space (or fix the vault's disk), then run the same '\(Action.addDocuments)' again: files already added are recognised"
        }
    }
}
