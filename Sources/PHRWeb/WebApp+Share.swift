import Foundation
import PHRService

/// What the share screen was asked for: kept with the session between the preview and the
/// downloads, so what is downloaded is what was previewed.
struct ShareChoices: Sendable, Equatable {
    var recipient = ""
    var sections = Set(ShareSection.allCases)
    /// "recent": the last 12 months' documents but bills (`phr share`'s default); "chosen": the
    /// documents ticked.
    var documentMode = "recent"
    var documents: [String] = []
    var paper: Paper = .a4
    var ips = true
    /// The profile the choices were made for: a switch of profile drops them.
    var profileID: Int64 = 0
    /// Whether the choices passed the checks (and may be previewed and downloaded).
    var valid = false

    /// The request these choices make (`phr share`'s, with the same checks).
    func request() -> ShareRequest {
        var request = ShareRequest(recipient: recipient, output: "bundle.pdf")
        request.sections = sections
        if documentMode == "chosen" {
            request.documentIDs = documents
            // Nothing ticked: no documents, rather than the default year of them.
            if documents.isEmpty { request.sections.remove(.documents) }
        }
        request.paper = paper
        request.fhirOutput = ips ? "bundle-ips.json" : nil
        request.generator = "phr \(PHRVersion.string)"
        return request
    }
}

/// The share screen: choose the recipient, the sections and the documents, see what will go
/// out, then download the bundle (the PDF `phr share` writes, and its HL7 IPS) drawn in the
/// sandbox into memory: nothing of it is written to a disk before the browser saves it.
extension WebApp {
    static let shareLabels = ["for": "For", "include": "Sections", "doc": "Documents"]

    static func sectionTitle(_ section: ShareSection) -> String {
        switch section {
        case .summary: return "Patient summary"
        case .allergies: return "Allergies"
        case .medications: return "Medications"
        case .conditions: return "Conditions"
        case .immunizations: return "Immunizations"
        case .procedures: return "Procedures"
        case .familyHistory: return "Family history"
        case .results: return "Results (latest of each test)"
        case .appointments: return "Upcoming appointments"
        case .contacts: return "Emergency contacts"
        case .documents: return "Documents"
        }
    }

    public func share(_ session: WebSession) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        // Read once: the choices of this profile, else the defaults.
        let kept = session.shareChoices.flatMap { $0.profileID == profile.id ? $0 : nil }
        let choices = kept ?? ShareChoices(paper: Paper.preferred(environment: ProcessEnvironment.variables), profileID: profile.id)
        let state = session.takeForm("share")
        let fields = FormFields(form: "share", state: state)
        let documents = try DocumentStore(vault: vault, profile: profile).list(DocumentStore.Filter(limit: 100))
        let sectionBoxes: [HTML] = ShareSection.allCases.map { section in
            let checked: HTML = choices.sections.contains(section) ? " checked" : ""
            return "<label><input type=\"checkbox\" name=\"section-\(section.rawValue)\" value=\"1\"\(checked)> \(Self.sectionTitle(section))</label>"
        }
        let documentBoxes: [HTML] = documents.map { document in
            let checked: HTML = choices.documentMode == "chosen" && choices.documents.contains(document.id) ? " checked" : ""
            return """
            <li><label><input type="checkbox" name="doc-\(document.id)" value="1"\(checked)> \(document.title) \
            <span class="muted">\(document.date ?? "undated") · \(document.type) · \(document.pageCount) \(document.pageCount == 1 ? "page" : "pages")</span></label></li>
            """
        }
        func mode(_ value: String, _ words: String) -> HTML {
            "<label><input type=\"radio\" name=\"documents\" value=\"\(value)\"\(choices.documentMode == value ? " checked" as HTML : .empty)> \(words)</label>"
        }
        let (forError, forAttributes) = fields.error("for", hint: true)
        let form: HTML = """
        <form method="post" action="/share/preview" class="fields share-form" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">
        \(fields.formError)
        <div class="field"><label for="share-for">For</label><span class="muted field-hint" id="share-for-hint">printed on the cover and every page: Dr Lee, Riverside Clinic</span>
        <input id="share-for" name="for" type="text" value="\(fields.value("for", choices.recipient))" autocomplete="off" required\(forAttributes)>\(forError)</div>
        <fieldset class="choice"><legend>Sections</legend>\(sectionBoxes)</fieldset>
        <fieldset class="choice"><legend>Which documents</legend>
        \(mode("recent", "The last 12 months' (not bills)")) \(mode("chosen", "Only those ticked below"))
        </fieldset>
        \(documentBoxes.isEmpty ? HTML("<p class=\"muted\">No documents in the vault.</p>") : HTML("""
        <details class="figures"\(choices.documentMode == "chosen" ? " open" : "")><summary>The documents (the newest \(documents.count))</summary>
        <ul class="plain doc-choices">\(documentBoxes)</ul></details>
        """))
        \(fields.select("paper", label: "Paper", options: Paper.allCases.map { ($0.rawValue, $0 == .a4 ? "A4" : "US Letter") }, value: choices.paper.rawValue))
        <div class="field"><label><input type="checkbox" name="ips" value="1"\(choices.ips ? " checked" as HTML : .empty)> Also the summary as an HL7 IPS file (FHIR), for a clinic's system</label></div>
        <p><button type="submit">See what will go out</button></p>
        </form>
        """

        // What will go out, when a recipient has been given.
        var preview: HTML = .empty
        if choices.valid, state == nil {
            let request = choices.request()
            let content: ShareContent
            do {
                content = try ShareContent.load(vault: vault, profile: profile, request: request, time: time)
                    .limited(to: ShareSection.allCases.filter { request.sections.contains($0) })
            } catch {
                // A document removed since, or one that cannot be read: said where the preview goes.
                preview = """
                <section class="card share-preview" aria-labelledby="preview-heading"><h2 id="preview-heading">Nothing can go out yet</h2>
                <p class="field-error" role="alert"><span aria-hidden="true">! </span>\(Self.words(error))</p><p>Change the choices and look again.</p></section>
                """
                return try sharePage(session, profile: profile, preview: preview, form: form)
            }
            func line(_ section: ShareSection, _ count: Int, _ noun: String) -> HTML? {
                guard request.sections.contains(section) else { return nil }
                let plural = noun.hasSuffix("y") ? noun.dropLast() + "ies" : noun + "s"
                return "<li>\(Self.sectionTitle(section)): \(count == 0 ? "none" : "\(count) \(count == 1 ? noun : plural)")</li>"
            }
            let lines: [HTML] = [
                request.sections.contains(.summary) ? HTML("<li>Patient summary: \(content.patientName)</li>") : nil,
                line(.allergies, content.allergies.count, "allergy"),
                line(.medications, content.currentMedications.count, "current medication"),
                line(.conditions, content.conditions.count, "condition"),
                line(.procedures, content.procedures.count, "procedure"),
                line(.familyHistory, content.familyHistory.count, "relative's condition"),
                line(.immunizations, content.immunizations.count, "immunization"),
                line(.results, content.results.count, "result"),
                line(.appointments, content.appointments.count, "appointment"),
                line(.contacts, content.emergencyContacts.count, "contact"),
            ].compactMap { $0 }
            let documentLines: [HTML] = content.documents.map { document in
                "<li>\(document.title) <span class=\"muted\">\(document.date ?? "undated") · \(document.pageCount) \(document.pageCount == 1 ? "page" : "pages")</span></li>"
            }
            let skipped: [HTML] = content.skippedDocuments.map { HTML("<li>\($0.title): <span class=\"muted\">\($0.reason)</span></li>") }
            let pages = content.documents.reduce(0) { $0 + $1.pageCount }
            preview = """
            <section class="card share-preview" aria-labelledby="preview-heading"><h2 id="preview-heading">What will go to \(request.recipient)</h2>
            <ul>\(lines)</ul>
            \(request.sections.contains(.documents) ? HTML("""
            <h3>\(content.documents.count) \(content.documents.count == 1 ? "document" : "documents"), \(pages) \(pages == 1 ? "page" : "pages")</h3>
            \(documentLines.isEmpty ? HTML("<p class=\"muted\">None.</p>") : HTML("<ol>\(documentLines)</ol>"))
            \(skipped.isEmpty ? HTML.empty : HTML("<p>Left out:</p><ul>\(skipped)</ul>"))
            """) : HTML("<p>No documents.</p>"))
            <p class="muted">Every page says it is confidential and for \(request.recipient). The file is made here, in a sandbox, and saved where your browser saves downloads: keep it as you would the paper.</p>
            <form method="post" action="/share/pdf" class="fields share-pdf"><input type="hidden" name="csrf" value="\(session.csrf)">
            <div class="field"><label for="share-password">Password for the PDF (optional)</label>\
            <span class="muted field-hint" id="share-password-hint">the PDF then opens only with it (AES-256): tell it to \(request.recipient) another way, by phone or in person</span>
            <input id="share-password" name="password" type="password" autocomplete="new-password" aria-describedby="share-password-hint"></div>
            <p><button type="submit">Download the PDF</button></p></form>
            <div class="actions">
            \(request.fhirOutput != nil ? HTML("<form method=\"post\" action=\"/share/ips\" class=\"inline\"><input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\"><button type=\"submit\" class=\"secondary\">Download the IPS (FHIR JSON)</button></form>") : .empty)
            </div></section>
            """
        }
        return try sharePage(session, profile: profile, preview: preview, form: form)
    }

    private func sharePage(_ session: WebSession, profile: Profile, preview: HTML, form: HTML) throws -> HTML {
        let body: HTML = """
        <h1>Share</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <p>One PDF for a clinician: a cover, the summary of the records chosen, then the documents, with page numbers and bookmarks. As <code>phr share</code> makes it.</p>
        <div class="cards">\(preview)<section class="card" aria-labelledby="share-form-heading"><h2 id="share-form-heading">What to share</h2>\(form)</section></div>
        """
        return try layout(.share, session, profile).page(body)
    }

    /// Keeps the share form's choices after `phr share`'s checks; a refused form is said beside its field.
    public func previewShare(_ session: WebSession, form: [String: String]) {
        var choices = ShareChoices()
        choices.recipient = (form["for"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        choices.sections = Set(ShareSection.allCases.filter { form["section-\($0.rawValue)"] == "1" })
        choices.documentMode = form["documents"] == "chosen" ? "chosen" : "recent"
        choices.documents = form.keys.filter { $0.hasPrefix("doc-") && form[$0] == "1" }.map { String($0.dropFirst(4)) }.sorted()
        choices.paper = Paper(rawValue: form["paper"] ?? "") ?? .a4
        choices.ips = form["ips"] == "1"
        do {
            let profile = try profile(session)
            choices.profileID = profile.id
            try choices.request().validate()
            choices.valid = true
        } catch {
            // The choices stay as made (so a fix of one field loses none of the others), not valid.
            choices.valid = false
            session.keepForm(FormState(name: "share", values: ["for": form["for"] ?? ""], error: error, labels: Self.shareLabels))
        }
        session.shareChoices = choices
    }

    /// The bundle the session's choices describe, drawn into memory: the PDF, or its IPS file.
    /// `password`, when given, encrypts the PDF (`phr share --password-file`'s checks: a refused
    /// password is a `ShareError.passwordFile` whose reason says why).
    public func shareDownload(_ session: WebSession, ips: Bool, password: String? = nil) throws -> (name: String, type: String, bytes: [UInt8]) {
        let profile = try profile(session)
        guard let choices = session.shareChoices, choices.valid, choices.profileID == profile.id else { throw NotFound() }
        let time = clock()
        let day = time.today().description
        if ips {
            return ("phr-ips-\(day).json", "application/fhir+json", try ShareBundle.ipsDocument(choices.request(), vault: vault, profile: profile, time: time))
        }
        var request = choices.request()
        if let password, !password.isEmpty {
            request.password = SecretBytes(copying: Array(password.utf8))
            request.passwordFile = "password"
        }
        let rendered = try ShareBundle.render(request, withIPS: false, vault: vault, profile: profile, time: time)
        return ("phr-bundle-\(day).pdf", "application/pdf", rendered.pdf)
    }
}
