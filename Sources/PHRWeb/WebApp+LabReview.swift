import Foundation
import PHRService

/// A lab extraction kept with the session between reading a report and saving what was kept:
/// the same rows as `phr lab extract` reads, reviewed as a form. Nothing is saved before
/// **Save the kept results**.
struct LabReviewState: Sendable {
    var documentID: String
    var extraction: LabExtraction
    var profileID: Int64
    /// A new one each reading: a form from an earlier reading (another tab, before "read again")
    /// is refused rather than applied to rows it did not show.
    var token: String
}

/// The review of a lab report's rows as a form: each row kept or dropped, its value, unit,
/// range and flag corrected where the reader misread them, unsure rows marked with the reason.
extension WebApp {
    /// Reads the report `id`'s result rows (in the sandboxed workers, as `phr lab extract`) and
    /// shows them for review.
    public func readLabs(_ session: WebSession, id: String) throws {
        let profile = try profile(session)
        let time = clock()
        let documents = DocumentStore(vault: vault, profile: profile)
        guard let found = try? documents.get(id), found.id == id else { throw NotFound() }
        let environment = ProcessEnvironment.variables
        let importer = DocumentImporter(vault: vault, profile: profile, extractor: TextExtractor(limits: try ExtractionLimits.fromEnvironment(environment)))
        importer.ocrLanguages = try DocumentSettings.ocrLanguages(vault, environment: environment)
        let layouts = try importer.layouts(of: found)
        let patient = LabPatient(try MedicalIDStore(vault: vault, profile: profile, time: time).get())
        var extraction = LabExtraction.read(documentID: found.id, pages: layouts.map { ($0.page, $0.words) }, documentDate: found.date, patient: patient)
        if layouts.contains(where: { $0.source == .ocr }), !extraction.rows.isEmpty || found.type == "lab" {
            let tables = try importer.tableLayouts(of: found)
            extraction = LabExtraction.better(extraction, LabExtraction.read(documentID: found.id, pages: tables.map { ($0.page, $0.words) },
                                                                             documentDate: found.date, patient: patient))
        }
        var random = [UInt8](repeating: 0, count: 16)
        for index in random.indices { random[index] = UInt8.random(in: 0...255) }
        session.labReview = LabReviewState(documentID: found.id, extraction: extraction, profileID: profile.id,
                                           token: random.map { String(format: "%02x", $0) }.joined())
    }

    public func labReview(_ session: WebSession, id: String) throws -> HTML {
        let profile = try profile(session)
        guard let state = session.labReview, state.documentID == id, state.profileID == profile.id,
              let document = try? DocumentStore(vault: vault, profile: profile).get(id), document.id == id else { throw NotFound() }
        let refused = session.takeForm("lab-review")
        let extraction = state.extraction
        func value(_ name: String, _ initial: String) -> String { refused?.values[name] ?? initial }
        let rows: [HTML] = extraction.rows.enumerated().map { index, row in
            let number = index + 1
            let keep = refused.map { $0.values["keep-\(number)"] == "1" } ?? !row.resultUnread
            let invalid = refused?.field == "row-\(number)"
            let attributes: HTML = invalid ? " aria-invalid=\"true\" aria-describedby=\"lab-review-error\"" : .empty
            let flag = row.flag ?? row.valueNumber.flatMap { LabFlag.computed($0, range: row.range) }
            let flagChoice = value("flag-\(number)", row.flag?.rawValue ?? "")
            let flagOptions: [HTML] = ([("", flag.map { "as the range implies (\($0.words))" } ?? "none")] + LabFlag.allCases.map { ($0.rawValue, $0.words) })
                .map { option in "<option value=\"\(option.0)\"\(option.0 == flagChoice ? " selected" as HTML : .empty)>\(option.1)</option>" }
            let unsure: HTML = row.unsure.map { "<br><span class=\"badge badge-warn\"><span aria-hidden=\"true\">?</span> unsure</span> <span class=\"muted\">\($0)</span>" } ?? .empty
            return """
            <tr class="\(row.unsure != nil ? "unsure" : "")"><td><input type="checkbox" id="keep-\(number)" name="keep-\(number)" value="1"\(keep ? " checked" as HTML : .empty)>\
            <label for="keep-\(number)" class="visually-hidden">Keep \(row.name), row \(number) (page \(row.page))</label></td>
            <th scope="row">\(row.name)<br><span class="muted">page \(row.page)\(row.panel.map { ", " + $0 } ?? "")</span>\(unsure)</th>
            <td><input name="value-\(number)" aria-label="Result of \(row.name)" value="\(value("value-\(number)", row.valueNumber.map(Observation.number) ?? row.valueText ?? ""))" size="8"\(attributes)></td>
            <td><input name="unit-\(number)" aria-label="Unit of \(row.name)" value="\(value("unit-\(number)", row.unit ?? ""))" size="8"\(attributes)></td>
            <td><input name="range-\(number)" aria-label="Reference range of \(row.name)" value="\(value("range-\(number)", row.range?.text ?? row.range?.listed ?? ""))" size="10"\(attributes)></td>
            <td><select name="flag-\(number)" aria-label="Flag of \(row.name)">\(flagOptions)</select></td></tr>
            """
        }
        let error: HTML = refused.map { "<p class=\"field-error\" id=\"lab-review-error\" role=\"alert\"><span aria-hidden=\"true\">! </span>\($0.message)</p>" } ?? .empty
        let body: HTML = """
        <p class="crumbs"><a href="/documents/\(document.id)">\(document.title)</a></p>
        <h1>Lab results read from this report</h1>
        <p class="whose-line">Profile: \(profile.name) · nothing is saved until you save</p>
        \(extraction.rows.isEmpty ? HTML("""
        <p>No result rows were found in this document. \(document.ocr == .waiting ? "Its pages are waiting for OCR; read them first." : "Type results in on the lab results screen.")</p>
        """) : HTML("""
        <form method="post" action="/documents/\(document.id)/labs" class="fields lab-review" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">\
        <input type="hidden" name="reading" value="\(state.token)">
        \(error)
        <div class="field"><label for="lab-review-collected">Collected on</label><span class="muted field-hint" id="lab-review-collected-hint">the day the sample was taken, as the report says</span>
        <input id="lab-review-collected" name="collected" type="date" value="\(value("collected", extraction.collected ?? ""))"\
        \(["collected", "date"].contains(refused?.field ?? "") ? " aria-invalid=\"true\" aria-describedby=\"lab-review-error lab-review-collected-hint\"" as HTML : " aria-describedby=\"lab-review-collected-hint\"")></div>
        <div class="scroll" tabindex="0" role="region" aria-label="The rows read"><table class="records review">
        <caption>\(extraction.rows.count) rows; a misread result starts dropped: correct it and tick it to keep it</caption>
        <thead><tr><th scope="col">Keep</th><th scope="col">Test</th><th scope="col">Result</th><th scope="col">Unit</th><th scope="col">Range</th><th scope="col">Flag</th></tr></thead>
        <tbody>\(rows)</tbody></table></div>
        <div class="actions"><button type="submit">Save the kept results</button> <a href="/documents/\(document.id)">Leave without saving</a></div>
        </form>
        """))
        """
        return try layout(.documents, session, profile, path: "/documents/\(document.id)/labs").page(body)
    }

    /// Applies the form's corrections and saves the kept rows; the page to go to next.
    public func saveLabReview(_ session: WebSession, id: String, form: [String: String]) -> String {
        guard let state = session.labReview, state.documentID == id, (try? profile(session).id) == state.profileID else {
            session.flash("This report's rows are no longer in memory; read them again. Nothing was saved.", isError: true)
            return "/documents/\(WebServer.plainID(id))"
        }
        guard form["reading"] == state.token else {
            session.flash("This form shows an earlier reading of the report (it was read again since); nothing was saved. Check the rows below and save again.", isError: true)
            return "/documents/\(WebServer.plainID(id))/labs"
        }
        var extraction = state.extraction
        var kept: [Int] = []
        for index in extraction.rows.indices {
            let number = index + 1
            var row = extraction.rows[index]
            func changed(_ name: String, _ current: String?) -> String? {
                guard let typed = form["\(name)-\(number)"]?.trimmingCharacters(in: .whitespaces) else { return nil }
                return typed == (current ?? "") ? nil : typed
            }
            do {
                try row.edit(value: changed("value", row.valueNumber.map(Observation.number) ?? row.valueText),
                             unit: changed("unit", row.unit), range: changed("range", row.range?.text ?? row.range?.listed),
                             flag: changed("flag", row.flag?.rawValue))
            } catch {
                session.keepForm(FormState(name: "lab-review", values: form.filter { $0.key != "csrf" }, field: "row-\(number)",
                                           message: "Row \(number) (\(row.name)): " + Self.words(error)))
                return "/documents/\(WebServer.plainID(id))/labs"
            }
            extraction.rows[index] = row
            if form["keep-\(number)"] == "1" { kept.append(index) }
        }
        if let collected = form["collected"]?.trimmingCharacters(in: .whitespaces), !collected.isEmpty {
            guard CalendarDate(collected) != nil else {
                session.keepForm(FormState(name: "lab-review", values: form.filter { $0.key != "csrf" }, field: "collected",
                                           message: "“Collected on”: '\(collected)' is not a date."))
                return "/documents/\(WebServer.plainID(id))/labs"
            }
            extraction.collected = collected
        }
        do {
            let profile = try profile(session)
            let accepted = try LabStore(vault: vault, profile: profile, time: clock()).accept(extraction, indices: kept, requireDocument: true)
            if session.labReview?.token == state.token { session.labReview = nil }
            session.flash("Saved \(accepted.added.count) \(accepted.added.count == 1 ? "result" : "results") from this report"
                + (accepted.alreadyThere.isEmpty ? "." : "; \(accepted.alreadyThere.count) were saved from it before and were left alone."))
            return accepted.added.first.map { "/labs/\($0.id)" } ?? "/labs"
        } catch {
            session.keepForm(FormState(name: "lab-review", values: form.filter { $0.key != "csrf" }, error: error, labels: ["date": "Collected on"]))
            return "/documents/\(WebServer.plainID(id))/labs"
        }
    }
}
