/// A table of text with a header row, aligned columns and optional group rows.
///
/// Drawn by `DocumentFlow.table`: cells wrap within their column, a row that does not fit moves
/// to the next page under a repeated header, and a row taller than a whole page is split between
/// lines, so no text ever runs off the page.
public struct Table: Sendable {
    public struct Column: Sendable {
        public var title: String
        /// The column's share of the table width, relative to the other columns.
        public var weight: Double
        public var alignment: TextStyle.Alignment

        public init(_ title: String, weight: Double, alignment: TextStyle.Alignment = .left) {
            self.title = title
            self.weight = weight
            self.alignment = alignment
        }
    }

    /// One cell's text and how strongly it should stand out.
    public struct Cell: Sendable, ExpressibleByStringLiteral {
        public enum Tone: Sendable {
            case normal, strong, alert, muted
        }

        public var content: TextContent
        public var tone: Tone
        /// A font family for this cell only, e.g. a monospaced one for identifiers.
        public var family: String?
        /// A size for this cell only.
        public var size: Double?

        public init(_ text: String, tone: Tone = .normal, family: String? = nil, size: Double? = nil) {
            self.init(content: .plain(text), tone: tone, family: family, size: size)
        }

        public init(content: TextContent, tone: Tone = .normal, family: String? = nil, size: Double? = nil) {
            self.content = content
            self.tone = tone
            self.family = family
            self.size = size
        }

        public init(stringLiteral text: String) {
            self.init(text)
        }

        public static func strong(_ text: String) -> Cell { Cell(text, tone: .strong) }
        public static func alert(_ text: String) -> Cell { Cell(text, tone: .alert) }
        public static func muted(_ text: String) -> Cell { Cell(text, tone: .muted) }
        /// Pango markup built with `escapeMarkup` around every piece of data.
        public static func markup(_ markup: String, tone: Tone = .normal) -> Cell { Cell(content: .markup(markup), tone: tone) }
    }

    public enum Row: Sendable {
        /// One cell per column.
        case values([Cell])
        /// A subheading spanning the whole table, such as "Differential"; kept on a page with
        /// the row after it.
        case group(String)
    }

    public var columns: [Column]
    public var rows: [Row]
    public var fontSize: Double
    public var style: TableStyle

    public init(columns: [Column], rows: [Row], fontSize: Double = 8.8, style: TableStyle = TableStyle()) {
        self.columns = columns
        self.rows = rows
        self.fontSize = fontSize
        self.style = style
    }
}

/// The look of a table: padding, rules and fills.
public struct TableStyle: Sendable {
    public var paddingX = 5.0
    public var paddingY = 3.6
    public var headerFill: Color = .panel
    public var headerText: Color = .muted
    /// The heavy rules above and below the table and under the header.
    public var rule: Color = .ink
    /// The thin rules between rows.
    public var separator: Color = .hairline
    /// Every other row; nil for none.
    public var stripe: Color? = .zebra
    public var family = "Noto Sans"

    public init() {}
}

extension DocumentFlow {
    /// Draws `table` across the content width, repeating the header row after a page break.
    public func table(_ table: Table, after: Double = 10) {
        TableRenderer(flow: self, table: table).draw()
        y += after
    }
}

/// Draws one table into a flow; holds what every row needs (widths, styles, the header).
private struct TableRenderer {
    let flow: DocumentFlow
    let table: Table
    let widths: [Double]
    let bodyStyle: TextStyle
    let headerStyle: TextStyle
    var canvas: PDFCanvas { flow.canvas }
    var padX: Double { table.style.paddingX }
    var padY: Double { table.style.paddingY }

    init(flow: DocumentFlow, table: Table) {
        self.flow = flow
        self.table = table
        let totalWeight = table.columns.reduce(0) { $0 + $1.weight }
        widths = table.columns.map { flow.width * $0.weight / totalWeight }
        bodyStyle = TextStyle(family: table.style.family).sized(table.fontSize)
        headerStyle = TextStyle(family: table.style.family, size: table.fontSize - 1, bold: true, color: table.style.headerText)
    }

    func draw() {
        flow.ensureSpace(60)
        drawHeader()
        var shaded = false
        for (index, row) in table.rows.enumerated() {
            switch row {
            case .group(let title):
                let style = bodyStyle.emboldened.sized(table.fontSize - 0.3)
                let height = canvas.measureText(.plain(title), width: flow.width - 2 * padX, style: style).height + 2 * padY + 3
                // A group title alone at the foot of a page would head nothing: keep it with
                // the next row (as much of it as can fit on a page).
                let next = table.rows.indices.contains(index + 1) ? rowHeight(of: table.rows[index + 1]) : 0
                startRowPage(height: height + min(next, flow.fullPageHeight - headerHeight - height))
                canvas.drawText(.plain(title), x: flow.left + padX, y: flow.y + padY + 3, width: flow.width - 2 * padX, style: style)
                flow.y += height
                canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 0.4, color: table.style.separator)
                shaded = false
            case .values(let cells):
                precondition(cells.count == table.columns.count, "row has \(cells.count) cells for \(table.columns.count) columns")
                let height = rowHeight(of: row)
                if height > flow.fullPageHeight - headerHeight {
                    drawSplitRow(cells, shaded: shaded)
                } else {
                    startRowPage(height: height)
                    if shaded, let stripe = table.style.stripe {
                        canvas.rectangle(x: flow.left, y: flow.y, width: flow.width, height: height, fill: stripe)
                    }
                    var x = flow.left
                    for ((cell, column), columnWidth) in zip(zip(cells, table.columns), widths) {
                        canvas.drawText(cell.content, x: x + padX, y: flow.y + padY, width: columnWidth - 2 * padX,
                                        style: style(cell, column))
                        x += columnWidth
                    }
                    flow.y += height
                }
                canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 0.4, color: table.style.separator)
                shaded.toggle()
            }
        }
        canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 0.9, color: table.style.rule)
    }

    private func style(_ cell: Table.Cell, _ column: Table.Column) -> TextStyle {
        var style = bodyStyle.aligned(column.alignment)
        if let family = cell.family { style.family = family }
        if let size = cell.size { style.size = size }
        switch cell.tone {
        case .normal: break
        case .strong: style.bold = true
        case .alert: style.bold = true; style.color = .alert
        case .muted: style.color = .muted
        }
        return style
    }

    private func rowHeight(of row: Table.Row) -> Double {
        guard case .values(let cells) = row else { return 0 }
        let heights = zip(zip(cells, table.columns), widths).map { pair, columnWidth in
            canvas.measureText(pair.0.content, width: columnWidth - 2 * padX, style: style(pair.0, pair.1)).height
        }
        return (heights.max() ?? 0) + 2 * padY
    }

    private var headerHeight: Double {
        let heights = zip(table.columns, widths).map { column, width in
            canvas.measureText(.plain(column.title), width: width - 2 * padX, style: headerStyle.aligned(column.alignment)).height
        }
        return (heights.max() ?? 0) + 2 * padY
    }

    private func drawHeader() {
        let height = headerHeight
        canvas.rectangle(x: flow.left, y: flow.y, width: flow.width, height: height, fill: table.style.headerFill)
        canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 0.9, color: table.style.rule)
        var x = flow.left
        for (column, columnWidth) in zip(table.columns, widths) {
            canvas.drawText(.plain(column.title), x: x + padX, y: flow.y + padY, width: columnWidth - 2 * padX,
                            style: headerStyle.aligned(column.alignment))
            x += columnWidth
        }
        flow.y += height
        canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 0.6, color: table.style.rule)
    }

    /// Breaks the page before a row that would not fit, repeating the header on the new page.
    private func startRowPage(height: Double) {
        guard flow.y + height > flow.bottom else { return }
        flow.pageBreak()
        drawHeader()
    }

    /// A row taller than a page: each page takes as many whole lines of every cell as fit,
    /// continuing under a repeated header.
    private func drawSplitRow(_ cells: [Table.Cell], shaded: Bool) {
        let styles = zip(cells, table.columns).map { style($0, $1) }
        let lines = zip(zip(cells, styles), widths).map { pair, columnWidth in
            canvas.measureLines(pair.0.content, width: columnWidth - 2 * padX, style: pair.1)
        }
        var starts = Array(repeating: 0, count: cells.count)
        while zip(starts, lines).contains(where: { $0 < $1.count }) {
            let available = flow.bottom - flow.y - 2 * padY
            var ends = starts
            for column in cells.indices {
                let cellLines = lines[column]
                while ends[column] < cellLines.count,
                      cellLines[ends[column]].bottom - cellLines[starts[column]].top <= available {
                    ends[column] += 1
                }
            }
            if ends == starts {
                // Not one line fits: start a fresh page, or, on a fresh page, force one line.
                if flow.y > flow.contentTop + headerHeight + 1 {
                    flow.pageBreak()
                    drawHeader()
                    continue
                }
                if let column = cells.indices.first(where: { starts[$0] < lines[$0].count }) { ends[column] += 1 }
            }
            let used = cells.indices.map { column in
                ends[column] > starts[column] ? lines[column][ends[column] - 1].bottom - lines[column][starts[column]].top : 0
            }
            let height = (used.max() ?? 0) + 2 * padY
            if shaded, let stripe = table.style.stripe {
                canvas.rectangle(x: flow.left, y: flow.y, width: flow.width, height: height, fill: stripe)
            }
            var x = flow.left
            for column in cells.indices {
                canvas.drawTextLines(cells[column].content, lines: starts[column]..<ends[column], x: x + padX, y: flow.y + padY,
                                     width: widths[column] - 2 * padX, style: styles[column])
                x += widths[column]
            }
            flow.y += height
            starts = ends
            if zip(starts, lines).contains(where: { $0 < $1.count }) {
                flow.pageBreak()
                drawHeader()
            }
        }
    }
}
