/// A table of text with a header row, aligned columns and optional group rows.
struct Table: Sendable {
    struct Column: Sendable {
        var title: String
        /// The column's share of the table width, relative to the other columns.
        var weight: Double
        var alignment: TextStyle.Alignment = .left

        init(_ title: String, weight: Double, alignment: TextStyle.Alignment = .left) {
            self.title = title
            self.weight = weight
            self.alignment = alignment
        }
    }

    /// One cell's text and how strongly it should stand out.
    struct Cell: Sendable, ExpressibleByStringLiteral {
        enum Tone: Sendable {
            case normal, strong, alert, muted
        }

        var text: String
        var tone: Tone

        init(_ text: String, tone: Tone = .normal) {
            self.text = text
            self.tone = tone
        }

        init(stringLiteral text: String) {
            self.init(text)
        }

        static func strong(_ text: String) -> Cell { Cell(text, tone: .strong) }
        static func alert(_ text: String) -> Cell { Cell(text, tone: .alert) }
        static func muted(_ text: String) -> Cell { Cell(text, tone: .muted) }
    }

    enum Row: Sendable {
        /// One cell per column.
        case values([Cell])
        /// A subheading spanning the whole table, such as "Differential".
        case group(String)
    }

    var columns: [Column]
    var rows: [Row]
    var fontSize = 8.8
}

extension DocumentFlow {
    /// Draws `table` across the content width, repeating the header row after a page break.
    func table(_ table: Table, after: Double = 10) {
        let widths = columnWidths(for: table)
        let padX = 5.0
        let padY = 3.6
        let bodyStyle = TextStyle.body.sized(table.fontSize)
        let headerStyle = TextStyle(size: table.fontSize - 1, bold: true, color: .muted)

        func cellStyle(_ cell: Table.Cell, _ column: Table.Column) -> TextStyle {
            var style = bodyStyle.aligned(column.alignment)
            switch cell.tone {
            case .normal: break
            case .strong: style.bold = true
            case .alert: style.bold = true; style.color = .alert
            case .muted: style.color = .muted
            }
            return style
        }

        func drawHeader() {
            let heights = zip(table.columns, widths).map { column, width in
                canvas.measureText(.plain(column.title), width: width - 2 * padX,
                                   style: headerStyle.aligned(column.alignment)).height
            }
            let height = (heights.max() ?? 0) + 2 * padY
            canvas.rectangle(x: left, y: y, width: width, height: height, fill: .panel)
            canvas.line(fromX: left, y: y, toX: right, y: y, width: 0.9, color: .ink)
            var x = left
            for (column, columnWidth) in zip(table.columns, widths) {
                canvas.drawText(.plain(column.title), x: x + padX, y: y + padY, width: columnWidth - 2 * padX,
                                style: headerStyle.aligned(column.alignment))
                x += columnWidth
            }
            y += height
            canvas.line(fromX: left, y: y, toX: right, y: y, width: 0.6, color: .ink)
        }

        ensureSpace(60)
        drawHeader()
        var shaded = false
        for row in table.rows {
            switch row {
            case .group(let title):
                let style = bodyStyle.emboldened.sized(table.fontSize - 0.3)
                let height = canvas.measureText(.plain(title), width: width - 2 * padX, style: style).height + 2 * padY + 3
                startRowPage(height: height, redrawHeader: drawHeader)
                canvas.drawText(.plain(title), x: left + padX, y: y + padY + 3, width: width - 2 * padX, style: style)
                y += height
                canvas.line(fromX: left, y: y, toX: right, y: y, width: 0.4, color: .hairline)
                shaded = false
            case .values(let cells):
                precondition(cells.count == table.columns.count, "row has \(cells.count) cells for \(table.columns.count) columns")
                let heights = zip(zip(cells, table.columns), widths).map { pair, columnWidth in
                    canvas.measureText(.plain(pair.0.text), width: columnWidth - 2 * padX,
                                       style: cellStyle(pair.0, pair.1)).height
                }
                let height = (heights.max() ?? 0) + 2 * padY
                startRowPage(height: height, redrawHeader: drawHeader)
                if shaded {
                    canvas.rectangle(x: left, y: y, width: width, height: height, fill: .zebra)
                }
                var x = left
                for ((cell, column), columnWidth) in zip(zip(cells, table.columns), widths) {
                    canvas.drawText(.plain(cell.text), x: x + padX, y: y + padY, width: columnWidth - 2 * padX,
                                    style: cellStyle(cell, column))
                    x += columnWidth
                }
                y += height
                canvas.line(fromX: left, y: y, toX: right, y: y, width: 0.4, color: .hairline)
                shaded.toggle()
            }
        }
        canvas.line(fromX: left, y: y, toX: right, y: y, width: 0.9, color: .ink)
        y += after
    }

    private func columnWidths(for table: Table) -> [Double] {
        let totalWeight = table.columns.reduce(0) { $0 + $1.weight }
        return table.columns.map { width * $0.weight / totalWeight }
    }

    /// Breaks the page before a row that would not fit, repeating the header on the new page.
    private func startRowPage(height: Double, redrawHeader: () -> Void) {
        guard y + height > bottom else { return }
        pageBreak()
        redrawHeader()
    }
}
