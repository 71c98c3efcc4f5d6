import Foundation

/// Finds the result rows of a lab report from the words on its pages and where they stand:
/// the table header gives the columns (test, result, flag, units, reference range, in English
/// and a few other languages), each line below it is split into cells at the gaps between
/// words, and each cell goes to the column it stands under. A page with two tables side by side
/// (two headers on one line) is read as two columns of the page. Headings between rows name the
/// panel. Rows the reader is unsure of say why; nothing is guessed silently.
public enum LabReportReader {
    /// A word on a page with its box (PageLayout, from the text layer or OCR).
    public typealias Word = PageWord

    /// One row as read: the cells as printed and what they mean.
    public struct Row: Codable, Equatable, Sendable {
        public var page: Int
        public var name: String
        public var valueNumber: Double?
        public var valueText: String?
        public var unit: String?
        public var range: ReferenceRange?
        public var flag: LabFlag?
        public var panel: String?
        /// The catalog key when the name is known.
        public var analyte: String?
        public var loinc: String?
        public var confidence: Double
        /// Why the reader is unsure of this row; nil when it is not.
        public var unsure: String?

        enum CodingKeys: String, CodingKey {
            case page, name
            case valueNumber = "value_number"
            case valueText = "value_text"
            case unit, range, flag, panel, analyte, loinc, confidence, unsure
        }

        /// A person's correction in review: each given text replaces that part, parsed as a
        /// report cell would be ("" clears the unit, range or flag). The row is then sure.
        public mutating func edit(value: String? = nil, unit: String? = nil, range: String? = nil, flag: String? = nil) throws {
            if let value {
                guard let parsed = LabGrammar.value(value) else {
                    throw RecordError.invalidField(field: Field.path("value"), reason: "'\(value.prefix(40))' is not a result")
                }
                valueNumber = parsed.number
                valueText = parsed.number == nil ? parsed.text : nil
                if let glued = parsed.flag { self.flag = glued }
            }
            if let unit { self.unit = unit.isEmpty ? nil : try RecordFields.text(unit, field: Field.path("unit"), limit: 40) }
            if let range { self.range = range.isEmpty ? nil : LabGrammar.range(range) }
            if let flag {
                if flag.isEmpty {
                    self.flag = nil
                } else {
                    guard let parsed = LabGrammar.flag(flag) else {
                        throw RecordError.invalidField(field: Field.path("flag"), reason: "'\(flag.prefix(20))' is not a flag; use H, L, HH, LL, A or N")
                    }
                    self.flag = parsed
                }
            }
            analyte = AnalyteCatalog.lookup(name, unit: self.unit)?.key ?? analyte
            loinc = analyte.flatMap(AnalyteCatalog.entry(key:))?.loinc.first
            unsure = nil
            confidence = 1
        }

        /// OCR misread the result ("4l" for 41): the row is shown as read, for a person to
        /// correct, but its value is not a result to save.
        public var resultUnread: Bool {
            valueNumber == nil && (valueText.map { LabGrammar.value($0) == nil } ?? true)
        }

        /// "12 ng/mL", "Negative".
        public var valueDisplay: String {
            let value = valueNumber.map(Observation.number) ?? valueText ?? ""
            return [value, unit].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    enum Column: Equatable { case name, value, flag, unit, range, other }

    struct Cell {
        var text: String
        var x0: Double, x1: Double
        var y0 = 0.0, y1 = 0.0
        var confidence: Double?
        var centre: Double { (x0 + x1) / 2 }
    }

    // MARK: Header words

    static let headerWords: [(Column, [String])] = [
        (.name, ["test", "tests", "analyte", "parameter", "investigation", "examination", "component", "test name", "untersuchung", "analyse",
                 "examen", "analisis", "prueba", "esame", "bepaling", "determination", "kenngrosse"]),
        (.value, ["result", "results", "value", "your value", "ergebnis", "resultat", "wert", "resultado", "risultato", "befund", "uitslag", "valeur"]),
        (.flag, ["flag", "flags", "abnormal", "h l", "kennung", "indicator", "hinweis", "alert", "markierung"]),
        (.unit, ["unit", "units", "einheit", "unite", "unites", "unidad", "unidades", "unita", "eenheid"]),
        (.range, ["reference range", "reference", "range", "ref range", "reference interval", "ref interval", "normal range", "referenz",
                  "referenzbereich", "referenzwerte", "normwert", "normbereich", "valeurs de reference", "valeurs usuelles", "normes",
                  "intervalo de referencia", "valores de referencia", "valori di riferimento", "referentiewaarden", "normal values", "standard range"]),
    ]

    static func headerColumn(_ text: String) -> Column? {
        let normal = AnalyteCatalog.normalized(text)
        for (column, words) in headerWords where words.contains(normal) { return column }
        return nil
    }

    // MARK: Reading

    /// The rows of one page.
    public static func rows(page: Int, words: [Word], panel initialPanel: String? = nil) -> [Row] {
        var panel = initialPanel
        return rows(page: page, words: words, panel: &panel)
    }

    /// The rows of every page, the panel heading carried over page breaks.
    public static func rows(pages: [(page: Int, words: [Word])]) -> [Row] {
        var panel: String?
        var header: [(Column, Double, Double)]?
        var result: [Row] = []
        for page in pages {
            result += rows(page: page.page, words: page.words, panel: &panel, carriedHeader: &header)
        }
        return result
    }

    static func rows(page: Int, words: [Word], panel: inout String?) -> [Row] {
        var header: [(Column, Double, Double)]?
        return rows(page: page, words: words, panel: &panel, carriedHeader: &header)
    }

    static func rows(page: Int, words: [Word], panel: inout String?, carriedHeader: inout [(Column, Double, Double)]?) -> [Row] {
        let lines = cellLines(words)
        // Tables side by side: a line with the name column's header twice splits the page.
        if let headerIndex = lines.firstIndex(where: { isHeader($0) }) {
            let nameHeaders = lines[headerIndex].filter { headerColumn($0.text) == .name }
            if nameHeaders.count >= 2 {
                let splits = nameHeaders.dropFirst().map { $0.x0 - 1 }
                var result: [Row] = []
                var bounds = [-Double.infinity] + splits + [Double.infinity]
                bounds.sort()
                for index in 0..<(bounds.count - 1) {
                    let (left, right) = (bounds[index], bounds[index + 1])
                    let part = words.filter { $0.x0 >= left && $0.x0 < right }
                    var partPanel = panel
                    var partHeader: [(Column, Double, Double)]?
                    result += rows(page: page, words: part, panel: &partPanel, carriedHeader: &partHeader)
                    panel = partPanel
                }
                return result
            }
        }
        // A page without a header of its own continues the table of the page before.
        var header: [(Column, Double, Double)]? = lines.contains(where: isHeader) ? nil : carriedHeader
        var result: [Row] = []
        // The cells of the row read last, while the next line may still continue it.
        var open: [Cell]?
        for cells in lines {
            if isHeader(cells) {
                header = cells.compactMap { cell in headerColumn(cell.text).map { ($0, cell.x0, cell.x1) } }
                carriedHeader = header
                open = nil
                continue
            }
            guard let active = header else { continue }
            if let previous = open, let merged = continuation(cells, of: previous, header: active),
               let row = row(merged, header: active, page: page, panel: panel) {
                result[result.count - 1] = row
                open = merged
                continue
            }
            open = nil
            if let row = row(cells, header: active, page: page, panel: panel) {
                result.append(row)
                open = cells
            } else if let heading = panelHeading(cells) {
                panel = heading
            } else if endsTable(cells) {
                header = nil
            }
        }
        return result
    }

    /// Words grouped into visual lines by where they stand (a word joins the line whose middle
    /// is within half a word's height of its own; the reading-order `line` of a layout may put
    /// a table's columns in separate lines), and each line into cells at gaps wider than a space.
    static func cellLines(_ words: [Word]) -> [[Cell]] {
        let sorted = words.filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
            .sorted { ($0.y0 + $0.y1, $0.x0) < ($1.y0 + $1.y1, $1.x0) }
        var lines: [(middle: Double, height: Double, words: [Word])] = []
        for word in sorted {
            let middle = (word.y0 + word.y1) / 2
            let height = max(word.y1 - word.y0, 1)
            // Measured against the taller of the word and the line, so that a dash or a dot (an
            // OCR box a pixel high) joins the line it stands on instead of starting its own.
            if let last = lines.last, abs(last.middle - middle) <= max(height, last.height) * 0.5 {
                lines[lines.count - 1].words.append(word)
                lines[lines.count - 1].height = max(last.height, height)
            } else {
                lines.append((middle, height, [word]))
            }
        }
        return lines.map { line in
            let ordered = line.words.sorted { $0.x0 < $1.x0 }
            var cells: [Cell] = []
            var previous: Word?
            for word in ordered {
                // A table's vertical rule, read by OCR as "|", separates cells however close
                // the words beside it stand ("| Reference range | Units" is two headers).
                if isRule(word.text) {
                    previous = nil
                    continue
                }
                let height = max(word.y1 - word.y0, line.height, 1)
                // A text layer's boxes are the font's height; OCR's hug the ink, so a line of
                // small letters ("Iron studies and vitamins") stands lower than its font and
                // its spaces are wider against it.
                let space = word.confidence == nil ? 0.45 : 0.6
                if let previous, var last = cells.last, word.x0 - previous.x1 < min(height * space, 5.5) {
                    last.text += " " + word.text
                    last.x1 = max(last.x1, word.x1)
                    last.y0 = min(last.y0, word.y0)
                    last.y1 = max(last.y1, word.y1)
                    last.confidence = min(last.confidence ?? 100, word.confidence ?? 100)
                    cells[cells.count - 1] = last
                } else {
                    cells.append(Cell(text: word.text, x0: word.x0, x1: word.x1, y0: word.y0, y1: word.y1, confidence: word.confidence))
                }
                previous = word
            }
            return cells
        }
    }

    /// A word that is only a vertical bar: a table rule as OCR reads it.
    static func isRule(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { "|¦│┃‖｜".contains($0) }
    }

    static func isHeader(_ cells: [Cell]) -> Bool {
        let columns = Set(cells.compactMap { headerColumn($0.text) })
        return columns.contains(.name) && columns.contains(.value) || columns.contains(.value) && columns.contains(.range)
    }

    /// `previous` (a row's cells) with `cells` appended when `cells` is the second line of a cell
    /// that wrapped in a narrow column ("mL/min/" over "1.73m2"): right below the row, with no gap
    /// between the lines, and only in the unit or range columns, each part starting under a cell
    /// of the row in the same column. A name that wraps is not joined: a line of words under a
    /// row is as likely a heading or a comment, and the row stays as read.
    static func continuation(_ cells: [Cell], of previous: [Cell], header: [(Column, Double, Double)]) -> [Cell]? {
        guard !cells.isEmpty, let rowTop = previous.map(\.y0).min(), let rowBottom = previous.map(\.y1).max(),
              let top = cells.map(\.y0).min() else { return nil }
        let height = max(rowBottom - rowTop, 1)
        guard top > rowTop, top - rowBottom < height * 0.5 else { return nil }
        var merged = previous
        for cell in cells {
            let column = column(of: cell, header: header)
            guard column == .unit || column == .range,
                  let index = merged.firstIndex(where: { abs($0.x0 - cell.x0) < 3 && Self.column(of: $0, header: header) == column }) else {
                return nil
            }
            let joiner = merged[index].text.hasSuffix("/") || merged[index].text.hasSuffix("-") ? "" : " "
            merged[index].text += joiner + cell.text
            merged[index].x1 = max(merged[index].x1, cell.x1)
            merged[index].y1 = max(merged[index].y1, cell.y1)
        }
        return merged
    }

    /// A heading line: a single cell of words, no numbers that look like a result.
    static func panelHeading(_ cells: [Cell]) -> String? {
        guard cells.count == 1, let text = cells.first?.text, text.count <= 80, text.first?.isLetter == true,
              LabGrammar.value(text) == nil, !text.hasSuffix(":"), !text.contains(":") else { return nil }
        let lower = text.lowercased()
        for ignored in ["page ", "seite ", "comment", "note", "end of report", "continued", "fortsetzung", "suite", "footnote", "*"] where lower.hasPrefix(ignored) {
            return nil
        }
        return text
    }

    /// Lines that end a results table: signatures, footers, "end of report".
    static func endsTable(_ cells: [Cell]) -> Bool {
        let text = AnalyteCatalog.normalized(cells.map(\.text).joined(separator: " "))
        return ["end of report", "ende des befundes", "fin du rapport", "electronically signed", "validated by", "befund freigegeben"]
            .contains { text.hasPrefix($0) }
    }

    /// The column a cell stands under: the header cell it overlaps most, else the nearest.
    static func column(of cell: Cell, header: [(Column, Double, Double)]) -> Column {
        var best: (Column, Double)?
        for (column, x0, x1) in header {
            let overlap = min(cell.x1, x1) - max(cell.x0, x0)
            if overlap > 0, overlap > (best?.1 ?? 0) { best = (column, overlap) }
        }
        if let best { return best.0 }
        // No overlap: the header whose span is nearest; the name column reaches right to the next header.
        let sorted = header.sorted { $0.1 < $1.1 }
        if let first = sorted.first, first.0 == .name, let second = sorted.dropFirst().first, cell.x1 < second.1 { return .name }
        return sorted.min { distance(cell, $0) < distance(cell, $1) }?.0 ?? .other
    }

    private static func distance(_ cell: Cell, _ span: (Column, Double, Double)) -> Double {
        if cell.x1 < span.1 { return span.1 - cell.x1 }
        if cell.x0 > span.2 { return cell.x0 - span.2 }
        return 0
    }

    static func row(_ cells: [Cell], header: [(Column, Double, Double)], page: Int, panel: String?) -> Row? {
        guard cells.count >= 2 else { return nil }
        var byColumn: [Column: [Cell]] = [:]
        for cell in cells { byColumn[column(of: cell, header: header), default: []].append(cell) }
        var doubts: [String] = []
        // The name: the name column's text, else the first cell when it is words.
        var nameCells = byColumn[.name] ?? []
        if nameCells.isEmpty, let first = cells.first, first.text.first?.isLetter == true, LabGrammar.value(first.text) == nil {
            nameCells = [first]
            doubts.append("name not under the test column")
        }
        let name = nameCells.map(\.text).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.first?.isLetter == true || name.first == "(" else { return nil }
        // The value: the result column; a flag or unit that ran into it is split off.
        var valueCells = byColumn[.value] ?? []
        var flagText = byColumn[.flag]?.map(\.text).joined(separator: " ")
        var unitText = byColumn[.unit]?.map(\.text).joined(separator: " ")
        let rangeText = byColumn[.range]?.map(\.text).joined(separator: " ")
        if valueCells.isEmpty {
            // A row without a result in the result column is a heading or a note, not a result.
            return nil
        }
        if valueCells.count > 1 { doubts.append("several cells under the result column") }
        var valueText = valueCells.map(\.text).joined(separator: " ")
        var parsed = LabGrammar.value(valueText)
        if parsed == nil {
            // "12.5 mg/dL" or "12 L mg/dL" in one cell: peel a unit off the end.
            let parts = valueText.split(separator: " ").map(String.init)
            if parts.count >= 2, LabGrammar.isUnit(parts.last!), let inner = LabGrammar.value(parts.dropLast().joined(separator: " ")) {
                parsed = inner
                if unitText == nil { unitText = parts.last }
                valueText = parts.dropLast().joined(separator: " ")
            }
        }
        if parsed == nil, valueCells.contains(where: { $0.confidence != nil }), valueText.count <= 10, !valueText.contains(" "),
           valueText.first?.isNumber == true, rangeText != nil || unitText != nil {
            // OCR misread a result ("4l" for 41) on a row that is otherwise one: shown for review
            // as read, rather than left out.
            parsed = LabGrammar.Value(text: valueText)
            doubts.append("'\(valueText)' is not a result as read")
        }
        guard var value = parsed else {
            valueCells = []
            return nil
        }
        if let text = flagText, !text.isEmpty {
            if let flag = LabGrammar.flag(text) {
                if let glued = value.flag, glued != flag { doubts.append("flag column says \(flag.rawValue), value says \(glued.rawValue)") }
                value.flag = flag
            } else {
                doubts.append("'\(text)' in the flag column is not a flag")
            }
        }
        flagText = nil
        var range: ReferenceRange?
        var unit = unitText?.trimmingCharacters(in: .whitespaces)
        if let rangeText, !rangeText.isEmpty {
            range = LabGrammar.range(rangeText)
            // A unit printed after the range in the same cell: "30 - 400 ng/mL".
            if let parsedRange = range, parsedRange.low == nil, parsedRange.high == nil {
                let parts = rangeText.split(separator: " ").map(String.init)
                if parts.count >= 2, LabGrammar.isUnit(parts.last!), let inner = LabGrammar.range(parts.dropLast().joined(separator: " ")),
                   inner.low != nil || inner.high != nil {
                    range = ReferenceRange(low: inner.low, high: inner.high, text: parts.dropLast().joined(separator: " "))
                    if unit == nil { unit = parts.last }
                }
            }
        }
        // OCR reads "uIU/mL" as "ulU/mL" and "x10E3/uL" as "X10E3/uL": a unit that only such a
        // confusion keeps from being known is read as the known one.
        if let text = unit, byColumn[.unit]?.contains(where: { $0.confidence != nil }) == true, LabUnits.ucum(text) == nil,
           let corrected = LabGrammar.ocrCorrectedUnit(text) {
            unit = corrected
        }
        if let text = unit, !text.isEmpty, !LabGrammar.isUnit(text) { doubts.append("'\(text)' is not a unit phr knows") }
        if unit?.isEmpty == true { unit = nil }
        let panelWords = panel.map(AnalyteCatalog.normalized) ?? ""
        let specimen: Analyte.Specimen = ["urin", "harn"].contains { panelWords.contains($0) } ? .urine : .blood
        let analyte = AnalyteCatalog.lookup(name, unit: unit, specimen: specimen)
        var flag = value.flag
        if let number = value.number {
            let computed = LabFlag.computed(number, range: range)
            if value.marked && flag == nil { flag = computed ?? .abnormal }
            let bounded = range?.low != nil || range?.high != nil
            if let flag, bounded, (flag == .high || flag == .low) && computed != flag || flag == .normal && computed != nil {
                doubts.append("flag \(flag.rawValue) disagrees with the range")
            }
        }
        var confidence = 1.0
        if analyte == nil { confidence -= 0.15 }
        if value.number != nil && unit == nil && analyte?.conventionalUnit != nil { confidence -= 0.1 }
        if value.number != nil && range == nil { confidence -= 0.05 }
        confidence -= Double(doubts.count) * 0.3
        let ocr = (nameCells + valueCells + (byColumn[.range] ?? []) + (byColumn[.unit] ?? []) + (byColumn[.flag] ?? []))
            .compactMap(\.confidence).min()
        if let ocr {
            confidence *= max(0, min(1, ocr / 100))
            if ocr < 60 { doubts.append("the scan is hard to read here (OCR confidence \(Int(ocr)))") }
        }
        confidence = max(0, min(1, confidence))
        return Row(page: page, name: name, valueNumber: value.number, valueText: value.number == nil ? value.text : nil, unit: unit,
                   range: range, flag: flag, panel: panel, analyte: analyte?.key, loinc: analyte?.loinc.first,
                   confidence: (confidence * 100).rounded() / 100, unsure: doubts.isEmpty ? nil : doubts.joined(separator: "; "))
    }

    // MARK: Dates

    /// The collection date printed in the report's text ("Collected 03/18/2025", "Entnahme:
    /// 18.03.2025", "Prélèvement le 4 mars 2025"): the first date the document-date scanner
    /// finds after a collection label (`DateScanner.collectionLabels`); day-first when asked,
    /// or when the report says so by its numbers or its separators.
    public static func collectionDate(_ text: String, dayFirst: Bool) -> CalendarDate? {
        let candidate = DateScanner(text: text, preferDayFirst: dayFirst).candidates().first { candidate in
            candidate.guess.label.map(DateScanner.collectionLabels.contains) == true
        }
        guard let guess = candidate?.guess, let day = guess.day else { return nil }
        return CalendarDate(year: guess.year, month: guess.month, day: day)
    }
}
