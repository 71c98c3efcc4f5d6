import PHRCore
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
struct EmergencyFullPage {
    let card: EmergencyCard

    func draw(in flow: DocumentFlow) {
        let canvas = flow.canvas
        let red = EmergencyCardFaces.red
        let band = 40.0
        canvas.rectangle(x: flow.left, y: flow.y, width: flow.width, height: band, radius: 5, fill: red)
        canvas.drawText(.plain("EMERGENCY MEDICAL INFORMATION"), x: flow.left + 16, y: flow.y + 10, width: flow.width - 32,
                        style: TextStyle(size: 17, bold: true, color: .white))
        flow.y += band + 18
        let name = canvas.drawText(.plain(card.name ?? "Name not set (profile \(card.profile))"), x: flow.left, y: flow.y,
                                   width: flow.width, style: TextStyle(size: 26, bold: true))
        flow.y += name.height + 6

        var facts: [Field] = []
        if let born = card.dateOfBirth { facts.append(Field("Born", born + (card.age.map { " (age \($0))" } ?? ""))) }
        if let sex = card.sex { facts.append(Field("Sex", sex)) }
        facts.append(Field("Blood type", card.bloodType ?? "not recorded", emphasized: card.bloodType != nil))
        if let donor = card.organDonor { facts.append(Field("Organ donor", donor ? "yes" : "no", emphasized: true)) }
        if let height = card.heightCm { facts.append(Field("Height", "\(ShareBundleComposer.number(height)) cm")) }
        if let weight = card.weightKg { facts.append(Field("Weight", "\(ShareBundleComposer.number(weight)) kg")) }
        flow.fields(facts, columns: 2, boxed: true, style: TextStyle(size: 14), after: 16)

        section(flow, "Allergies")
        if card.allergies.isEmpty {
            line(flow, .plain("None recorded"), muted: true)
        }
        for allergy in card.allergies {
            let urgent = allergy.severity == "severe" || allergy.criticality == "high"
            let markup = "<b>\(escapeMarkup(allergy.substance))</b>"
                + (allergy.severity.map { " · \(escapeMarkup($0))" } ?? (allergy.criticality == "high" ? " · high risk" : ""))
                + (allergy.reaction.map { " · \(escapeMarkup($0))" } ?? "")
            line(flow, .markup(markup), color: urgent ? red : .ink)
        }
        section(flow, "Conditions")
        if card.conditions.isEmpty { line(flow, .plain("None recorded"), muted: true) }
        for condition in card.conditions { line(flow, .plain(condition)) }
        section(flow, "Medications")
        if card.medications.isEmpty { line(flow, .plain("None recorded"), muted: true) }
        for medication in card.medications {
            let what = [medication.name, medication.dose].compactMap { $0 }.joined(separator: " ")
            line(flow, .markup("<b>\(escapeMarkup(what))</b> · \(escapeMarkup(medication.schedule))"))
        }
        section(flow, "In an emergency call")
        if card.contacts.isEmpty { line(flow, .plain("No emergency contact recorded"), muted: true) }
        for contact in card.contacts {
            let who = contact.name + (contact.relation.map { " (\($0))" } ?? "")
            line(flow, .markup("<b>\(escapeMarkup(who))</b>   <span font_family=\"DejaVu Sans Mono\">\(escapeMarkup(contact.phone))</span>"))
        }
        if let notes = card.notes {
            section(flow, "Notes")
            flow.paragraph(.plain(notes), style: TextStyle(size: 13).spaced(1.1), after: 4)
        }
    }

    private func section(_ flow: DocumentFlow, _ title: String) {
        let style = TextStyle(size: 11, bold: true, color: EmergencyCardFaces.red)
        flow.ensureSpace(48)
        flow.space(6)
        let size = flow.canvas.drawText(.plain(displayCapitals(title)), x: flow.left, y: flow.y, width: flow.width, style: style)
        flow.y += size.height + 2
        flow.canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 0.8, color: EmergencyCardFaces.red)
        flow.y += 6
    }

    private func line(_ flow: DocumentFlow, _ content: TextContent, color: Color = .ink, muted: Bool = false) {
        flow.paragraph(content, style: TextStyle(size: 14, color: muted ? .muted : color).spaced(1.05), after: 4)
    }
}
