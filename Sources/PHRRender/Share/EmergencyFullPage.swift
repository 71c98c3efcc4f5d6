import PHRModel
import PHRTypesetting

/// The footer of the full page: where the facts come from, and the page number.
struct EmergencyPageFooter: PageDecoration {
    let generatedOn: CalendarDate
    let profile: String

    func decorate(_ page: PageInfo, on canvas: PDFCanvas) -> Double {
        let frame = page.frame
        let left = frame.marginLeft
        let right = frame.width - frame.marginRight
        let rule = frame.height - frame.marginBottom + 14
        canvas.line(fromX: left, y: rule, toX: right, y: rule, width: 0.6, color: EmergencyCardFaces.red)
        canvas.drawText(.plain("Made \(generatedOn) with phr from the records of profile \(profile). "
                               + "Check with the person or their contacts that nothing has changed since."),
                        x: left, y: rule + 5, width: right - left - 60, style: TextStyle(size: 7.4, color: .muted))
        canvas.drawText(.plain(page.label), x: right - 60, y: rule + 5, width: 60, style: TextStyle(size: 9, bold: true, alignment: .right))
        return frame.marginTop
    }
}

/// The full page: the same facts as the card, large enough to read at arm's length.
///
/// It is one sheet whenever it can be: the body type shrinks from 14 points to 9, at each size
/// first in one column and then with the lists in two, and the first layout that fits is drawn.
/// Only a card too long even for that continues on more pages (the footer counts them: "3 / 5"),
/// and then in one column, the lists flowing on. The notes (a pacemaker, epilepsy) come right
/// under the facts, so they are never on a page of their own, away from the name.
struct EmergencyFullPage {
    let card: EmergencyCard

    /// A body size and how many columns the lists take.
    struct Layout: Equatable {
        var size: Double
        var columns: Int
    }

    /// Largest first; 14 points reads at arm's length, 9 still in the hand.
    static let layouts: [Layout] = stride(from: 14.0, through: 9.0, by: -0.5).flatMap { [Layout(size: $0, columns: 1), Layout(size: $0, columns: 2)] }

    /// One list: a red heading over its lines.
    private struct Section {
        var title: String
        var lines: [(content: TextContent, color: Color)]
    }

    func draw(in flow: DocumentFlow) {
        let canvas = flow.canvas
        let red = EmergencyCardFaces.red
        let band = 40.0
        canvas.rectangle(x: flow.left, y: flow.y, width: flow.width, height: band, radius: 5, fill: red)
        canvas.drawText(.plain("EMERGENCY MEDICAL INFORMATION"), x: flow.left + 16, y: flow.y + 10, width: flow.width - 32,
                        style: TextStyle(size: 17, bold: true, color: .white))
        flow.y += band + 18
        let top = flow.y
        let available = flow.bottom - top
        if let layout = Self.layouts.first(where: { height(of: $0, canvas: canvas, width: flow.width) <= available }) {
            flow.y = draw(layout, canvas: canvas, x: flow.left, y: top, width: flow.width)
        } else {
            flowOverPages(flow)
        }
    }

    /// The height of the page below the band in `layout`.
    func height(of layout: Layout, canvas: PDFCanvas, width: Double) -> Double {
        draw(layout, canvas: canvas, x: 0, y: 0, width: width, measureOnly: true)
    }

    /// Draws (or only measures) everything below the band from `y`; returns the y below it.
    @discardableResult
    private func draw(_ layout: Layout, canvas: PDFCanvas, x: Double, y top: Double, width: Double, measureOnly: Bool = false) -> Double {
        var y = top
        let nameStyle = TextStyle(size: max(18, layout.size * 26 / 14), bold: true)
        let name = TextContent.plain(card.name ?? "Name not set (profile \(card.profile))")
        y += (measureOnly ? canvas.measureText(name, width: width, style: nameStyle)
              : canvas.drawText(name, x: x, y: y, width: width, style: nameStyle)).height + 6
        y += factsHeight(layout, canvas: canvas, x: x, y: y, width: width, measureOnly: measureOnly) + 16
        if let notes = card.notes {
            y = section(Section(title: "Notes", lines: [(.plain(notes), .ink)]), layout, canvas: canvas, x: x, y: y, width: width,
                        measureOnly: measureOnly)
        }
        let sections = lists
        guard layout.columns == 2 else {
            for list in sections { y = section(list, layout, canvas: canvas, x: x, y: y, width: width, measureOnly: measureOnly) }
            return y
        }
        // The lists stay in their order, down the left column and on in the right, split where
        // the taller column is shortest.
        let gutter = 18.0
        let columnWidth = (width - gutter) / 2
        let heights = sections.map { section($0, layout, canvas: canvas, x: 0, y: 0, width: columnWidth, measureOnly: true) }
        func taller(splitAt index: Int) -> Double {
            let left: Double = heights[..<index].reduce(0, +)
            let right: Double = heights[index...].reduce(0, +)
            return max(left, right)
        }
        let split = (1..<sections.count).min { taller(splitAt: $0) < taller(splitAt: $1) } ?? sections.count
        var bottoms: [Double] = []
        for (column, range) in [0..<split, split..<sections.count].enumerated() {
            var columnY = y
            for index in range {
                columnY = section(sections[index], layout, canvas: canvas, x: x + Double(column) * (columnWidth + gutter), y: columnY,
                                  width: columnWidth, measureOnly: measureOnly)
            }
            bottoms.append(columnY)
        }
        return bottoms.max() ?? y
    }

    private var facts: [PHRTypesetting.Field] {
        var facts: [PHRTypesetting.Field] = []
        if let born = card.dateOfBirth { facts.append(Field("Born", born + (card.age.map { " (age \($0))" } ?? ""))) }
        if let sex = card.sex { facts.append(Field("Sex", sex)) }
        facts.append(Field("Blood type", card.bloodType ?? "not recorded", emphasized: card.bloodType != nil))
        if let donor = card.organDonor { facts.append(Field("Organ donor", donor ? "yes" : "no", emphasized: true)) }
        if let height = card.heightCm { facts.append(Field("Height", "\(ShareBundleComposer.number(height)) cm")) }
        if let weight = card.weightKg {
            facts.append(Field("Weight", "\(ShareBundleComposer.number(weight)) kg" + (card.weightLoggedOn.map { " (logged \($0))" } ?? "")))
        }
        return facts
    }

    /// The facts two to a row on a shaded panel; returns its height.
    private func factsHeight(_ layout: Layout, canvas: PDFCanvas, x: Double, y: Double, width: Double, measureOnly: Bool) -> Double {
        let style = TextStyle(size: layout.size)
        let (padding, gutter, rowGap) = (8.0, 14.0, 3.0)
        let columnWidth = (width - 2 * padding - gutter) / 2
        let rows = stride(from: 0, to: facts.count, by: 2).map { Array(facts[$0..<min($0 + 2, facts.count)]) }
        let rowHeights = rows.map { row in row.map { canvas.measureText(.markup($0.markup), width: columnWidth, style: style).height }.max() ?? 0 }
        let total = rowHeights.reduce(0, +) + rowGap * Double(max(rows.count - 1, 0)) + 2 * padding
        guard !measureOnly else { return total }
        canvas.rectangle(x: x, y: y, width: width, height: total, radius: 3, fill: .panel, stroke: .hairline, lineWidth: 0.5)
        var rowTop = y + padding
        for (row, height) in zip(rows, rowHeights) {
            for (index, field) in row.enumerated() {
                canvas.drawText(.markup(field.markup), x: x + padding + Double(index) * (columnWidth + gutter), y: rowTop, width: columnWidth,
                                style: style)
            }
            rowTop += height + rowGap
        }
        return total
    }

    private var lists: [Section] {
        let red = EmergencyCardFaces.red
        let none: (TextContent, Color) = (.plain("None recorded"), .muted)
        let allergies = card.allergies.map { allergy -> (TextContent, Color) in
            let urgent = allergy.severity == "severe" || allergy.criticality == "high"
            let markup = "<b>\(escapeMarkup(allergy.substance))</b>"
                + (allergy.severity.map { " · \(escapeMarkup($0))" } ?? (allergy.criticality == "high" ? " · high risk" : ""))
                + (allergy.reaction.map { " · \(escapeMarkup($0))" } ?? "")
            return (.markup(markup), urgent ? red : .ink)
        }
        let medications = card.medications.map { medication -> (TextContent, Color) in
            let what = [medication.name, medication.dose].compactMap { $0 }.joined(separator: " ")
            return (.markup("<b>\(escapeMarkup(what))</b> · \(escapeMarkup(medication.schedule))"), .ink)
        }
        let contacts = card.contacts.map { contact -> (TextContent, Color) in
            let who = contact.name + (contact.relation.map { " (\($0))" } ?? "")
            return (.markup("<b>\(escapeMarkup(who))</b>   " + EmergencyCardFaces.phoneMarkup(contact.phone, monospaced: true)), .ink)
        }
        return [
            Section(title: "Allergies", lines: allergies.isEmpty ? [none] : allergies),
            Section(title: "Conditions", lines: card.conditions.isEmpty ? [none] : card.conditions.map { (.plain($0), .ink) }),
            Section(title: "Medications", lines: medications.isEmpty ? [none] : medications),
            Section(title: "In an emergency call", lines: contacts.isEmpty ? [(.plain("No emergency contact recorded"), .muted)] : contacts),
        ]
    }

    private func headingStyle(_ layout: Layout) -> TextStyle {
        TextStyle(size: max(8.5, layout.size * 11 / 14), bold: true, color: EmergencyCardFaces.red)
    }

    private func lineStyle(_ layout: Layout, color: Color) -> TextStyle {
        TextStyle(size: layout.size, color: color).spaced(1.05)
    }

    /// Draws (or measures) one section at `y`; returns the y below it.
    private func section(_ section: Section, _ layout: Layout, canvas: PDFCanvas, x: Double, y top: Double, width: Double,
                         measureOnly: Bool) -> Double {
        var y = top + 6
        let title = TextContent.plain(displayCapitals(section.title))
        y += (measureOnly ? canvas.measureText(title, width: width, style: headingStyle(layout))
              : canvas.drawText(title, x: x, y: y, width: width, style: headingStyle(layout))).height + 2
        if !measureOnly { canvas.line(fromX: x, y: y, toX: x + width, y: y, width: 0.8, color: EmergencyCardFaces.red) }
        y += 6
        let after = 4 * layout.size / 14
        for (content, color) in section.lines {
            let style = lineStyle(layout, color: color)
            y += (measureOnly ? canvas.measureText(content, width: width, style: style)
                  : canvas.drawText(content, x: x, y: y, width: width, style: style)).height + after
        }
        return y
    }

    /// The smallest one-column layout over as many pages as it takes, a heading never last on a page.
    private func flowOverPages(_ flow: DocumentFlow) {
        let layout = Self.layouts.last { $0.columns == 1 }!
        let nameStyle = TextStyle(size: max(18, layout.size * 26 / 14), bold: true)
        flow.paragraph(.plain(card.name ?? "Name not set (profile \(card.profile))"), style: nameStyle, after: 6)
        flow.y += factsHeight(layout, canvas: flow.canvas, x: flow.left, y: flow.y, width: flow.width, measureOnly: false) + 16
        let notes = card.notes.map { [Section(title: "Notes", lines: [(.plain($0), .ink)])] } ?? []
        for list in notes + lists {
            let title = TextContent.plain(displayCapitals(list.title))
            flow.ensureSpace(48)
            flow.space(6)
            flow.y += flow.canvas.drawText(title, x: flow.left, y: flow.y, width: flow.width, style: headingStyle(layout)).height + 2
            flow.canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 0.8, color: EmergencyCardFaces.red)
            flow.y += 6
            for (content, color) in list.lines {
                flow.paragraph(content, style: lineStyle(layout, color: color), after: 4 * layout.size / 14)
            }
        }
    }
}
