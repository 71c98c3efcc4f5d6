import Foundation

/// Paragraphs, headings and lists.
extension DocumentFlow {
    /// A block of wrapped text across the content width (less `indent`), kept on one page.
    func paragraph(_ content: TextContent, style: TextStyle = .body.spaced(1.15),
                   indent: Double = 0, after: Double = 6) {
        let size = canvas.measureText(content, width: width - indent, style: style)
        ensureSpace(size.height)
        canvas.drawText(content, x: left + indent, y: y, width: width - indent, style: style)
        y += size.height + after
    }

    /// A section title in capitals over a hairline, kept with at least `keep` points of
    /// what follows so a heading never ends a page alone.
    func heading(_ title: String, accent: Color, keep: Double = 48) {
        let style = TextStyle(size: 8.5, bold: true, color: accent)
        let capitals = displayCapitals(title)
        let size = canvas.measureText(.plain(capitals), width: width, style: style)
        ensureSpace(size.height + 6 + keep)
        space(4)
        canvas.drawText(.plain(capitals), x: left, y: y, width: width, style: style)
        y += size.height + 2
        canvas.line(fromX: left, y: y, toX: right, y: y, width: 0.6, color: .hairline)
        y += 6
    }

    /// A list with a marker per item (a bullet, or numbers when `numbered`).
    func list(_ items: [TextContent], numbered: Bool = false, style: TextStyle = .body.spaced(1.1),
              after: Double = 6) {
        let indent = 16.0
        for (index, item) in items.enumerated() {
            let size = canvas.measureText(item, width: width - indent, style: style)
            ensureSpace(size.height)
            let marker = numbered ? "\(index + 1)." : "•"
            canvas.drawText(.plain(marker), x: left + 3, y: y, style: style)
            canvas.drawText(item, x: left + indent, y: y, width: width - indent, style: style)
            y += size.height + 2.5
        }
        y += after - 2.5
    }
}

/// `text` in capitals as a typesetter would set them.
///
/// Greek drops the tonos (acute accent) in all-capital text ("Αλλεργίες" becomes "ΑΛΛΕΡΓΙΕΣ",
/// not "ΑΛΛΕΡΓΊΕΣ"), which plain `uppercased()` does not do. The dialytika stays.
func displayCapitals(_ text: String) -> String {
    let tonos: Unicode.Scalar = "\u{0301}"
    var scalars = String.UnicodeScalarView()
    var previousIsGreek = false
    for scalar in text.uppercased().decomposedStringWithCanonicalMapping.unicodeScalars {
        if scalar == tonos, previousIsGreek { continue }
        if scalar.properties.generalCategory != .nonspacingMark {
            previousIsGreek = (0x0370...0x03FF).contains(scalar.value)
        }
        scalars.append(scalar)
    }
    return String(scalars).precomposedStringWithCanonicalMapping
}
