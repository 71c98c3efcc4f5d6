import Foundation
import PHRService

/// The documents screens: the list (filters, pages of 50, upload), the viewer (pages beside
/// their text, corrections, removal).
extension WebApp {
    /// Documents on one page of the list.
    static let documentsPerPage = 50

    public func documents(_ session: WebSession, page requested: Int) throws -> HTML {
        let profile = try profile(session)
        let store = DocumentStore(vault: vault, profile: profile)
        var filter = session.documentFilter
        let total = try store.count(filter)
        let pages = max(1, (total + Self.documentsPerPage - 1) / Self.documentsPerPage)
        let page = min(max(1, requested), pages)
        filter.limit = Self.documentsPerPage
        filter.offset = (page - 1) * Self.documentsPerPage
        let shown = try store.list(filter)
        let types = try store.typeCounts()
        let tags = try store.tagCounts()
        let filtered = filter.type != nil || filter.tag != nil || filter.since != nil || filter.until != nil

        func option(_ value: String, _ label: String, selected: Bool) -> HTML {
            "<option value=\"\(value)\"\(selected ? " selected" as HTML : .empty)>\(label)</option>"
        }
        let typeOptions: [HTML] = [option("", "Any type", selected: filter.type == nil)]
            + types.map { option($0.type, "\($0.type) (\($0.count))", selected: filter.type == $0.type) }
        let tagOptions: [HTML] = [option("", "Any tag", selected: filter.tag == nil)]
            + tags.map { option($0.tag, "\($0.tag) (\($0.count))", selected: filter.tag == $0.tag) }
        let items: [HTML] = shown.map { document in
            """
            <li class="doc">
            <a href="/documents/\(document.id)" class="doc-link">
            <img src="/documents/\(document.id)/pages/1?size=thumb" alt="" loading="lazy" width="160" height="226">
            <span class="doc-title">\(document.title)</span></a>
            <span class="muted">\(document.date ?? "undated") · \(document.type) · \(document.pageCount) \(document.pageCount == 1 ? "page" : "pages")</span>
            \(document.tags.isEmpty ? HTML.empty : HTML("<span class=\"tags\">\(document.tags.map { HTML("<span class=\"tag\">\($0)</span>") })</span>"))
            </li>
            """
        }
        let pager: HTML = pages <= 1 ? .empty : """
            <nav aria-label="Pages of the list" class="pager">
            \(page > 1 ? HTML("<a href=\"/documents?page=\(page - 1)\" rel=\"prev\">← Newer</a>") : .empty)
            <span>Page \(page) of \(pages)</span>
            \(page < pages ? HTML("<a href=\"/documents?page=\(page + 1)\" rel=\"next\">Older →</a>") : .empty)
            </nav>
            """
        let empty: HTML = filtered
            ? "<p>No documents match these filters.</p>"
            : "<p>No documents yet. Add some below, or with <code>phr doc add</code>.</p>"
        let body: HTML = """
        <h1>Documents</h1>
        <p class="whose-line">Profile: \(profile.name) · \(total) \(total == 1 ? "document" : "documents")\(filtered ? " match" as HTML : .empty)</p>
        \(uploadForm(session))
        <form method="post" action="/documents/filter" class="filters-form" aria-label="Filter the documents">
        <input type="hidden" name="csrf" value="\(session.csrf)">
        <label for="f-type">Type</label><select id="f-type" name="type">\(typeOptions)</select>
        <label for="f-tag">Tag</label><select id="f-tag" name="tag">\(tagOptions)</select>
        <label for="f-since">From</label><input id="f-since" name="since" type="date" value="\(filter.since ?? "")">
        <label for="f-until">To</label><input id="f-until" name="until" type="date" value="\(filter.until ?? "")">
        <button type="submit">Filter</button>
        \(filtered ? HTML("<button type=\"submit\" name=\"clear\" value=\"1\" class=\"secondary\">Show all</button>") : .empty)
        </form>
        \(shown.isEmpty ? empty : HTML("<ul class=\"docs\">\(items)</ul>"))
        \(pager)
        """
        return try layout(.documents, session, profile, path: page == 1 ? "/documents" : "/documents?page=\(page)").page(body)
    }

    /// The upload form: a file picker that works without JavaScript; the page's script adds
    /// drag and drop and each file's progress.
    func uploadForm(_ session: WebSession) -> HTML {
        """
        <section aria-labelledby="add-heading" class="card upload no-print">
        <h2 id="add-heading">Add documents</h2>
        <form method="post" action="/documents/upload" enctype="multipart/form-data" data-upload>
        <input type="hidden" name="csrf" value="\(session.csrf)">
        <label for="files">PDFs, scans or photos (PNG, JPEG, TIFF, WebP, HEIC); you can also drop them here</label>
        <input id="files" name="files" type="file" multiple accept=".pdf,.png,.jpg,.jpeg,.tif,.tiff,.webp,.heic,application/pdf,image/*">
        <button type="submit">Add</button>
        </form>
        <ul class="plain upload-list" aria-live="polite"></ul>
        <p class="muted">Each file is stored encrypted and read as <code>phr doc add</code> reads it (OCR included), which can take a while for scans.</p>
        </section>
        """
    }

    /// Keeps the list's filter for the session (values that are not a type, tag or date are
    /// left out, and said).
    public func setDocumentFilter(_ session: WebSession, form: [String: String]) {
        guard form["clear"] == nil else {
            session.documentFilter = DocumentStore.Filter()
            return
        }
        var filter = DocumentStore.Filter()
        func value(_ name: String) -> String? {
            form[name].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var wrong: [String] = []
        if let type = value("type") {
            if let known = try? DocumentFields.type(type) { filter.type = known } else { wrong.append("Type") }
        }
        if let tag = value("tag") {
            if let known = try? DocumentFields.tag(tag) { filter.tag = known } else { wrong.append("Tag") }
        }
        if let since = value("since") {
            if let date = try? DocumentFields.date(since) { filter.since = date } else { wrong.append("From date") }
        }
        if let until = value("until") {
            if let date = try? DocumentFields.date(until) { filter.until = date } else { wrong.append("To date") }
        }
        if !wrong.isEmpty {
            session.flash("Not a \(wrong.map { $0.lowercased() }.joined(separator: ", ")) phr knows: left out of the filter (dates are YYYY-MM-DD).", isError: true)
        }
        session.documentFilter = filter
    }

    // MARK: - Upload

    /// One file's outcome, for the page's script and for the results page.
    public struct UploadOutcome: Codable, Sendable {
        public var file: String
        public var status: String
        /// What happened, in words.
        public var words: String
        /// The document added (or the one it duplicates).
        public var id: String?
    }

    /// Adds the uploaded files as `phr doc add` adds files (OCR with the vault's languages),
    /// one upload at a time.
    func add(_ session: WebSession, files: [UploadedFile]) throws -> [UploadOutcome] {
        let profile = try profile(session)
        let environment = ProcessEnvironment.variables
        var options = DocumentImporter.Options()
        let languages = try DocumentSettings.ocrLanguages(vault, environment: environment)
        try OCRLanguages.validate(languages, environment: environment)
        options.ocr = OCROptions(mode: .auto, languages: languages)
        let importer = DocumentImporter(vault: vault, profile: profile,
                                        extractor: TextExtractor(limits: try ExtractionLimits.fromEnvironment(environment)),
                                        preferDayFirst: DocumentDateGuesser.prefersDayFirst(environment: environment))
        importer.ocrLanguages = languages
        let inputs = files.map { DocumentImporter.InputFile(path: $0.path, name: $0.name) }
        let results: [DocumentImporter.FileResult]
        do {
            results = try uploads.withLock { try importer.add(files: inputs, options: options) }
        } catch let error as DocumentImportError {
            if case .stopped(let partial, _, _) = error { return partial.map(Self.outcome) }
            throw error
        }
        return results.map(Self.outcome)
    }

    static func outcome(_ result: DocumentImporter.FileResult) -> UploadOutcome {
        let words: String
        switch result.status {
        case .added:
            let document = result.document
            var text = "Added" + (document.map { " as \($0.type)" + ($0.date.map { ", dated \($0)" } ?? "") } ?? "")
            if let document, document.outcome != .indexed { text += "; " + document.outcomeDescription }
            words = text + "."
        case .duplicate:
            words = "Already in the vault" + (result.document.map { ": \($0.title)" } ?? "") + "; nothing was stored."
        case .failed, .skipped:
            let reason = result.reason ?? "it could not be read"
            words = "Not added: " + reason + "."
        }
        return UploadOutcome(file: result.file, status: result.status.rawValue, words: words, id: result.document?.id)
    }

    /// The results page of an upload made without the page's script.
    public func uploadResults(_ session: WebSession, _ outcomes: [UploadOutcome]) throws -> HTML {
        let profile = try profile(session)
        let added = outcomes.filter { $0.status == "added" }.count
        let rows: [HTML] = outcomes.map { outcome in
            let mark: HTML = outcome.status == "added" ? "<span aria-hidden=\"true\">✓ </span>" : outcome.status == "duplicate" ? "<span aria-hidden=\"true\">= </span>" : "<span aria-hidden=\"true\">✗ </span>"
            let name: HTML = outcome.id.map { HTML("<a href=\"/documents/\($0)\">\(outcome.file)</a>") } ?? HTML("\(outcome.file)")
            return "<li class=\"upload-\(outcome.status)\">\(mark)<strong>\(name)</strong>: \(outcome.words)</li>"
        }
        let body: HTML = """
        <h1>Documents added</h1>
        <p class="whose-line">Profile: \(profile.name) · \(added) of \(outcomes.count) \(outcomes.count == 1 ? "file" : "files") added</p>
        \(outcomes.isEmpty ? "<p>No file was chosen.</p>" as HTML : HTML("<ul class=\"plain upload-list\">\(rows)</ul>"))
        <p><a href="/documents">← All documents</a></p>
        """
        return try layout(.documents, session, profile).page(body)
    }

    // MARK: - Viewer

    public func document(_ session: WebSession, id: String) throws -> HTML {
        let profile = try profile(session)
        let store = DocumentStore(vault: vault, profile: profile)
        guard let document = try? store.get(id), document.id == id else { throw NotFound() }
        let text = try store.text(of: document)
        let ocr = try vault.database.read { db in try DocumentStore.ocrPages(db, documentID: document.id) }
        let results = try store.labResultCount(document.id)
        let byPage = Dictionary(text.map { ($0.page, $0.text) }, uniquingKeysWith: { first, _ in first })
        let ocrByPage = Dictionary(ocr.map { ($0.page, $0) }, uniquingKeysWith: { first, _ in first })
        let pages: [HTML] = (1...max(1, document.pageCount)).map { number in
            let pageText = byPage[number] ?? ""
            let reading: HTML = ocrByPage[number].map { page in
                let confidence = page.confidence.map { " \(Int($0.rounded()))% confidence" } ?? ""
                let status: String
                switch page.status {
                case .read: status = "read by OCR"
                case .lowConfidence: status = "read by OCR, low confidence"
                case .empty: status = "OCR found no text"
                case .failed: status = "OCR failed" + (page.detail.map { ": " + $0 } ?? "")
                }
                return HTML("<p class=\"muted\">\(status)\(confidence)</p>")
            } ?? .empty
            return """
            <section class="page" id="page-\(number)" aria-label="Page \(number)">
            <figure><img src="/documents/\(document.id)/pages/\(number)?size=full" loading="\(number <= 2 ? "eager" : "lazy")" alt="Page \(number) of the document; its text is beside it" width="700" height="990">
            <figcaption>Page \(number) of \(document.pageCount)</figcaption></figure>
            <div class="page-text"><h2>Text of page \(number)</h2>\(reading)
            \(pageText.isEmpty ? HTML("<p class=\"muted\">No text on this page.</p>") : HTML("<pre>\(pageText)</pre>"))</div>
            </section>
            """
        }
        let guessed = document.typeSource == "guessed" || (document.date != nil && document.dateSource != "user")
        let facts: [(String, String?)] = [
            ("Type", document.type + (document.typeSource == "guessed" ? " (guessed from the text)" : "")),
            ("Date", document.date.map { $0 + (document.dateSource == "user" ? "" : document.dateSource == "metadata" ? " (from the PDF's creation date)" : " (found in the text)") }),
            ("Provider", document.provider),
            ("Tags", document.tags.isEmpty ? nil : document.tags.joined(separator: ", ")),
            ("Note", document.note),
            ("File", "\(document.fileName) (\(document.mediaType))"),
            ("Text", document.outcomeDescription),
            ("Lab results", results == 0 ? nil : "\(results) read from it"),
            ("Added", document.addedAt),
        ]
        let factRows: [HTML] = facts.compactMap { name, value in value.map { HTML("<dt>\(name)</dt><dd>\($0)</dd>") } }
        let typeOptions: [HTML] = DocumentType.allCases.map { type in
            "<option value=\"\(type.rawValue)\"\(type.rawValue == document.type ? " selected" as HTML : .empty)>\(type.rawValue)</option>"
        }
        let confirm: HTML = guessed ? """
            <form method="post" action="/documents/\(document.id)/edit" class="inline">
            <input type="hidden" name="csrf" value="\(session.csrf)">
            <input type="hidden" name="confirm" value="1">
            <button type="submit">The type and date are right</button>
            </form>
            """ : .empty
        let body: HTML = """
        <p><a href="/documents">← All documents</a></p>
        <h1>\(document.title)</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <dl class="facts">\(factRows)</dl>
        <div class="actions">
        \(confirm)
        \(document.type == "lab" || results > 0 ? HTML("<a class=\"button\" href=\"/documents/\(document.id)/labs\">Read the lab results</a>") : .empty)
        <a class="button secondary" href="/documents/\(document.id)/original" download>Download the original</a>
        <a class="button secondary" href="/documents/\(document.id)/remove">Remove…</a>
        </div>
        <details class="card edit"\(guessed ? " open" as HTML : .empty)>
        <summary>Correct the title, type, date, tags or note</summary>
        <form method="post" action="/documents/\(document.id)/edit" class="stacked">
        <input type="hidden" name="csrf" value="\(session.csrf)">
        <label for="e-title">Title</label><input id="e-title" name="title" value="\(document.title)" required maxlength="300">
        <label for="e-type">Type</label><select id="e-type" name="type">\(typeOptions)</select>
        <label for="e-date">Date</label><input id="e-date" name="date" type="date" value="\(document.date ?? "")">
        <label for="e-tags">Tags</label><input id="e-tags" name="tags" value="\(document.tags.joined(separator: ", "))" aria-describedby="e-tags-help">
        <p id="e-tags-help" class="muted">Separated by commas, like: insurance, 2025</p>
        <label for="e-provider">Provider</label><input id="e-provider" name="provider" value="\(document.provider ?? "")">
        <label for="e-note">Note</label><textarea id="e-note" name="note" rows="3">\(document.note ?? "")</textarea>
        <button type="submit">Save</button>
        </form>
        </details>
        \(pages)
        """
        return try layout(.documents, session, profile, path: "/documents/\(document.id)").page(body)
    }

    /// Saves the viewer's corrections (or confirms the guesses as they are); a field that is
    /// not right is said on the page, and nothing is saved.
    public func editDocument(_ session: WebSession, id: String, form: [String: String]) throws {
        let profile = try profile(session)
        let store = DocumentStore(vault: vault, profile: profile)
        guard let document = try? store.get(id), document.id == id else { throw NotFound() }
        var changes = DocumentStore.Changes()
        if form["confirm"] != nil {
            changes.type = document.type
            if let date = document.date { changes.date = date }
        } else {
            changes.title = form["title"]
            changes.type = form["type"]
            changes.date = form["date"]
            changes.provider = form["provider"]
            changes.note = form["note"]
            let wanted = Set((form["tags"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
            changes.addTags = wanted.subtracting(document.tags).sorted()
            changes.removeTags = Set(document.tags).subtracting(wanted).sorted()
        }
        do {
            try store.edit(document.id, changes)
            session.flash(form["confirm"] != nil ? "Kept the type and date as they are." : "Saved.")
        } catch let error as PHRError {
            session.flash("Not saved. " + Self.words(error), isError: true)
        }
    }

    /// Asks before a document is removed (a GET changes nothing).
    public func confirmRemoval(_ session: WebSession, id: String) throws -> HTML {
        let profile = try profile(session)
        let store = DocumentStore(vault: vault, profile: profile)
        guard let document = try? store.get(id), document.id == id else { throw NotFound() }
        let results = try store.labResultCount(document.id)
        let body: HTML = """
        <h1>Remove this document?</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <p><strong>\(document.title)</strong> (\(document.type), \(document.date ?? "undated"), \(document.pageCount) \(document.pageCount == 1 ? "page" : "pages")): its file, its text and its search entries go from the vault. This cannot be undone, except from a backup.</p>
        <form method="post" action="/documents/\(document.id)/remove" class="stacked">
        <input type="hidden" name="csrf" value="\(session.csrf)">
        \(results == 0 ? HTML.empty : HTML("<p><input type=\"checkbox\" id=\"with-results\" name=\"with_results\" value=\"1\"> <label for=\"with-results\">Also remove the \(results) lab \(results == 1 ? "result" : "results") read from it (kept otherwise)</label></p>"))
        <div class="actions">
        <button type="submit" class="danger">Remove</button>
        <a class="button secondary" href="/documents/\(document.id)">Keep it</a>
        </div>
        </form>
        """
        return try layout(.documents, session, profile, path: "/documents/\(document.id)").page(body)
    }

    public func removeDocument(_ session: WebSession, id: String, withResults: Bool) throws {
        let profile = try profile(session)
        let store = DocumentStore(vault: vault, profile: profile)
        guard let document = try? store.get(id), document.id == id else { throw NotFound() }
        let (removed, _, labResults) = try store.removeReporting(document.id, withLabResults: withResults)
        images.remove(document: removed.sha256)
        var words = "Removed \(removed.title)."
        if labResults > 0 {
            words += withResults ? " Its \(labResults) lab results went with it." : " The \(labResults) lab results read from it stay."
        }
        session.flash(words)
    }
}
