import PHRModel
import PHRTypesetting

/// The cover: who the patient is, whom the bundle is for, when it was made, the alerts that
/// cannot wait for page 2, a confidentiality notice and the contents with page numbers.
extension ShareBundleComposer {
    func drawCover(_ flow: DocumentFlow) {
        let canvas = flow.canvas
        let label = TextStyle(size: 8.5, bold: true, color: BundleStyle.accent)
        canvas.drawText(.plain(displayCapitals("Confidential health summary")), x: flow.left, y: flow.y, style: label)
        flow.y += 18
        let nameSize = canvas.drawText(.plain(content.patientName), x: flow.left, y: flow.y, width: flow.width,
                                       style: TextStyle(size: 24, bold: true))
        flow.y += nameSize.height + 2
        let about = patientFacts().joined(separator: " · ")
        if !about.isEmpty {
            let aboutSize = canvas.drawText(.plain(about), x: flow.left, y: flow.y, width: flow.width,
                                            style: TextStyle(size: 11, color: .muted))
            flow.y += aboutSize.height
        }
        flow.y += 16

        let documentPages = documents.reduce(0) { $0 + $1.pageCount }
        var fields = [
            Field("Prepared for", footer.recipient, emphasized: true),
            Field("Generated", moment(time.now)),
        ]
        if sections.contains(.documents) {
            fields.append(Field("Documents included", documents.isEmpty ? "none"
                                : "\(documents.count) (\(documentPages) \(documentPages == 1 ? "page" : "pages"))"))
        }
        flow.fields(fields, columns: 2, boxed: true, style: BundleStyle.body.sized(9.6), after: 14)

        drawCriticalAlerts(flow)

        flow.paragraph(.markup("""
            <b>Confidential.</b> This document holds personal health information about \(escapeMarkup(content.patientName)), \
            shared with \(escapeMarkup(footer.recipient)) for their care. Keep it confidential; if it reached you by mistake, \
            please destroy it and tell the sender. The summary pages were compiled by the patient or a caregiver from their own \
            records with phr; they are not an export of a clinical record system.\(documents.isEmpty ? "" : """
             The documents at the end are complete copies of the originals, with their SHA-256 fingerprints in the manifest.
            """)
            """), style: BundleStyle.small.sized(8).colored(.ink).spaced(1.1), after: 18)

        drawContents(flow)
    }

    /// "Born 1984-07-22 (42 years)", "male", "blood type A+".
    func patientFacts() -> [String] {
        guard let id = content.medicalID else { return ["no medical ID recorded"] }
        var facts: [String] = []
        if let born = id.dateOfBirth {
            facts.append("Born \(born)" + (id.age(on: today).map { " (\($0) \($0 == 1 ? "year" : "years"))" } ?? ""))
        }
        if let sex = id.sex { facts.append(sex.rawValue) }
        if let blood = id.bloodType { facts.append("blood type \(blood)") }
        return facts
    }

    /// A red panel with the allergies a prescriber must not miss (severe or high criticality).
    func drawCriticalAlerts(_ flow: DocumentFlow) {
        let critical = content.allergies.filter { $0.status == .active && $0.dangerRank == 0 }
        guard !critical.isEmpty else { return }
        let canvas = flow.canvas
        let items = critical.map { allergy -> String in
            var text = "<b>\(escapeMarkup(allergy.substance))</b>"
            if let reaction = allergy.reaction { text += ": \(escapeMarkup(reaction))" }
            let level = allergy.severity == .severe ? "severe" : "high risk"
            return text + " (\(level))"
        }
        let markup = "<b>Severe allergies</b>\n" + items.joined(separator: "\n")
        let style = BundleStyle.body.sized(9.6).colored(.alert)
        let padding = 9.0
        let size = canvas.measureText(.markup(markup), width: flow.width - 2 * padding - 4, style: style)
        let height = size.height + 2 * padding
        flow.ensureSpace(height)
        canvas.rectangle(x: flow.left, y: flow.y, width: flow.width, height: height, radius: 3, fill: BundleStyle.alertPale,
                         stroke: .alert, lineWidth: 0.8)
        canvas.rectangle(x: flow.left, y: flow.y, width: 4, height: height, fill: .alert)
        canvas.drawText(.markup(markup), x: flow.left + padding + 4, y: flow.y + padding, width: flow.width - 2 * padding - 4,
                        style: style)
        flow.y += height + 14
    }

    /// Each outline entry with its page, joined by a dotted leader. The first pass does not know
    /// the pages yet and prints a dash in the same fixed-width column, so both passes lay out
    /// the same lines.
    func drawContents(_ flow: DocumentFlow) {
        let canvas = flow.canvas
        let heading = TextStyle(size: 11, bold: true, color: BundleStyle.accent)
        flow.ensureSpace(60)
        let size = canvas.drawText(.plain("Contents"), x: flow.left, y: flow.y, style: heading)
        flow.y += size.height + 3
        canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 0.6, color: .hairline)
        flow.y += 6
        // Bookmark 0 is the cover itself.
        let pages = flow.firstPass.map { Array($0.bookmarks.dropFirst()).map(\.page) }
        let numberWidth = 36.0
        for (index, entry) in outlineEntries.enumerated() {
            let indent = Double(entry.level) * 16
            let style = entry.level == 0 ? BundleStyle.body.sized(9.8).emboldened : BundleStyle.body.sized(9)
            let available = flow.width - indent - numberWidth - 8
            let titleSize = canvas.measureText(.plain(entry.title), width: available, style: style)
            flow.ensureSpace(titleSize.height + 3)
            canvas.drawText(.plain(entry.title), x: flow.left + indent, y: flow.y, width: available, style: style)
            let page = pages.flatMap { $0.indices.contains(index) ? String($0[index]) : nil } ?? "–"
            canvas.drawText(.plain(page), x: flow.right - numberWidth, y: flow.y, width: numberWidth, style: style.aligned(.right))
            let natural = canvas.measureText(.plain(entry.title), style: style).width
            if natural <= available {
                let lineY = flow.y + titleSize.height * 0.72
                let numberStart = flow.right - canvas.measureText(.plain(page), style: style).width - 6
                if numberStart > flow.left + indent + natural + 10 {
                    canvas.line(fromX: flow.left + indent + natural + 5, y: lineY, toX: numberStart, y: lineY, width: 0.6,
                                color: .hairline, dash: 1.2)
                }
            }
            flow.y += titleSize.height + 3
        }
    }
}
