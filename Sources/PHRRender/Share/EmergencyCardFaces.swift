import Foundation
import PHRModel
import PHRTypesetting

/// The two sides of the wallet card (ISO/IEC 7810 ID-1, 85.6 x 54 mm): who, blood type,
/// allergies and conditions on the front; medications, whom to call and organ donation on the
/// back.
///
/// A card is small and a list may be long, so each side is fitted: the text shrinks step by
/// step to 5.4 points, and if it still does not fit, the longest list loses items from its
/// end for a "+N more, see the full page" note. Nothing is ever drawn outside the card.
struct EmergencyCardFaces {
    let card: EmergencyCard
    let generatedOn: CalendarDate

    static let size = Size.idCard
    static let inset = 9.0
    static let red = Color(hex: 0xB3261E)

    /// One labelled list on a side: "ALLERGIES Penicillin (severe) · Latex".
    struct Block {
        var label: String
        /// Pango markup, one string per item.
        var items: [String]
        /// Items set in bold red (severe allergies).
        var urgent: Set<Int> = []
        var empty: String
        var dropped = 0

        func markup() -> String {
            var parts = items.enumerated().map { index, item in
                urgent.contains(index)
                    ? "<span weight=\"bold\" foreground=\"\(EmergencyCardFaces.red.markupValue)\">\(item)</span>"
                    : item
            }
            if parts.isEmpty { parts = [escapeMarkup(empty)] }
            if dropped > 0 { parts.append("<i>+\(dropped) more, see the full page</i>") }
            return "<span size=\"smaller\" weight=\"bold\" foreground=\"\(EmergencyCardFaces.red.markupValue)\">"
                + "\(escapeMarkup(displayCapitals(label)))</span>  " + parts.joined(separator: " · ")
        }
    }

    func drawFront(on canvas: PDFCanvas) {
        drawOutline(on: canvas)
        let band = 22.0
        let x = Self.inset
        let width = Self.size.width - 2 * Self.inset
        canvas.rectangle(x: x, y: Self.inset, width: width, height: band, radius: 4, fill: Self.red)
        canvas.drawText(.plain("EMERGENCY MEDICAL INFORMATION"), x: x + 7, y: Self.inset + 6, width: width - 14,
                        style: TextStyle(size: 7.2, bold: true, color: .white))
        var y = Self.inset + band + 5
        // Blood type in a box at the right, the name and birth date beside it.
        let bloodWidth = 40.0
        canvas.rectangle(x: x + width - bloodWidth, y: y, width: bloodWidth, height: 30, radius: 3, stroke: Self.red, lineWidth: 0.8)
        canvas.drawText(.plain("BLOOD TYPE"), x: x + width - bloodWidth, y: y + 3, width: bloodWidth,
                        style: TextStyle(size: 4.8, bold: true, color: Self.red, alignment: .center))
        canvas.drawText(.plain(card.bloodType ?? "?"), x: x + width - bloodWidth, y: y + 10, width: bloodWidth,
                        style: TextStyle(size: 12, bold: true, color: Self.red, alignment: .center))
        let nameWidth = width - bloodWidth - 6
        let nameStyle = fittedStyle(TextStyle(size: 10.5, bold: true), text: card.name ?? "Name not set", width: nameWidth,
                                    maxHeight: 18, on: canvas)
        let name = TextContent.plain(card.name ?? "Name not set")
        let nameLines = canvas.measureLines(name, width: nameWidth, style: nameStyle)
        let shown = max(1, nameLines.prefix { $0.bottom <= 19 }.count)
        canvas.drawTextLines(name, lines: 0..<shown, x: x, y: y, width: nameWidth, style: nameStyle)
        canvas.drawTextLines(.plain(personLine), lines: 0..<1, x: x, y: y + (nameLines.isEmpty ? 0 : nameLines[shown - 1].bottom),
                             width: nameWidth, style: TextStyle(size: 6.6, color: .muted))
        y += 34
        var allergies = Block(label: "Allergies", items: card.allergies.map { escapeMarkup(Self.allergyText($0)) }, empty: "none recorded")
        allergies.urgent = Set(card.allergies.indices.filter { card.allergies[$0].severity == "severe" || card.allergies[$0].criticality == "high" })
        let conditions = Block(label: "Conditions", items: card.conditions.map(escapeMarkup), empty: "none recorded")
        drawFitted([allergies, conditions], on: canvas, top: y, bottom: Self.size.height - Self.inset)
    }

    func drawBack(on canvas: PDFCanvas) {
        drawOutline(on: canvas)
        let medications = Block(label: "Medications", items: card.medications.map { medication in
            // A dose keeps its number and unit on one line ("325 mg").
            let dose = medication.dose.map { $0.replacingOccurrences(of: " ", with: "\u{00A0}") }
            return escapeMarkup([[medication.name, dose].compactMap { $0 }.joined(separator: " "), medication.schedule].joined(separator: ", "))
        }, empty: "none recorded")
        let contacts = Block(label: "In an emergency call", items: card.contacts.map { contact in
            escapeMarkup(contact.name + (contact.relation.map { " (\($0))" } ?? "")) + " " + Self.phoneMarkup(contact.phone)
        }, empty: "no emergency contact recorded")
        var other: [String] = []
        if let donor = card.organDonor { other.append("organ donor: \(donor ? "yes" : "no")") }
        if let notes = card.notes { other.append(notes) }
        var blocks = [medications, contacts]
        if !other.isEmpty { blocks.append(Block(label: "Notes", items: other.map(escapeMarkup), empty: "")) }
        let footerStyle = TextStyle(size: 4.8, color: .muted)
        let footer = "Made \(generatedOn) with phr · more on the full page"
        let footerHeight = canvas.measureText(.plain(footer), style: footerStyle).height
        drawFitted(blocks, on: canvas, top: Self.inset + 2, bottom: Self.size.height - Self.inset - footerHeight - 2)
        canvas.drawText(.plain(footer), x: Self.inset, y: Self.size.height - Self.inset - footerHeight,
                        width: Self.size.width - 2 * Self.inset, style: footerStyle)
    }

    /// A phone number as markup that is never broken across lines: a number split after a
    /// hyphen or a space reads as two numbers, or as a wrong one.
    static func phoneMarkup(_ phone: String, monospaced: Bool = false) -> String {
        "<span allow_breaks=\"false\"\(monospaced ? " font_family=\"DejaVu Sans Mono\"" : "")>\(escapeMarkup(phone))</span>"
    }

    /// "born 1984-07-22 (42) · male".
    var personLine: String {
        var parts: [String] = []
        if let born = card.dateOfBirth { parts.append("born \(born)" + (card.age.map { " (\($0))" } ?? "")) }
        if let sex = card.sex { parts.append(sex) }
        return parts.isEmpty ? "date of birth not set" : parts.joined(separator: " · ")
    }

    static func allergyText(_ allergy: EmergencyCard.AllergyLine) -> String {
        var details: [String] = []
        if let severity = allergy.severity { details.append(severity) } else if allergy.criticality == "high" { details.append("high risk") }
        if let reaction = allergy.reaction { details.append(reaction) }
        return details.isEmpty ? allergy.substance : "\(allergy.substance) (\(details.joined(separator: ": ")))"
    }

    /// A thin rounded outline at the card's edge, to cut along.
    private func drawOutline(on canvas: PDFCanvas) {
        canvas.rectangle(x: 1.5, y: 1.5, width: Self.size.width - 3, height: Self.size.height - 3, radius: 9,
                         stroke: Color(hex: 0x9AA1AC), lineWidth: 0.4, dash: 2)
    }

    /// The largest size from `style.size` down to 60% at which `text` fits `maxHeight`.
    private func fittedStyle(_ style: TextStyle, text: String, width: Double, maxHeight: Double, on canvas: PDFCanvas) -> TextStyle {
        var fitted = style
        while fitted.size > style.size * 0.6, canvas.measureText(.plain(text), width: width, style: fitted).height > maxHeight {
            fitted.size -= 0.5
        }
        return fitted
    }

    /// Draws `blocks` between `top` and `bottom`, shrinking the text, then shortening the
    /// longest list, until they fit.
    private func drawFitted(_ blocks: [Block], on canvas: PDFCanvas, top: Double, bottom: Double) {
        let width = Self.size.width - 2 * Self.inset
        var blocks = blocks
        let gap = 3.0
        func height(_ size: Double) -> Double {
            let style = TextStyle(size: size).spaced(1.0)
            return blocks.reduce(0) { $0 + canvas.measureText(.markup($1.markup()), width: width, style: style).height } + gap * Double(blocks.count - 1)
        }
        var size = 8.6
        while size > 5.4, height(size) > bottom - top { size -= 0.2 }
        while height(size) > bottom - top {
            guard let longest = blocks.indices.filter({ !blocks[$0].items.isEmpty }).max(by: { blocks[$0].items.count < blocks[$1].items.count }),
                  blocks[longest].items.count > 1 else { break }
            blocks[longest].items.removeLast()
            blocks[longest].dropped += 1
        }
        var y = top
        let style = TextStyle(size: size).spaced(1.0)
        for block in blocks {
            let available = bottom - y
            let lines = canvas.measureLines(.markup(block.markup()), width: width, style: style)
            let fitting = lines.prefix { $0.bottom <= available }.count
            guard fitting > 0 else { break }
            canvas.drawTextLines(.markup(block.markup()), lines: 0..<fitting, x: Self.inset, y: y, width: width, style: style)
            y += (lines[fitting - 1].bottom) + gap
        }
    }
}
