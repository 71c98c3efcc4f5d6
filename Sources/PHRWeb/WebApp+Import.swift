import Foundation
import PHRService

/// Importing another system's records from the browser: a FHIR bundle, a C-CDA document, an
/// Apple Health export, a Google Fit Takeout archive, an iCalendar file or a phr export, read
/// from the upload's memory file exactly as `phr import FILE` reads a file (the XML and archives
/// in the sandboxed reader), into the profile shown. The report is a page: what was added,
/// updated or already there per kind and per source type, what was skipped and why.
extension WebApp {
    /// What the last import of a session said, for the page after the upload.
    struct ImportOutcome: Sendable {
        var file: String
        var report: ImportReport?
        /// The import was refused as a whole (a file phr cannot read): why, in words.
        var refusal: String?
    }

    static let importLabels = ["medical_id": "Medical ID", "medical_id_notes": "Medical ID notes (devices, advance directives)",
                               "procedures": "Procedures", "family_history": "Family history", "medications": "Medications", "doses": "Doses", "appointments": "Appointments",
                               "contacts": "Contacts", "allergies": "Allergies", "conditions": "Conditions", "immunizations": "Immunizations",
                               "observations": "Observations", "log_entries": "Health log entries", "goals": "Goals",
                               "reminders": "Reminders", "health_settings": "Health log settings"]

    /// The form on the health record's screen.
    func importForm(_ session: WebSession, profile: Profile) -> HTML {
        """
        <section class="card" aria-labelledby="import-heading"><h2 id="import-heading">Import from another system</h2>
        <form method="post" action="\(WebServer.importPath)" enctype="multipart/form-data" class="fields">
        <input type="hidden" name="csrf" value="\(session.csrf)"><input type="hidden" name="profile" value="\(String(profile.id))">
        <div class="field"><label for="import-file">File</label><span class="muted field-hint" id="import-file-hint">a FHIR bundle (.json), a C-CDA document (.xml), \
        Apple Health's export.zip, a Google Takeout .zip, a calendar (.ics) or a phr export; at most \(UploadReader.largestRequest >> 20) MB</span>
        <input id="import-file" name="file" type="file" required aria-describedby="import-file-hint"></div>
        <div class="field"><label><input type="checkbox" name="dry_run" value="1"> Only show what would be imported</label></div>
        <p><button type="submit">Import</button></p>
        </form></section>
        """
    }

    /// Imports the one uploaded file into the session's profile; keeps what became of it.
    func importUpload(_ session: WebSession, files: [UploadedFile], dryRun: Bool, profileID: String?) {
        guard files.count == 1, let file = files.first else {
            session.lastImport = ImportOutcome(file: files.first?.name ?? "", report: nil,
                                               refusal: files.isEmpty ? "No file was chosen." : "Import one file at a time.")
            return
        }
        let name = file.name.isEmpty ? "the file" : file.name
        do {
            let profile = try profile(session)
            // The page the file came from showed this profile: another one was chosen since.
            guard profileID == String(profile.id) else {
                session.lastImport = ImportOutcome(file: name, report: nil,
                                                   refusal: "The page you imported from showed another profile's records; nothing was imported. Import again from this page.")
                return
            }
            let report = try uploads.withLock {
                try RecordImport.run(input: file.path, vault: vault, profileName: profile.name, time: clock(), dryRun: dryRun)
            }
            session.lastImport = ImportOutcome(file: name, report: report, refusal: nil)
        } catch {
            // Messages name the file by the memory file it was read from: say its name instead.
            let words = Self.words(error).replacingOccurrences(of: file.path.display, with: name)
            session.lastImport = ImportOutcome(file: name, report: nil, refusal: words)
        }
    }

    /// The report of the session's last import, as a page.
    public func importReport(_ session: WebSession) throws -> HTML {
        let profile = try profile(session)
        guard let outcome = session.lastImport else { throw NotFound() }
        var body: [HTML] = ["<p class=\"crumbs\"><a href=\"/records\">Health record</a></p>"]
        guard let report = outcome.report else {
            body.append("""
            <h1>Not imported</h1>
            <p class="flash flash-error" role="alert"><span class="flash-mark" aria-hidden="true">!</span> \(outcome.file): \(outcome.refusal ?? "")</p>
            <p>Nothing was changed.</p>
            """)
            return try layout(.records, session, profile, path: "/records/import").page(HTML(body))
        }
        let verb = report.dryRun ? "Would import" : "Imported"
        body.append("""
        <h1>\(verb) \(outcome.file)</h1>
        <p class="whose-line">\(report.format), into the profile \(report.profile)\(report.createdProfile ? " (made for it)" : "")\
        \(report.dryRun ? ". Nothing was changed: this is what an import would do." : "")</p>
        """)
        var rows: [HTML] = []
        for kind in ImportReport.kinds {
            let added = report.added[kind] ?? 0, updated = report.updated[kind] ?? 0, unchanged = report.unchanged[kind] ?? 0
            guard added + updated + unchanged > 0 else { continue }
            rows.append("""
            <tr><th scope="row">\(Self.importLabels[kind] ?? kind)</th><td class="number">\(added)</td><td class="number">\(updated)</td><td class="number">\(unchanged)</td></tr>
            """)
        }
        body.append(rows.isEmpty ? "<p>Nothing to import.</p>" : """
        <div class="scroll" tabindex="0" role="region" aria-label="What was imported"><table class="records">
        <caption>Per kind of record</caption>
        <thead><tr><th scope="col">Kind</th><th scope="col">Added</th><th scope="col">Updated</th><th scope="col">Already there</th></tr></thead>
        <tbody>\(rows)</tbody></table></div>
        """)
        let types = (report.types ?? []).filter { $0.records > 0 }
        if !types.isEmpty {
            let typeRows: [HTML] = types.map { type in
                var name = type.type
                for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier", "HKWorkoutTypeIdentifier"]
                where name.hasPrefix(prefix) { name = String(name.dropFirst(prefix.count)) }
                var parts = ["\(type.added) added"]
                if type.updated > 0 { parts.append("\(type.updated) updated") }
                if type.alreadyThere > 0 { parts.append("\(type.alreadyThere) already there") }
                if type.summed > 0 { parts.append("\(type.summed) summed into nights") }
                if type.duplicates > 0 { parts.append("\(type.duplicates) duplicate\(type.duplicates == 1 ? "" : "s") \(type.duplicateNote ?? "of a higher-priority source")") }
                if type.skipped > 0 { parts.append("\(type.skipped) skipped") }
                if type.rejected > 0 { parts.append("\(type.rejected) refused") }
                return "<tr><th scope=\"row\">\(name.isEmpty ? "Workout" : name)</th><td class=\"number\">\(type.records)</td><td>\(parts.joined(separator: ", "))</td></tr>"
            }
            body.append("""
            <div class="scroll" tabindex="0" role="region" aria-label="By source type"><table class="records">
            <caption>By the source's type: every record read is counted once</caption>
            <thead><tr><th scope="col">Type</th><th scope="col">Records</th><th scope="col">What became of them</th></tr></thead>
            <tbody>\(typeRows)</tbody></table></div>
            """)
        }
        func grouped(_ skips: [ImportReport.Skip], heading: String) -> HTML {
            guard !skips.isEmpty else { return .empty }
            var groups: [(type: String, reason: String, entries: [String])] = []
            var index: [String: Int] = [:]
            for skip in skips {
                let reason = skip.reason.description
                let key = skip.type + "\u{0}" + reason
                if let at = index[key] { groups[at].entries.append(skip.entry) } else {
                    index[key] = groups.count
                    groups.append((skip.type, reason, [skip.entry]))
                }
            }
            let items: [HTML] = groups.map { group in
                let which = group.entries.count == 1 ? group.entries[0] : "\(group.entries.count)×"
                return "<li><strong>\(which)</strong> \(group.type): \(group.reason)</li>"
            }
            return "<section class=\"card\"><h2>\(heading) (\(skips.count))</h2><ul>\(items)</ul></section>"
        }
        body.append(grouped(report.skipped.filter { !$0.rejected }, heading: "Skipped"))
        body.append(grouped(report.skipped.filter(\.rejected), heading: "Refused as bad data"))
        body.append(grouped(report.repaired, heading: "Kept with a repair"))
        if !report.notes.isEmpty { body.append("<ul class=\"notes\">\(report.notes.map { HTML("<li>\($0)</li>") })</ul>") }
        body.append("<p><a href=\"/timeline?kind=imported\">The imports on the timeline</a> · <a href=\"/records\">Back to the health record</a></p>")
        return try layout(.records, session, profile, path: "/records/import").page(HTML(body))
    }
}
