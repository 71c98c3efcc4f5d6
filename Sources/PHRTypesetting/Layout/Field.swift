/// A labelled value such as "Date of issue: 05/13/2025".
///
/// Label and value are laid out as one run of text, so they stay adjacent in extracted text:
/// a reader (or a date guesser) finds a value next to its label.
public struct Field: Sendable {
    public var label: String
    public var value: String
    /// Sets the value in bold, for the one field a reader looks for first.
    public var emphasized: Bool

    public init(_ label: String, _ value: String, emphasized: Bool = false) {
        self.label = label
        self.value = value
        self.emphasized = emphasized
    }

    public var markup: String {
        let value = escapeMarkup(value)
        return "<span foreground=\"\(Color.muted.markupValue)\">\(escapeMarkup(label)):</span> "
            + (emphasized ? "<b>\(value)</b>" : value)
    }
}

extension DocumentFlow {
    /// Fields in a grid of `columns`, filled row by row, optionally on a shaded panel.
    public func fields(_ fields: [Field], columns: Int, boxed: Bool = false,
                       style: TextStyle = .body, after: Double = 10) {
        let padding = boxed ? 8.0 : 0
        let gutter = 14.0
        let innerWidth = width - 2 * padding
        let columnWidth = (innerWidth - gutter * Double(columns - 1)) / Double(columns)
        let rows = stride(from: 0, to: fields.count, by: columns).map {
            Array(fields[$0..<min($0 + columns, fields.count)])
        }
        let rowHeights = rows.map { row in
            row.map { canvas.measureText(.markup($0.markup), width: columnWidth, style: style).height }.max() ?? 0
        }
        let rowGap = 3.0
        let total = rowHeights.reduce(0, +) + rowGap * Double(max(rows.count - 1, 0)) + 2 * padding
        ensureSpace(total)
        if boxed {
            canvas.rectangle(x: left, y: y, width: width, height: total, radius: 3,
                             fill: .panel, stroke: .hairline, lineWidth: 0.5)
        }
        var rowTop = y + padding
        for (row, height) in zip(rows, rowHeights) {
            for (index, field) in row.enumerated() {
                let x = left + padding + Double(index) * (columnWidth + gutter)
                canvas.drawText(.markup(field.markup), x: x, y: rowTop, width: columnWidth, style: style)
            }
            rowTop += height + rowGap
        }
        y += total + after
    }
}
