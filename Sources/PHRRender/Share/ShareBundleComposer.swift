import Foundation
import PHRModel
import PHRTypesetting

/// Lays out a share bundle: the cover, the summary sections, the manifest, then every page of
/// every included document, with an outline entry for each section and document.
///
/// `PaginatedRenderer` calls `compose` twice (a counting pass, then the real one); everything
/// here depends only on the content, so both passes lay out the same pages, and the second
/// can print page numbers in the contents list from the first pass's bookmarks.
final class ShareBundleComposer {
    let content: ShareContent
    let options: ShareLayoutOptions
    let time: TimeContext
    let documents: [BundleDocument]
    let footer: BundleFooter
    /// The summary sections to draw, in bundle order (documents excluded: they come last).
    let sections: [ShareSection]
    /// Set by each pass: the bundle page each document starts on, and the pages before the first.
    var documentFirstPages: [Int] = []
    var summaryPageCount = 0

    init(content: ShareContent, options: ShareLayoutOptions, time: TimeContext, documents: [BundleDocument]) {
        self.content = content
        self.options = options
        self.time = time
        self.documents = documents
        // Procedures and family history, like the IPS's optional sections, are printed when
        // there is something in them: "none recorded" there tells a clinician nothing.
        sections = ShareSection.allCases.filter { section in
            options.sections.contains(section)
                && !(section == .procedures && content.procedures.isEmpty) && !(section == .familyHistory && content.familyHistory.isEmpty)
        }
        footer = BundleFooter(patient: Self.patientLine(content), recipient: options.recipient, generatedOn: time.today().description,
                              hasDocuments: !documents.isEmpty)
    }

    var today: CalendarDate { time.today() }

    /// "Alex Example (born 1984-07-22)".
    static func patientLine(_ content: ShareContent) -> String {
        content.patientName + (content.medicalID?.dateOfBirth.map { " (born \($0))" } ?? "")
    }

    /// The outline below the cover, in order: what the contents list on the cover shows.
    var outlineEntries: [(title: String, level: Int)] {
        var entries: [(String, Int)] = []
        for section in sections {
            entries.append((section.title, 0))
            if section == .documents {
                entries += documents.map { (Self.outlineTitle($0.document), 1) }
            }
        }
        return entries
    }

    static func outlineTitle(_ document: Document) -> String {
        document.title + (document.date.map { " (\($0))" } ?? "")
    }

    func compose(_ flow: DocumentFlow) throws {
        documentFirstPages = []
        flow.bookmark("Cover")
        drawCover(flow)
        flow.decoration = HeadedPages(footer: footer, title: "Health summary · \(content.patientName)",
                                      detail: content.medicalID?.dateOfBirth.map { "born \($0)" } ?? "")
        flow.pageBreak()
        var documentsEntry: Int?
        for section in sections {
            let entry = sectionHeading(flow, section)
            switch section {
            case .summary: drawPatientSummary(flow)
            case .allergies: drawAllergies(flow)
            case .medications: drawMedications(flow)
            case .conditions: drawConditions(flow)
            case .immunizations: drawImmunizations(flow)
            case .procedures: drawProcedures(flow)
            case .familyHistory: drawFamilyHistory(flow)
            case .results: drawResults(flow)
            case .appointments: drawAppointments(flow)
            case .contacts: drawContacts(flow)
            case .documents:
                documentsEntry = entry
                drawManifest(flow)
            }
            flow.space(10)
        }
        summaryPageCount = flow.pageNumber
        try drawDocumentPages(flow, under: documentsEntry)
    }

    // MARK: Shared pieces

    /// A section title over an accent rule, with a short note on the right ("3 current"), kept
    /// with the start of what follows. Returns the section's outline entry.
    @discardableResult
    func sectionHeading(_ flow: DocumentFlow, _ section: ShareSection) -> Int {
        let style = TextStyle(size: 12.5, bold: true, color: BundleStyle.accent)
        let size = flow.canvas.measureText(.plain(section.title), width: flow.width * 0.7, style: style)
        // Room for the title, a table's header and its first rows: a heading never ends a page.
        flow.ensureSpace(size.height + 110)
        if flow.y > flow.contentTop { flow.space(6) }
        let entry = flow.bookmark(section.title)
        flow.canvas.drawText(.plain(section.title), x: flow.left, y: flow.y, width: flow.width * 0.7, style: style)
        if let note = sectionNote(section) {
            let noteStyle = BundleStyle.small.aligned(.right)
            let noteSize = flow.canvas.measureText(.plain(note), width: flow.width * 0.3, style: noteStyle)
            flow.canvas.drawText(.plain(note), x: flow.left + flow.width * 0.7, y: flow.y + size.height - noteSize.height - 2,
                                 width: flow.width * 0.3, style: noteStyle)
        }
        flow.y += size.height + 2
        flow.canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 1, color: BundleStyle.accent)
        flow.y += 8
        return entry
    }

    /// The counts beside a section title; none for an empty section, which says so below it.
    func sectionNote(_ section: ShareSection) -> String? {
        func count(_ number: Int, _ one: String, _ many: String) -> String? { number == 0 ? nil : "\(number) \(number == 1 ? one : many)" }
        switch section {
        case .summary:
            return content.medicalID.map { "medical ID updated \($0.updatedAt.prefix(10))" }
        case .allergies:
            let active = content.allergies.filter { $0.status == .active }.count
            return count(active, "active", "active")
        case .medications:
            let stopped = content.recentlyStoppedMedications.count
            let parts = [count(content.currentMedications.count, "current", "current"),
                         count(stopped, "stopped in the last year", "stopped in the last year")].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: " · ")
        case .conditions: return count(content.conditions.filter(\.isCurrent).count, "current", "current")
        case .immunizations: return count(content.immunizations.count, "dose", "doses")
        case .procedures: return count(content.procedures.count, "procedure", "procedures")
        case .familyHistory: return count(Set(content.familyHistory.map { $0.relation.lowercased() }).count, "relative", "relatives")
        case .results: return count(content.results.count, "test", "tests")
        case .appointments: return count(content.appointments.count, "upcoming", "upcoming")
        case .contacts: return count(content.emergencyContacts.count, "contact", "contacts")
        case .documents:
            let pages = documents.reduce(0) { $0 + $1.pageCount }
            return count(documents.count, "document", "documents").map { $0 + ", " + (count(pages, "page", "pages") ?? "") }
        }
    }

    /// The line under a heading whose section has nothing to list.
    func noneRecorded(_ flow: DocumentFlow, _ text: String) {
        flow.paragraph(.plain(text), style: BundleStyle.body.italicized.colored(.muted), after: 4)
    }

    /// "2026-11-22 05:10 UTC", "2026-11-22 06:10 UTC+01:00": the moment in the user's zone.
    func moment(_ instant: Date) -> String {
        let wall = LocalDateTime(instant, in: time.zone)
        let offset = time.zone.secondsFromGMT(for: instant)
        return "\(wall.date) \(wall.time) UTC" + (offset == 0 ? "" : TimeText.offset(offset))
    }
}
