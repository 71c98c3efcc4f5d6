import ArgumentParser
import Foundation
import Glibc
import PHRService

struct DocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doc",
        abstract: "Add, list, show, export, edit and remove documents (PDFs and photos of paper).",
        subcommands: [DocAdd.self, DocList.self, DocShow.self, DocExport.self, DocEdit.self, DocRemove.self, DocReindex.self,
                      DocSettings.self]
    )
}

extension OCRMode: ExpressibleByArgument {}

/// --ocr and --ocr-lang of the commands that read documents.
struct OCRArguments: ParsableArguments {
    @Option(help: "When to read pages by OCR: auto (images, and PDF pages without usable text), always, or never.")
    var ocr: OCRMode = .auto

    @Option(name: .customLong("ocr-lang"), help: "OCR languages, Tesseract's codes joined by '+' (deu+eng); the vault's default ('phr doc settings') if omitted.")
    var ocrLang: String?

    /// The options for the importer: the languages checked to be installed when OCR may run.
    func options(_ vault: Vault, mode: OCRMode? = nil) throws -> OCROptions {
        let mode = mode ?? ocr
        let languages = try ocrLang ?? DocumentSettings.ocrLanguages(vault, environment: ProcessEnvironment.variables)
        if mode != .never { try OCRLanguages.validate(languages, environment: ProcessEnvironment.variables) }
        return OCROptions(mode: mode, languages: languages)
    }

    func validate() throws {
        if let ocrLang, OCRLanguages.parse(ocrLang) == nil {
            throw ValidationError("--ocr-lang: '\(ocrLang)' is not a list of Tesseract languages; use codes joined by '+', like deu+eng")
        }
    }
}

/// The documents of the chosen profile in an open vault.
struct DocContext {
    let vault: Vault
    let profile: Profile
    var store: DocumentStore { DocumentStore(vault: vault, profile: profile) }

    init(_ options: VaultOptions, _ profile: ProfileOptions) throws {
        (vault, self.profile) = try VaultAccess.open(options.location, profile: profile)
    }

    /// Ambiguous dates like 03/04/2025 are read day first unless the locale is a month-first one.
    static var preferDayFirst: Bool { DocumentDateGuesser.prefersDayFirst(environment: ProcessEnvironment.variables) }
}

extension Document {
    /// `lab "Laboratory report" 2 pages, no text, needs OCR`
    var summaryLine: String {
        var line = "\(type) \"\(title)\" \(pageCount) page\(pageCount == 1 ? "" : "s")"
        if outcome != .indexed { line += ", \(outcomeDescription)" }
        return line
    }
}

struct DocAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Store documents encrypted and index their text.",
        discussion: """
            Takes PDFs, scans and photos (PNG, JPEG, TIFF, WebP, HEIC), and directories (searched
            recursively; other files in them are skipped). Images, and PDF pages without a usable
            text layer, are read by OCR (Tesseract, in the sandboxed reader) unless --ocr never.
            The same content added twice is stored once. A file that cannot be read is reported
            and the others are still added; the command then exits 65.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var ocr: OCRArguments

    @Argument(help: "Files or directories to add.")
    var files: [String]

    @Option(help: "Document type (prescription, insurance, lab, imaging, discharge, visit, vaccination, referral, bill, other); guessed from the text if omitted.")
    var type: String?

    @Option(help: "Title; the PDF's own title or the file name if omitted.")
    var title: String?

    @Option(help: "Document date (YYYY-MM-DD); found in the text if omitted.")
    var date: String?

    @Option(help: "A tag; repeat for several.")
    var tag: [String] = []

    @Option(help: "Who issued it (clinic, doctor, lab).")
    var provider: String?

    @Option(help: "A note, searchable with the document.")
    var note: String?

    @Option(name: .customLong("pdf-password-file"), help: "A file whose first line is the password of encrypted PDFs.")
    var pdfPasswordFile: String?

    func validate() throws {
        try asUsageError {
            if let type { _ = try DocumentFields.type(type) }
            if let date { _ = try DocumentFields.date(date) }
            if let title { _ = try DocumentFields.title(title) }
            for tag in tag { _ = try DocumentFields.tag(tag) }
            _ = try DocumentFields.provider(provider)
            _ = try DocumentFields.note(note)
        }
    }

    func run() throws {
        let expansion = try DocumentImporter.expand(RawArguments.paths(files))
        var options = DocumentImporter.Options()
        options.title = title
        options.type = type
        options.date = date
        options.tags = tag
        options.provider = provider
        options.note = note
        if let pdfPasswordFile {
            options.pdfPassword = try DocumentError.readPasswordFile(pdfPasswordFile)
        }
        let context = try DocContext(vault, profile)
        options.ocr = try ocr.options(context.vault)
        let extractor = TextExtractor(limits: try ExtractionLimits.fromEnvironment(ProcessEnvironment.variables))
        let importer = DocumentImporter(vault: context.vault, profile: context.profile, extractor: extractor,
                                        preferDayFirst: DocContext.preferDayFirst)
        importer.ocrLanguages = options.ocr.languages
        let files = expansion.files
        let showBar = files.count > 1 || options.ocr.mode != .never
            || files.contains { ($0.path.linkStatus().map { Int64($0.st_size) } ?? 0) > 20_000_000 }
        let bar = Progress("adding", enabled: showBar && Console.stderrIsTTY)
        // Each file's line is printed as soon as it and the files before it are done, so a run
        // that is interrupted has said what it committed. JSON is one array, at the end.
        func report(_ result: DocumentImporter.FileResult) {
            switch result.status {
            case .added:
                let document = result.document!
                if result.isProblem {
                    Console.error("\(result.file): \(document.outcomeDescription): \(result.reason ?? "no text") (stored as \(document.id); not searchable)")
                }
                Console.out("added \(document.id) \(document.summaryLine)")
            case .duplicate:
                Console.out("skipped \(result.file): \(result.reason!)")
            case .failed:
                Console.error("\(result.file): \(result.reason!)")
            case .skipped:
                break
            }
        }
        if !output.json { expansion.problems.forEach(report) }
        var arrived = [DocumentImporter.FileResult?](repeating: nil, count: files.count)
        var reported = 0
        func reportInOrder() {
            while !output.json, reported < arrived.count, let result = arrived[reported] {
                report(result)
                reported += 1
                TestPause.here(.reported)
            }
        }
        var results: [DocumentImporter.FileResult]
        var stopped: DocumentImportError?
        do {
            results = try importer.add(files: files, options: options, progress: { done, total, file in
                bar.update(done: Int64(done), total: Int64(total), detail: "\(done)/\(total) \((file as NSString).lastPathComponent)")
            }, onResult: { index, result in
                arrived[index] = result
                Progress.clearLine()
                reportInOrder()
            })
        } catch let error as DocumentImportError {
            guard case .stopped(let partial, _, _) = error else { throw error }
            results = partial
            stopped = error
        }
        bar.finish()
        // Files the batch stopped before have their results only now.
        for (index, result) in results.enumerated() where arrived[index] == nil { arrived[index] = result }
        reportInOrder()
        results = expansion.problems + results
        let skipped = results.filter { $0.status == .skipped }.count
        if results.isEmpty {
            // An empty folder: say so rather than print nothing.
            Console.note("nothing to add: no files in " + RawArguments.paths(self.files).map(\.display).joined(separator: ", "))
        }
        results.removeAll { $0.status == .skipped }
        if output.json { try Console.json(results) }
        if let stopped { throw stopped }
        let added = results.filter { $0.status == .added }.count
        let duplicates = results.filter { $0.status == .duplicate }.count
        let problems = results.filter(\.isProblem).count
        if results.count > 1 || skipped > 0 {
            var parts = ["\(added) added"]
            if duplicates > 0 { parts.append("\(duplicates) already in the vault") }
            if problems > 0 { parts.append("\(problems) with problems (see above)") }
            if skipped > 0 { parts.append("\(skipped) skipped (not a PDF or an image)") }
            Console.note(parts.joined(separator: ", "))
        }
        if problems > 0 { throw ExitCode(ExitStatus.dataError.rawValue) }
    }
}

struct DocList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List documents, newest first.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Only this type.") var type: String?
    @Option(help: "Only documents with this tag.") var tag: String?
    @Option(help: "Only documents dated on or after this day (YYYY-MM-DD).") var since: String?
    @Option(help: "Only documents dated on or before this day (YYYY-MM-DD).") var until: String?
    @Option(help: "At most this many (a page of a long list).") var limit: Int?
    @Option(help: "Skip this many first (with --limit: the next page).") var offset = 0

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit: give 1 or more") }
        if offset < 0 { throw ValidationError("--offset: give 0 or more") }
        try asUsageError {
            if let type { _ = try DocumentFields.type(type) }
            if let since { _ = try DocumentFields.date(since, field: Field("since")) }
            if let until { _ = try DocumentFields.date(until, field: Field("until")) }
        }
    }

    func run() throws {
        let context = try DocContext(vault, profile)
        let documents = try context.store.list(DocumentStore.Filter(type: type.map { $0.lowercased() }, tag: tag, since: since, until: until,
                                                                    limit: limit ?? (offset > 0 ? Int.max : nil), offset: offset))
        if output.json {
            try Console.json(documents)
            return
        }
        if documents.isEmpty {
            Console.note("no documents\(type != nil || tag != nil || since != nil || until != nil ? " match" : " yet; add some with 'phr doc add FILE'")")
            return
        }
        let rows = documents.map { document in
            [document.id, document.date ?? "—", document.type, "\(document.pageCount)", document.title
                + (document.outcome == .indexed ? "" : "  (\(document.outcomeDescription))")]
        }
        Table.print(header: ["ID", "DATE", "TYPE", "PAGES", "TITLE"], rows: rows)
    }
}

struct DocShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a document's details and, with --text, its text.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The document ID (any unique prefix).") var id: String
    @Flag(help: "Also print the extracted text, page by page.") var text = false

    func run() throws {
        let context = try DocContext(vault, profile)
        let document = try context.store.get(id)
        let pages = text ? try context.store.text(of: document) : []
        let ocrPages = try context.vault.database.read { db in try DocumentStore.ocrPages(db, documentID: document.id) }
        if output.json {
            struct Shown: Encodable {
                let document: Document
                let ocrPages: [DocumentPageOCR]
                let text: [Page]?
                struct Page: Encodable { let page: Int; let text: String }
                enum CodingKeys: String, CodingKey { case document, ocrPages = "ocr_pages", text }
            }
            try Console.json(Shown(document: document, ocrPages: ocrPages,
                                   text: text ? pages.map { Shown.Page(page: $0.page, text: $0.text) } : nil))
            return
        }
        let fields: [(String, String?)] = [
            ("id", document.id),
            ("title", document.title),
            ("type", document.type + (document.typeSource == "guessed" ? " (guessed)" : "")),
            ("date", document.date.map { $0 + (document.dateSource == "user" ? "" : " (\(document.dateSource == "metadata" ? "from the PDF's creation date" : "found in the text"))") }),
            ("provider", document.provider),
            ("tags", document.tags.isEmpty ? nil : document.tags.joined(separator: ", ")),
            ("note", document.note),
            ("profile", document.profile),
            ("file", "\(document.fileName) (\(document.mediaType), \(Console.bytes(document.size)))"),
            ("pages", "\(document.pageCount), \(document.textPages) with text"),
            ("text", document.outcomeDescription + (document.outcomeDetail.map { ": \($0)" } ?? "")),
            ("ocr", Self.ocrLine(document, pages: ocrPages)),
            ("sha256", document.sha256),
            ("added", document.addedAt),
            ("extractor", document.extractor),
        ]
        for (name, value) in fields {
            guard let value else { continue }
            Console.out(name.padding(toLength: 10, withPad: " ", startingAt: 0) + value)
        }
        if text {
            for page in pages {
                Console.out("")
                Console.out(Console.bold("— page \(page.page) —"))
                Console.out(page.text)
            }
            if pages.isEmpty { Console.note("no text was extracted from this document") }
        }
    }

    /// Which pages OCR read and how confidently, or that the document waits for it.
    static func ocrLine(_ document: Document, pages: [DocumentPageOCR]) -> String? {
        if document.ocr == .waiting { return "waiting (read it with 'phr doc reindex --ocr \(document.id)')" }
        guard !pages.isEmpty else { return nil }
        return pages.map { page in
            var part = "page \(page.page): "
            switch page.status {
            case .read: part += "confidence \(Int((page.confidence ?? 0).rounded()))"
            case .lowConfidence: part += "low confidence (\(Int((page.confidence ?? 0).rounded())))"
            case .empty: part += "no text found"
            case .failed: part += "failed"
            }
            if let detail = page.detail { part += ", \(detail)" }
            return part
        }.joined(separator: "; ")
    }
}

struct DocExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a document's original file, byte for byte.",
        discussion: "The file is created with mode 0600 and only once the whole document verified. '--out -' writes to standard output, which must not be a terminal."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions

    @Argument(help: "The document ID (any unique prefix).") var id: String
    @Option(help: "Where to write it, or - for standard output.") var out: String

    func run() throws {
        if out == "-" && Console.stdoutIsTTY { throw DocumentError.refusingTerminal }
        try vault.refuseOutput(out, option: "--out")
        let context = try DocContext(vault, profile)
        let document = try context.store.get(id)
        if out == "-" {
            try context.store.export(document, toDescriptor: STDOUT_FILENO)
        } else {
            try context.store.export(document, to: out)
            Console.note("wrote \(out) (\(Console.bytes(document.size)), sha256 \(document.sha256.prefix(16))…)")
        }
    }
}

struct DocEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a document's title, type, date, tags, provider or note.",
        discussion: "Tags: '--tag +x' adds x, '--tag -y' removes y. An empty value ('--date \"\"') clears a field."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The document ID (any unique prefix).") var id: String
    @Option(help: "New title.") var title: String?
    @Option(help: "New type.") var type: String?
    @Option(help: "New date (YYYY-MM-DD), or \"\" to clear.") var date: String?
    @Option(help: "New provider, or \"\" to clear.") var provider: String?
    @Option(help: "New note, or \"\" to clear.") var note: String?
    @Option(parsing: .unconditionalSingleValue, help: "+TAG adds a tag, -TAG removes one; repeat for several.") var tag: [String] = []

    func validate() throws {
        for change in tag where !(change.hasPrefix("+") || change.hasPrefix("-")) || change.count < 2 {
            throw ValidationError("--tag: '\(change)' needs a + (add) or - (remove) in front, like --tag +insurance")
        }
    }

    func run() throws {
        var changes = DocumentStore.Changes()
        changes.title = title
        changes.type = type
        changes.date = date
        changes.provider = provider
        changes.note = note
        changes.addTags = tag.filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) }
        changes.removeTags = tag.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()) }
        let context = try DocContext(vault, profile)
        // The fields were typed: a bad one is a usage error (exit 64), as for every record.
        let document = try RecordContext.options { try context.store.edit(id, changes) }
        if output.json {
            try Console.json(document)
        } else {
            Console.out("updated \(document.id) \(document.summaryLine)")
        }
    }
}

struct DocRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove a document: its file, text, search entries and details.",
        discussion: "Asks for confirmation on a terminal unless --yes."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions

    @Argument(help: "The document ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false
    @Flag(help: "Also remove the lab results saved from it with 'phr lab extract' (kept otherwise).") var withResults = false

    func run() throws {
        let context = try DocContext(vault, profile)
        let document = try context.store.get(id)
        let results = try context.store.labResultCount(document.id)
        let counted = "\(results) lab result\(results == 1 ? "" : "s") saved from it"
        let description = "\(document.id) \(document.summaryLine)"
            + (results == 0 ? "" : withResults ? " and the \(counted)" : " (the \(counted) stay)")
        guard try RecordContext.confirmRemoval(description, id: document.id, yes: yes) else { return }
        let (removed, originalKept, labResults) = try context.store.removeReporting(document.id, withLabResults: withResults)
        Console.out("removed \(removed.id) \(removed.summaryLine)")
        if labResults > 0 {
            let what = "\(labResults) lab result\(labResults == 1 ? "" : "s") saved from it"
            if withResults {
                Console.note("removed the \(what)")
            } else {
                Console.note("kept the \(what); they still name \(removed.id) as their source ('phr doc rm --with-results' removes them with the document)")
            }
        }
        if originalKept {
            Console.note("its encrypted original stays in blobs/ while another phr command (a backup, an add) works; 'phr check --repair' removes it afterwards")
        }
    }
}

struct DocReindex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Extract the text of documents again (all of them without IDs), e.g. after a phr upgrade.",
        discussion: "Decrypted content goes to the extractor through memory, never through a file on disk."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "Document IDs (any unique prefix); all documents if none (with --ocr: those waiting for OCR).") var ids: [String] = []
    @Option(name: .customLong("pdf-password-file"), help: "A file whose first line is the password of encrypted PDFs.")
    var pdfPasswordFile: String?
    @Flag(help: "Read by OCR the pages that need it (images, scans, junk text layers); without IDs, every document waiting for OCR. An interrupted run continues where it stopped.")
    var ocr = false
    @Flag(name: .customLong("ocr-always"), help: "Read every page of the documents named by OCR, text layer or not (the OCR text replaces it), as 'doc add --ocr always' does.")
    var ocrAlways = false
    @Option(name: .customLong("ocr-lang"), help: "OCR languages (deu+eng); the vault's default if omitted.")
    var ocrLang: String?

    func validate() throws {
        if ocrAlways && ids.isEmpty { throw ValidationError("--ocr-always: name the documents to read again (their IDs)") }
    }

    func run() throws {
        let ocr = self.ocr || ocrAlways
        let password = try pdfPasswordFile.map { try DocumentError.readPasswordFile($0) }
        let context = try DocContext(vault, profile)
        var documents = ids.isEmpty ? try context.store.list() : try ids.map { try context.store.get($0) }
        if ocr && ids.isEmpty { documents = documents.filter { $0.ocr == .waiting } }
        let languages = try ocrLang ?? DocumentSettings.ocrLanguages(context.vault, environment: ProcessEnvironment.variables)
        if ocr { try OCRLanguages.validate(languages, environment: ProcessEnvironment.variables) }
        let extractor = TextExtractor(limits: try ExtractionLimits.fromEnvironment(ProcessEnvironment.variables))
        let importer = DocumentImporter(vault: context.vault, profile: context.profile, extractor: extractor,
                                        preferDayFirst: DocContext.preferDayFirst)
        importer.ocrLanguages = languages
        if ocr && documents.isEmpty {
            Console.note("no documents wait for OCR")
            if output.json { try Console.json([Document]()) }
            return
        }
        let bar = Progress(ocr ? "reading by OCR" : "reindexing", enabled: (documents.count > 1 || ocr) && Console.stderrIsTTY)
        var removed: [String] = []
        let updated = try importer.reindex(documents, password: password,
                                           ocr: ocr ? OCROptions(mode: ocrAlways ? .always : .auto, languages: languages, blankPages: true) : nil,
                                           removed: { removed.append($0) }) { done, total, id in
            bar.update(done: Int64(done), total: Int64(total), detail: "\(done)/\(total) \(id)")
        }
        bar.finish()
        for id in removed {
            Console.note("document \(id) was removed while it was being read; nothing was stored for it")
        }
        if output.json {
            try Console.json(updated)
        } else {
            for document in updated { Console.out("reindexed \(document.id) \(document.summaryLine)") }
        }
    }
}

struct DocSettings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show or change how documents are read (the default OCR languages).",
        discussion: "Without options, prints the settings. The first default is the locale's language (when its Tesseract data is installed) plus English."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("ocr-lang"), help: "Default OCR languages, Tesseract's codes joined by '+' (deu+eng).")
    var ocrLang: String?

    func validate() throws {
        if let ocrLang, OCRLanguages.parse(ocrLang) == nil {
            throw ValidationError("--ocr-lang: '\(ocrLang)' is not a list of Tesseract languages; use codes joined by '+', like deu+eng")
        }
    }

    func run() throws {
        let vault = try VaultAccess.open(self.vault.location)
        if let ocrLang { try DocumentSettings.setOCRLanguages(vault, ocrLang, environment: ProcessEnvironment.variables) }
        let languages = try DocumentSettings.ocrLanguages(vault, environment: ProcessEnvironment.variables)
        let directory = OCRLanguages.dataDirectory(environment: ProcessEnvironment.variables)
        let missing = OCRLanguages.missing(languages, directory: directory)
        if output.json {
            struct Settings: Encodable {
                let ocrLanguages: String
                let tessdata: String
                let missing: [String]
                enum CodingKeys: String, CodingKey { case ocrLanguages = "ocr_languages", tessdata, missing }
            }
            try Console.json(Settings(ocrLanguages: languages, tessdata: directory, missing: missing))
            return
        }
        Console.out("ocr-lang  \(languages)")
        Console.out("tessdata  \(directory)")
        if !missing.isEmpty {
            Console.note("not installed: \(missing.joined(separator: ", ")) (Debian: apt-get install \(missing.map(OCRLanguages.package).joined(separator: " ")))")
        }
    }
}
