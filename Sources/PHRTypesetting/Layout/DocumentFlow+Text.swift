/// Paragraphs, headings and lists.
extension DocumentFlow {
    /// A block of wrapped text across the content width (less `indent`), kept on one page when
    /// it fits on one; a longer one continues on the next page, broken between lines.
    public func paragraph(_ content: TextContent, style: TextStyle = .body.spaced(1.15),
                          indent: Double = 0, after: Double = 6) {
        let size = canvas.measureText(content, width: width - indent, style: style)
        if size.height > fullPageHeight {
            flowText(content, x: left + indent, width: width - indent, style: style)
            y += after
            return
        }
        ensureSpace(size.height)
        canvas.drawText(content, x: left + indent, y: y, width: width - indent, style: style)
        y += size.height + after
    }

    /// A section title in capitals over a hairline, kept with at least `keep` points of
    /// what follows so a heading never ends a page alone.
    public func heading(_ title: String, accent: Color, keep: Double = 48) {
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
    public func list(_ items: [TextContent], numbered: Bool = false, style: TextStyle = .body.spaced(1.1),
                     after: Double = 6) {
        let indent = 16.0
        for (index, item) in items.enumerated() {
            let marker = numbered ? "\(index + 1)." : "•"
            let size = canvas.measureText(item, width: width - indent, style: style)
            if size.height > fullPageHeight {
                let firstLine = canvas.measureLines(item, width: width - indent, style: style).first?.height ?? 0
                ensureSpace(firstLine)
                canvas.drawText(.plain(marker), x: left + 3, y: y, style: style)
                flowText(item, x: left + indent, width: width - indent, style: style)
                y += 2.5
                continue
            }
            ensureSpace(size.height)
            canvas.drawText(.plain(marker), x: left + 3, y: y, style: style)
            canvas.drawText(item, x: left + indent, y: y, width: width - indent, style: style)
            y += size.height + 2.5
        }
        y += after - 2.5
    }

    /// Draws text that may be taller than a page from the current position, as many whole
    /// lines per page as fit, starting new pages as needed.
    public func flowText(_ content: TextContent, x: Double, width: Double, style: TextStyle) {
        let lines = canvas.measureLines(content, width: width, style: style)
        var first = 0
        while first < lines.count {
            var end = first
            while end < lines.count, lines[end].bottom - lines[first].top <= bottom - y { end += 1 }
            if end == first {
                if y > contentTop {
                    pageBreak()
                    continue
                }
                // A single line taller than a whole page: nothing better than drawing it.
                end = first + 1
            }
            canvas.drawTextLines(content, lines: first..<end, x: x, y: y, width: width, style: style)
            y += lines[end - 1].bottom - lines[first].top
            first = end
            if first < lines.count { pageBreak() }
        }
    }
}
