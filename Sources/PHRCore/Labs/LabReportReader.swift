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
        /// Read from a line of text rather than under a table header (not part of the JSON).
        var fromLine = false

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
        (.value, ["result", "results", "value", "your value", "ergebnis", "resultat", "wert", "resultado", "risultato", "befund", "uitslag", "valeur",
                  "observed value", "observed", "patient result", "your result", "result value", "measured value", "patient value", "messwert",
                  "valeur mesuree", "valor", "valore", "current result", "actual value", "in range", "out of range", "within range",
                  "outside range", "current", "today", "latest", "this result"]),
        (.flag, ["flag", "flags", "abnormal", "h l", "kennung", "indicator", "hinweis", "alert", "markierung", "status", "interpretation",
                 "result flag", "abnormal flag", "bewertung"]),
        (.unit, ["unit", "units", "einheit", "unite", "unites", "unidad", "unidades", "unita", "eenheid", "unita di misura", "unit of measure",
                 "uom"]),
        (.other, ["method", "methode", "metodo", "specimen", "sample", "material", "probe", "comment", "comments", "remarks", "remark", "note", "notes",
                  "kommentar", "commentaire", "previous", "previous result", "previous value", "prior result", "last result", "anteriorite",
                  "anteriorites", "vorwert", "vorbefund", "precedent", "resultat anterieur", "risultato precedente", "resultado anterior",
                  "loinc", "code", "date", "time", "performed at", "lab", "site", "change", "delta", "difference", "risk category", "risk",
                  "category", "technology", "technique", "methodology", "instrument", "analyzer", "analyser", "trend", "history",
                  "cumulative", "prior", "last", "collected", "collection date", "date collected", "drawn", "specimen date", "date time",
                  "collection", "reported", "result date", "order", "ordered", "accession"]),
        (.range, ["reference range", "reference", "range", "ref range", "reference interval", "ref interval", "normal range", "referenz",
                  "referenzbereich", "referenzwerte", "normwert", "normbereich", "valeurs de reference", "valeurs usuelles", "normes",
                  "intervalo de referencia", "valores de referencia", "valori di riferimento", "referentiewaarden", "normal values", "standard range",
                  "biological reference interval", "biological reference range", "bio ref interval", "reference values", "ref values", "expected range",
                  "expected value", "reference limits", "normal limits", "target range", "desirable range"]),
    ]

    static func headerColumn(_ text: String) -> Column? {
        guard text.count <= 60, text.contains(where: \.isLetter) else { return nil }
        // "Reference Range (by age)", "Result (SI)": the column's words without the remark.
        let plain = text.contains("(") ? text.replacingOccurrences(of: #"\s*\([^)]*\)\s*$"#, with: "", options: .regularExpression) : text
        var normal = AnalyteCatalog.normalized(plain.isEmpty ? text : plain)
        // "Current 14/04/2025", "Previous (01/2025)": the column's word without its date.
        while let last = normal.split(separator: " ").last, last.allSatisfy(\.isNumber), normal.contains(" ") {
            normal = String(normal.dropLast(last.count + 1))
        }
        for (column, words) in headerWords where words.contains(normal) { return column }
        // "Result / Résultat": a bilingual header is known by either half.
        if text.contains("/") {
            let halves = text.split(separator: "/").map { AnalyteCatalog.normalized(String($0)) }.filter { !$0.isEmpty }
            if halves.count == 2 {
                for (column, words) in headerWords where words.contains(halves[0]) || words.contains(halves[1]) { return column }
            }
        }
        return nil
    }

    /// A table header printed over two or three lines ("Current" over "14/04/2025",
    /// "Reference" over "Range"): the lines from `index` joined column by column, when together
    /// they are a header that names more columns than the first line alone; nil otherwise.
    static func stackedHeader(_ lines: [[Cell]], at index: Int) -> (cells: [Cell], count: Int)? {
        func named(_ cells: [Cell]) -> Int { cells.filter { headerColumn($0.text) != nil }.count }
        guard lines[index].contains(where: { headerColumn($0.text) != nil }),
              lines[index].allSatisfy({ LabGrammar.value($0.text) == nil }) else { return nil }
        var merged = lines[index]
        var best: (cells: [Cell], count: Int)?
        for count in 2...3 where index + count - 1 < lines.count {
            let next = lines[index + count - 1]
            guard !isHeader(next), let bottom = merged.map(\.y1).max(), let top = next.map(\.y0).min(),
                  top - bottom < max(merged.map { $0.y1 - $0.y0 }.max() ?? 0, 1) * 0.8,
                  next.allSatisfy({ $0.text.count <= 30 && LabGrammar.value($0.text) == nil || $0.text.contains("/") }) else { break }
            for cell in next {
                if let at = merged.firstIndex(where: { min($0.x1, cell.x1) - max($0.x0, cell.x0) > 0 }) {
                    merged[at].text += " " + cell.text
                    merged[at].x0 = min(merged[at].x0, cell.x0)
                    merged[at].x1 = max(merged[at].x1, cell.x1)
                    merged[at].y1 = max(merged[at].y1, cell.y1)
                } else {
                    merged.append(cell)
                }
            }
            merged.sort { $0.x0 < $1.x0 }
            // A header alone gains the columns named on the lines under it ("Test", "Units"
            // vertically centred between "Current" and its date).
            if isHeader(merged), named(merged) > (isHeader(lines[index]) ? named(lines[index]) : 0), named(merged) > named(best?.cells ?? []) {
                best = (merged, count)
            }
        }
        return best
    }

    // MARK: Reading

    /// The rows of one page.
    public static func rows(page: Int, words: [Word], panel initialPanel: String? = nil) -> [Row] {
        var panel = initialPanel
        return rows(page: page, words: words, panel: &panel)
    }

    /// What the reader carries from line to line and page to page.
    struct State {
        var panel: String?
        var header: [(Column, Double, Double)]?
        /// Lines printed on more than one page (running headers and footers, "Page 2 of 3"):
        /// never a panel or a row.
        var furniture: Set<String> = []
        var sex: MedicalID.Sex?
        var age: Double?
        /// A heading read, waiting for the row under it.
        var heading: String?
        var headingX0: Double?
        /// Where the panel's heading stands, and whether its rows stand indented under it: a
        /// row back at the heading's edge is outside the panel (a TSH after an indented panel).
        var panelX0: Double?
        var panelIndented = false
    }

    /// The rows of every page, the panel heading carried over page breaks. `patient` chooses
    /// among ranges printed per sex or age; `age` is in years on the day of the sample.
    public static func rows(pages: [(page: Int, words: [Word])], sex: MedicalID.Sex? = nil, age: Double? = nil) -> [Row] {
        LabGrammar.$pointsGroupThousands.withValue(writesDecimalCommas(pages)) { readRows(pages: pages, sex: sex, age: age) }
    }

    static func readRows(pages: [(page: Int, words: [Word])], sex: MedicalID.Sex?, age: Double?) -> [Row] {
        var state = State(sex: sex, age: age)
        let linesByPage = pages.map { cellLines($0.words) }
        if pages.count >= 2 {
            var seen: [String: Int] = [:]
            for lines in linesByPage {
                for key in Set(lines.map(furnitureKey)) where !key.isEmpty { seen[key, default: 0] += 1 }
            }
            // Repeated lines are few: only they are checked for being a header or a result.
            let repeated = Set(seen.filter { $0.value >= 2 }.keys)
            var furniture = Set<String>()
            for lines in linesByPage {
                for line in lines {
                    let key = furnitureKey(line)
                    if repeated.contains(key), !furniture.contains(key), !isHeader(line), !holdsResult(line) { furniture.insert(key) }
                }
            }
            state.furniture = furniture
        }
        var result: [Row] = []
        for (page, lines) in zip(pages, linesByPage) {
            result += rows(page: page.page, words: page.words, lines: lines, state: &state)
        }
        return result
    }

    static func rows(page: Int, words: [Word], panel: inout String?) -> [Row] {
        var state = State(panel: panel)
        defer { panel = state.panel }
        return rows(page: page, words: words, lines: cellLines(words), state: &state)
    }

    /// Whether a report writes decimals with a comma ("4,21", "0,70 - 1,20"): then a point
    /// between digit groups of three separates thousands ("6.300 /mm³" is 6300, "245.000"
    /// 245000, as Brazilian and German labs print counts), and the text stays as printed.
    static func writesDecimalCommas(_ pages: [(page: Int, words: [Word])]) -> Bool {
        var commas = 0, points = 0
        // "4,21" or "4.21": digits, the mark, one or two digits.
        func decimal(_ text: String, _ mark: Character) -> Bool {
            guard let at = text.firstIndex(of: mark), at != text.startIndex else { return false }
            let fraction = text[text.index(after: at)...]
            return (1...2).contains(fraction.count) && fraction.allSatisfy(\.isASCIIDigit) && text[..<at].allSatisfy(\.isASCIIDigit)
        }
        for page in pages {
            for word in page.words where word.text.count <= 12 {
                if decimal(word.text, ",") { commas += 1 } else if decimal(word.text, ".") { points += 1 }
            }
        }
        return commas >= 3 && commas > points * 3
    }

    /// A line's text as it would repeat on every page, where it stands: "Page 2 of 3" as "page
    /// # of #". A heading repeated on a continuation page stands elsewhere, and stays a heading.
    static func furnitureKey(_ cells: [Cell]) -> String {
        let text = AnalyteCatalog.normalized(cells.map(\.text).joined(separator: " "))
        guard !text.isEmpty else { return "" }
        let band = Int(((cells.map(\.y0).min() ?? 0) / 6).rounded())
        guard ["pag", "seite", "blatt", "feuille"].contains(where: text.contains) else { return "\(band):" + text }
        return "\(band):" + text.replacingOccurrences(of: #"(page|seite|pagina|blatt|feuille|pag)\s*\d+(\s*(of|von|de|di|sur|\s)\s*\d+)?"#, with: "page #",
                                         options: .regularExpression)
    }

    /// Whether a line reads as a result: such a line repeated on several pages is the same
    /// report printed twice (a patient's and a doctor's copy), not a running header, and its rows
    /// are read on every page. A letterhead's address with its numbers is not a result.
    static func holdsResult(_ cells: [Cell]) -> Bool {
        lineRow(cells, page: 0, panel: nil, heading: nil, state: State()) != nil
    }

    /// "Page 2 of 3", "Seite 1/2", "- 2 -": a page number alone on its line.
    static func isPageNumber(_ cells: [Cell]) -> Bool {
        let text = LabGrammar.trimmed(cells.map(\.text).joined(separator: " "))
        guard text.count <= 30, text.contains(where: \.isNumber), let first = text.lowercased().first, "psbf-0123456789".contains(first) else { return false }
        return text.range(of: #"^((page|seite|página|pagina|blatt|feuille|pag\.?)\s*\d+(\s*(of|von|de|di|sur|/)\s*\d+)?|-\s*\d+\s*-|\d+\s*/\s*\d+)$"#,
                          options: [.regularExpression, .caseInsensitive]) != nil
    }

    static func rows(page: Int, words: [Word], lines given: [[Cell]], state: inout State) -> [Row] {
        var lines = given
        var index = 0
        while index < lines.count {
            if let (header, count) = stackedHeader(lines, at: index) {
                lines.replaceSubrange(index..<(index + count), with: [header])
            }
            index += 1
        }
        let headers = lines.map(isHeader)
        // Tables side by side: a line with the name column's header twice splits the page.
        if let headerIndex = headers.firstIndex(of: true) {
            let nameHeaders = lines[headerIndex].filter { headerColumn($0.text) == .name }
            if nameHeaders.count >= 2 {
                let splits = nameHeaders.dropFirst().map { $0.x0 - 1 }
                var result: [Row] = []
                var bounds = [-Double.infinity] + splits + [Double.infinity]
                bounds.sort()
                for index in 0..<(bounds.count - 1) {
                    let (left, right) = (bounds[index], bounds[index + 1])
                    let part = words.filter { $0.x0 >= left && $0.x0 < right }
                    var partState = state
                    partState.header = nil
                    result += rows(page: page, words: part, lines: cellLines(part), state: &partState)
                    state.panel = partState.panel
                }
                return result
            }
        }
        // A page without a header of its own continues the table of the page before.
        var header: [(Column, Double, Double)]? = headers.contains(true) ? nil : state.header
        var result: [Row] = []
        // The cells of the row read last, while the next line may still continue it.
        var open: [Cell]?
        // A heading waits for the row under it (over a page break too, "LIPID PANEL" at the foot
        // of a page): a title above the patient's details is not the panel of the rows below them.
        var heading: String? {
            get { state.heading }
            set { state.heading = newValue }
        }
        // Whether the line before was a row read from a line of text (its range may follow).
        var lineRowOpen = false
        // A table line whose result did not read, perhaps wrapped onto the next line.
        var unfinished: [Cell]?
        // The last heading, for a result written "Resultado: 92 mg/dL" a few lines under its
        // test's name ("GLICOSE", then "Material: Soro", then the result).
        var namingHeading: String?
        // Where the last row read stands: what is right under it may belong to it.
        var rowBottom: Double?
        var rowHeight = 0.0
        var rowNameX0 = 0.0
        var counted = 0
        for (lineIndex, cells) in lines.enumerated() {
            let headingAtStart = heading
            // Where the row appended on this line starts (a wrapped row: its first line).
            var rowStart = cells.first?.x0
            defer {
                if result.count != counted, let x = rowStart {
                    if headingAtStart != nil, result.last?.panel == headingAtStart {
                        state.panelX0 = state.headingX0
                        state.panelIndented = x > (state.headingX0 ?? .infinity) + 4
                    } else if result.last?.panel == nil {
                        state.panelX0 = nil
                        state.panelIndented = false
                    }
                }
                if result.count != counted {
                    counted = result.count
                    rowBottom = cells.map(\.y1).max()
                    rowHeight = cells.map { $0.y1 - $0.y0 }.max() ?? 0
                    rowNameX0 = rowStart ?? 0
                }
            }
            if headers[lineIndex] {
                header = cells.compactMap { cell in headerColumn(cell.text).map { ($0, cell.x0, cell.x1) } }
                state.header = header
                open = nil
                lineRowOpen = false
                continue
            }
            if isPageNumber(cells) || state.furniture.contains(furnitureKey(cells)) { continue }
            var panel = heading ?? state.panel
            if heading == nil, state.panelIndented, let edge = state.panelX0, let x = cells.first?.x0, x <= edge + 2 { panel = nil }
            // Under a row: "Below low reference limit" is its flag; a name that wrapped ("square
            // metres") the rest of its name.
            if let last = result.last, rowBottom.map({ (cells.map(\.y0).min() ?? 0) - $0 < max(rowHeight, 1) * 0.9 }) == true {
                let text = cells.map(\.text).joined(separator: " ")
                if last.flag == nil, let flag = LabGrammar.flag(text) {
                    var row = last
                    row.flag = flag
                    result[result.count - 1] = Self.reassessed(row)
                    rowBottom = cells.map(\.y1).max()
                    continue
                }
                if cells.count == 1, let first = text.first, first.isLowercase, text.count <= 40, !text.contains(where: \.isNumber),
                   lineRow(cells, page: page, panel: nil, heading: nil, state: State()) == nil,
                   abs(cells[0].x0 - rowNameX0) < 4 {
                    var row = last
                    row.name += " " + text
                    result[result.count - 1] = Self.reassessed(row)
                    rowBottom = cells.map(\.y1).max()
                    continue
                }
            }
            if let active = header {
                if let previous = open, let merged = continuation(cells, of: previous, header: active),
                   let row = row(merged, header: active, page: page, panel: state.panel, state: state) {
                    result[result.count - 1] = row
                    open = merged
                    continue
                }
                open = nil
                // A result that wrapped in a narrow column ("Non-" over "Reactive").
                if let failed = unfinished, let merged = continuation(cells, of: failed, header: active, wrappedValue: true),
                   let row = row(merged, header: active, page: page, panel: panel, state: state) {
                    result.append(row)
                    rowStart = merged.first?.x0
                    open = merged
                    unfinished = nil
                    state.panel = panel
                    heading = nil
                    continue
                }
                unfinished = nil
                if let row = row(cells, header: active, page: page, panel: panel, state: state) {
                    result.append(row)
                    open = cells
                    state.panel = panel
                    heading = nil
                    namingHeading = nil
                    lineRowOpen = false
                    continue
                }
                if cells.count >= 2, cells.contains(where: { column(of: $0, header: active) == .value }) { unfinished = cells }
            }
            if let (row, named) = lineRow(cells, page: page, panel: panel, heading: heading ?? namingHeading, state: state) {
                namingHeading = nil
                result.append(row)
                // A heading that named the row ("Hemoglobin A1c" over "Your value: 5.4 %") is
                // not a panel.
                if !named { state.panel = panel }
                heading = nil
                open = nil
                lineRowOpen = true
                continue
            }
            if lineRowOpen, let last = result.last, last.range == nil, let (range, unit) = rangeLine(cells) {
                // "Normal range: 4.0 - 5.6 %" under "Your value: 5.4 %".
                var row = last
                row.range = range
                if row.unit == nil { row.unit = unit }
                result[result.count - 1] = Self.reassessed(row)
                lineRowOpen = false
                continue
            }
            lineRowOpen = false
            if let found = panelHeading(cells), rowBottom == nil || (cells.first?.x0 ?? 0) <= rowNameX0 + 4 {
                namingHeading = found
                // "HbAlc" read by OCR over the HbA1c rows.
                heading = cells.contains { $0.confidence != nil } ? AnalyteCatalog.ocrCorrected(found)?.name ?? found : found
                state.headingX0 = cells.first?.x0
            } else {
                // A result that did not read yet may be finished by the next line, under the heading.
                if unfinished == nil { heading = nil }
                if header != nil && endsTable(cells) { header = nil }
            }
        }
        return result
    }

    /// Words grouped into visual lines by where they stand (a word joins the line whose middle
    /// is within half a word's height of its own; the reading-order `line` of a layout may put
    /// a table's columns in separate lines), and each line into cells at gaps wider than a space.
    static func cellLines(_ words: [Word]) -> [[Cell]] {
        let sorted = words.filter { $0.text.contains { $0 != " " && $0 != "\t" && $0 != "\u{00A0}" } }
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
    static func continuation(_ cells: [Cell], of previous: [Cell], header: [(Column, Double, Double)], wrappedValue: Bool = false) -> [Cell]? {
        guard !cells.isEmpty, let rowTop = previous.map(\.y0).min(), let rowBottom = previous.map(\.y1).max(),
              let top = cells.map(\.y0).min() else { return nil }
        let height = max(rowBottom - rowTop, 1)
        guard top > rowTop, top - rowBottom < height * 0.5 else { return nil }
        var merged = previous
        for cell in cells {
            let column = column(of: cell, header: header)
            guard column == .unit || column == .range || wrappedValue && column == .value,
                  let index = merged.firstIndex(where: { abs($0.x0 - cell.x0) < 3 && Self.column(of: $0, header: header) == column }) else {
                return nil
            }
            // Ranges by sex or age, one to a line, stay apart: "Male: 13.5 - 17.5; Female: ...".
            let joiner = LabGrammar.population(cell.text) != nil ? "; "
                : merged[index].text.hasSuffix("/") || merged[index].text.hasSuffix("-") ? "" : " "
            merged[index].text += joiner + cell.text
            merged[index].x1 = max(merged[index].x1, cell.x1)
            merged[index].y1 = max(merged[index].y1, cell.y1)
        }
        return merged
    }

    /// A heading line: a single cell of words, no numbers that look like a result.
    static func panelHeading(_ cells: [Cell]) -> String? {
        // OCR's ink-tight boxes widen the spaces of a larger heading into gaps between cells:
        // words closer than the line is high are one heading, a table's columns stand further apart.
        let height = cells.map { $0.y1 - $0.y0 }.max() ?? 0
        guard !cells.isEmpty, zip(cells, cells.dropFirst()).allSatisfy({ $1.x0 - $0.x1 < height * 1.2 }) else { return nil }
        let text = cells.map(\.text).joined(separator: " ")
        guard text.count <= 80, text.first?.isLetter == true, !text.contains(where: \.isNumber) || cells.count == 1,
              LabGrammar.value(text) == nil, !text.hasSuffix(":"), !text.contains(":") else { return nil }
        let lower = text.lowercased()
        if LabGrammar.flag(text) != nil || lower.contains("reference") || lower.contains("interval") { return nil }
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

    /// Words of a column that is neither unit nor range: a specimen, a method, a status.
    static let otherColumnWords: Set<String> = ["serum", "plasma", "whole blood", "urine", "blood", "edta", "edta blood", "citrate", "csf", "heparin",
                                               "ise", "ise indirekt", "ise indirect", "enzymatic", "enzymatisch", "ifcc", "hplc", "immunoassay", "clia",
                                               "eclia", "photometric", "photometrie", "calculated", "berechnet", "final", "preliminary", "corrected",
                                               "immunturbidimetrie", "immunoturbidimetric", "turbidimetric", "colorimetric", "flow cytometry", "impedance", "c l i a",
                                               "photometry", "e c l i a", "c m i a", "h p l c", "nephelometry", "spectrophotometry"]

    static func row(_ cells: [Cell], header: [(Column, Double, Double)], page: Int, panel: String?, state: State = State()) -> Row? {
        guard cells.count >= 2 else { return nil }
        var byColumn: [Column: [Cell]] = [:]
        for cell in cells { byColumn[column(of: cell, header: header), default: []].append(cell) }
        var doubts: [String] = []
        // A column the header does not name, found by what it holds: a status (High, Normal)
        // or a specimen or method that stands under the unit or range column.
        for column in [Column.unit, .range] {
            guard let found = byColumn[column], found.count > 1 else { continue }
            var kept: [Cell] = []
            for cell in found {
                if LabGrammar.flag(cell.text) != nil, !LabGrammar.isUnit(cell.text), byColumn[.flag] == nil {
                    byColumn[.flag] = [cell]
                } else if otherColumnWords.contains(AnalyteCatalog.normalized(cell.text)) {
                    continue
                } else {
                    kept.append(cell)
                }
            }
            byColumn[column] = kept
        }
        // The name: the name column's text, else the first cell when it is words.
        var nameCells = byColumn[.name] ?? []
        if nameCells.isEmpty, let first = cells.first, first.text.first?.isLetter == true, LabGrammar.value(first.text) == nil {
            nameCells = [first]
            doubts.append("name not under the test column")
        }
        // Without the colon a name may end in, or the speck OCR reads as a full stop.
        let name = String(LabGrammar.trimmed(nameCells.map(\.text).joined(separator: " ")).reversed().drop { " :.,".contains($0) }.reversed())
        // "% Transferrin saturation", "25-OH Vitamin D": a name may start with a sign or a
        // number when it stands in the name column and has words.
        guard !name.isEmpty, name.first?.isLetter == true || name.first == "(" || !(byColumn[.name] ?? []).isEmpty
                && name.contains(where: \.isLetter) && LabGrammar.value(name) == nil && (name.first == "%" || name.first?.isNumber == true)
        else { return nil }
        // The value: the result column; a flag or unit that ran into it is split off.
        var valueCells = byColumn[.value] ?? []
        // An unlabelled column of German "+"/"-" marks beside the result: a flag, judged below.
        var signFlag: String?
        if valueCells.count > 1, let sign = valueCells.last?.text, ["+", "++", "-", "--"].contains(sign) {
            signFlag = sign
            valueCells.removeLast()
        }
        var unitText = byColumn[.unit]?.map(\.text).joined(separator: " ")
        let rangeText = byColumn[.range]?.map(\.text).joined(separator: " ")
        // A row without a result in the result column is a heading or a note, not a result.
        if valueCells.isEmpty { return nil }
        if valueCells.count > 1 { doubts.append("several cells under the result column") }
        var valueText = valueCells.map(\.text).joined(separator: " ")
        // "4,21 -", a flag column of "+" and "-": German marks for above and below the range.
        // A lone "-" is as often an empty cell, so it counts only when the range agrees.
        for sign in [" --", " -", " ++", " +"] where signFlag == nil && valueText.hasSuffix(sign) {
            signFlag = LabGrammar.trimmed(sign)
            valueText = String(valueText.dropLast(sign.count))
            break
        }
        // A Status column beside the Flag column ("High" and "Final"): the status is not the flag.
        if let flags = byColumn[.flag], flags.count > 1 {
            byColumn[.flag] = flags.filter { !otherColumnWords.contains(AnalyteCatalog.normalized($0.text)) }
        }
        if let text = byColumn[.flag]?.map(\.text).joined(separator: " "), ["+", "++", "-", "--"].contains(text) {
            signFlag = text
            byColumn[.flag] = nil
        }
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
        guard var value = parsed else { return nil }
        var critical = false
        if let text = byColumn[.flag]?.map(\.text).joined(separator: " "), !text.isEmpty {
            if let flag = LabGrammar.flag(text) {
                if let glued = value.flag, glued != flag { doubts.append("flag column says \(flag.rawValue), value says \(glued.rawValue)") }
                value.flag = flag
            } else if LabGrammar.isCritical(text) {
                critical = true
            } else {
                doubts.append("'\(text)' in the flag column is not a flag")
            }
        }
        var range: ReferenceRange?
        var unit = unitText.map(LabGrammar.trimmed)
        if let rangeText, !rangeText.isEmpty {
            (range, unit) = Self.range(rangeText, unit: unit, state: state)
        }
        // A unit and the range beside it read as one cell ("g/dL 6 mo - 2 y: 10.5 - 13.5").
        if range == nil, let text = unit, !LabGrammar.isUnit(text), let space = text.firstIndex(of: " "),
           LabGrammar.isUnit(String(text[..<space])) {
            let rest = String(text[text.index(after: space)...])
            let (split, _) = Self.range(rest, unit: nil, state: state)
            if let split, split.low != nil || split.high != nil || split.text?.contains(";") == true {
                range = split
                unit = String(text[..<space])
            }
        }
        if let sign = signFlag, let number = value.number, value.flag == nil {
            switch (sign, LabFlag.computed(number, range: range)) {
            case ("+", .high?), ("+", .criticalHigh?): value.flag = .high
            case ("++", .high?), ("++", .criticalHigh?): value.flag = .criticalHigh
            case ("-", .low?), ("-", .criticalLow?): value.flag = .low
            case ("--", .low?), ("--", .criticalLow?): value.flag = .criticalLow
            case ("+", _), ("++", _): doubts.append("marked \(sign), but its range does not say it is high")
            default: break
            }
        }
        // OCR reads "uIU/mL" as "ulU/mL" and "x10E3/uL" as "X10E3/uL": a unit that only such a
        // confusion keeps from being known is read as the known one.
        if let text = unit, byColumn[.unit]?.contains(where: { $0.confidence != nil }) == true, LabUnits.ucum(text) == nil,
           let corrected = LabGrammar.ocrCorrectedUnit(text) {
            unit = corrected
        }
        let ocr = (nameCells + valueCells + (byColumn[.range] ?? []) + (byColumn[.unit] ?? []) + (byColumn[.flag] ?? []))
            .compactMap(\.confidence).min()
        return assemble(name: name, value: value, unit: unit, range: range, critical: critical, doubts: doubts, ocr: ocr,
                        page: page, panel: panel, fromLine: false)
    }

    /// A range cell's range, and the unit when it is printed there ("30 - 400 ng/mL"); ranges
    /// printed per sex or age ("Male: 13.5 - 17.5; Female: 12.0 - 15.5") are chosen for the patient.
    static func range(_ written: String, unit: String?, state: State) -> (ReferenceRange?, String?) {
        var text = LabGrammar.trimmed(written)
        // "(4.5-11.0)", "[3.9-5.5]": the range without its brackets.
        if let first = text.first, let last = text.last, ["(": ")", "[": "]"][first] == last {
            text = LabGrammar.trimmed(text.dropFirst().dropLast())
        }
        if text.contains(";"), let chosen = LabGrammar.populationRange(text, sex: state.sex, age: state.age) { return (chosen, unit) }
        var range = LabGrammar.range(text)
        var unit = unit
        // A unit printed after the range in the same cell: "30 - 400 ng/mL".
        if let parsedRange = range, parsedRange.low == nil, parsedRange.high == nil {
            var parts = text.split(separator: " ").map(String.init)
            var peeled: String?
            if parts.count >= 3, LabUnits.ucum(parts.suffix(2).joined(separator: " ")) != nil {
                peeled = parts.suffix(2).joined(separator: " ")
                parts.removeLast(2)
            } else if parts.count >= 2, LabGrammar.isUnit(parts.last!) {
                peeled = parts.removeLast()
            }
            if let peeled, let inner = LabGrammar.range(parts.joined(separator: " ")), inner.low != nil || inner.high != nil {
                range = ReferenceRange(low: inner.low, high: inner.high, text: parts.joined(separator: " "))
                if unit == nil || unit?.isEmpty == true { unit = peeled }
            }
        }
        return (range, unit)
    }

    /// The row from what was read of it: the analyte it names, the flag the lab printed (a
    /// "critical" without a direction takes the range's), and every reason to doubt it,
    /// including a value or unit the analyte cannot have.
    static func assemble(name: String, value: LabGrammar.Value, unit: String?, range: ReferenceRange?, critical: Bool, doubts: [String],
                         ocr: Double?, page: Int, panel: String?, fromLine: Bool) -> Row {
        var doubts = doubts
        var name = name
        var unit = unit.map(LabGrammar.trimmed)
        if ocr != nil, let text = unit, LabUnits.ucum(text) == nil, let corrected = LabGrammar.ocrCorrectedUnit(text) { unit = corrected }
        if let text = unit, !text.isEmpty, !LabGrammar.isUnit(text) { doubts.append("'\(text)' is not a unit phr knows") }
        if unit?.isEmpty == true { unit = nil }
        let panelWords = panel.map(AnalyteCatalog.normalized) ?? ""
        let specimen: Analyte.Specimen = ["urin", "harn"].contains { panelWords.contains($0) } ? .urine : .blood
        var analyte = AnalyteCatalog.lookup(name, unit: unit, specimen: specimen)
        // OCR read "Iron" as "lron": the name a swap of the letters it confuses makes known.
        if analyte == nil, ocr != nil, let corrected = AnalyteCatalog.ocrCorrected(name, unit: unit, specimen: specimen) {
            (name, analyte) = (corrected.name, corrected.analyte)
        }
        var flag = value.flag
        if let number = value.number {
            let computed = LabFlag.computed(number, range: range)
            if value.marked && flag == nil { flag = computed ?? .abnormal }
            if critical {
                switch computed {
                case .high?, .criticalHigh?: flag = .criticalHigh
                case .low?, .criticalLow?: flag = .criticalLow
                default:
                    flag = .abnormal
                    doubts.append("marked critical, but its range does not say which way")
                }
            }
            let bounded = range?.low != nil || range?.high != nil
            if let flag, bounded, (flag == .high || flag == .low) && computed != flag || flag == .normal && computed != nil {
                doubts.append("flag \(flag.rawValue) disagrees with the range")
            }
        } else if critical {
            flag = .abnormal
        }
        if let analyte {
            if let doubt = AnalytePlausibility.doubt(analyte: analyte, value: value.number, unit: unit) { doubts.append(doubt) }
            if fromLine, value.number != nil, unit == nil, analyte.conventionalUnit != nil, AnalytePlausibility.unitless(analyte) == false {
                doubts.append("no unit printed beside the result")
            }
        } else if fromLine {
            doubts.append("'\(name)' is not a test phr knows, read from a line of text")
        }
        var confidence = 1.0
        if analyte == nil { confidence -= 0.15 }
        if value.number != nil && unit == nil && analyte?.conventionalUnit != nil { confidence -= 0.1 }
        if value.number != nil && range == nil { confidence -= 0.05 }
        confidence -= Double(doubts.count) * 0.3
        if let ocr {
            confidence *= max(0, min(1, ocr / 100))
            if ocr < 60 { doubts.append("the scan is hard to read here (OCR confidence \(Int(ocr)))") }
        }
        confidence = max(0, min(1, confidence))
        var row = Row(page: page, name: name, valueNumber: value.number, valueText: value.number == nil ? value.text : nil, unit: unit,
                      range: range, flag: flag, panel: panel, analyte: analyte?.key, loinc: analyte?.loinc.first,
                      confidence: (confidence * 100).rounded() / 100, unsure: doubts.isEmpty ? nil : doubts.joined(separator: "; "))
        row.fromLine = fromLine
        return row
    }

    /// A row checked again once a line under it gave it a flag, the rest of its name or its
    /// range: the doubts that depend on those are worked out afresh, every other doubt (a scan
    /// hard to read, a critical mark without a direction, cells that did not read) is kept.
    static func reassessed(_ row: Row) -> Row {
        let recomputed = ["disagrees", "not a possible", "is not a unit of", "not a unit phr knows", "no unit printed", "not a test phr knows",
                          "joined from the line below"]
        let kept = row.unsure?.components(separatedBy: "; ").filter { doubt in !recomputed.contains { doubt.contains($0) } } ?? []
        let value = LabGrammar.Value(number: row.valueNumber, text: row.valueText, flag: row.flag)
        var result = assemble(name: row.name, value: value, unit: row.unit, range: row.range, critical: false, doubts: kept, ocr: nil,
                              page: row.page, panel: row.panel, fromLine: row.fromLine)
        // "Sodium" with "haemolysed sample" joined: no longer a test phr knows.
        if row.analyte != nil, result.analyte == nil {
            let doubt = "the name joined from the line below is not a test phr knows"
            result.unsure = [result.unsure, doubt].compactMap { $0 }.joined(separator: "; ")
            result.confidence = min(result.confidence, 0.5)
        }
        if result.unsure != nil { result.confidence = min(result.confidence, row.confidence) }
        return result
    }

    // MARK: Rows written as lines

    /// Names that stand for "the result" in a line, whose test is named by the line above:
    /// "Your value: 5.4 %" under "Hemoglobin A1c".
    static let valueLabels: Set<String> = ["your value", "value", "result", "your result", "results", "ergebnis", "resultat", "resultado",
                                           "valeur", "wert", "risultato", "observed value", "patient value", "current value", "latest value"]

    /// A result written as a line of text rather than a table row, found by what phr knows:
    /// a test name (from the catalogue), a result, and a unit that measures that test, then
    /// the flag and the range in any of the ways labs print them:
    /// `Haemoglobin: 13.2 g/dL (Ref: 13.0 - 17.0)`, `Glucose, fasting ........ 5.4 mmol/L
    /// [3.9-5.5]`, `• TSH: 5.8 mIU/L (High)`, a table row with no header above it. A name phr
    /// does not know is proposed, unsure, only when the line has a unit and a bounded range.
    /// `named` is true when the name came from `heading` (the line is "Your value: ...").
    static func lineRow(_ cells: [Cell], page: Int, panel: String?, heading: String?, state: State) -> (row: Row, named: Bool)? {
        var tokens = cells.flatMap { cell in cell.text.split(separator: " ").map(String.init) }
        if let first = tokens.first {
            if ["•", "·", "-", "–", "*", "‣", "◦", "▪", "○", "■", "□", "→", "⁃"].contains(first) {
                tokens.removeFirst()
            } else if let mark = first.first, "•·‣◦▪■→".contains(mark) {
                tokens[0] = String(first.dropFirst())
            }
        }
        guard tokens.count >= 2, tokens.count <= 40,
              tokens.dropFirst().contains(where: { token in token.contains(where: \.isNumber) || LabGrammar.value(token) != nil }) else { return nil }
        let ocr = cells.contains { $0.confidence != nil }
        // Where the result starts: after the longest name phr knows, else after the first words.
        var first: (Int, Int, LabGrammar.Value, String)?
        var known: (Int, Int, LabGrammar.Value, String)?
        for start in 1..<tokens.count {
            guard let (value, end) = valueAt(tokens, start) else { continue }
            let name = lineName(tokens[..<start])
            guard isLineName(name) else { continue }
            if first == nil { first = (start, end, value, name) }
            let normal = AnalyteCatalog.normalized(name)
            if AnalyteCatalog.lookup(name) != nil || valueLabels.contains(normal) || ocr && AnalyteCatalog.ocrCorrected(name) != nil {
                known = (start, end, value, name)
            }
        }
        guard let chosen = known ?? first else { return nil }
        let end = chosen.1
        var value = chosen.2
        var name = chosen.3
        var named = false
        if valueLabels.contains(AnalyteCatalog.normalized(name)) {
            guard let heading else { return nil }
            name = heading
            named = true
        }
        // After the result: unit, flag, then the range (a flag may also follow the range).
        var unit: String?
        var critical = false
        var rangeTokens: [String] = []
        var index = end
        while index < tokens.count {
            let token = tokens[index]
            if rangeTokens.isEmpty {
                if unit == nil, index + 1 < tokens.count, LabUnits.ucum(token + " " + tokens[index + 1]) != nil {
                    unit = token + " " + tokens[index + 1]
                    index += 2
                    continue
                }
                if unit == nil, LabGrammar.isUnit(token) {
                    unit = token
                    index += 1
                    continue
                }
                if value.flag == nil, let flag = LabGrammar.besideNumber(token) ?? (token.hasPrefix("(") || token.hasPrefix("[") ? LabGrammar.flag(token) : nil) {
                    value.flag = flag
                    index += 1
                    continue
                }
                if value.flag == nil, LabGrammar.isCritical(token) {
                    critical = true
                    index += 1
                    continue
                }
            } else if index == tokens.count - 1, value.flag == nil, token.first == "[" || token.first == "(" || token.uppercased() == token,
                      let flag = LabGrammar.flag(token) {
                value.flag = flag
                index += 1
                continue
            }
            rangeTokens.append(token)
            index += 1
        }
        var range: ReferenceRange?
        var lineDoubts: [String] = []
        if !rangeTokens.isEmpty {
            var text = rangeTokens.joined(separator: " ").filter { !"()[]{}".contains($0) }
            text = LabGrammar.rangeLabelRemoved(text).trimmingCharacters(in: CharacterSet(charactersIn: " ;,."))
            (range, unit) = Self.range(text, unit: unit, state: state)
            // What follows the result is not a range: a comment, a date, another column's words.
            if let found = range, found.low == nil, found.high == nil, LabGrammar.value(text) == nil {
                if known == nil { return nil }
                range = nil
                // "6.5 % or higher: diabetes", a second result on the line: not read, so marked.
                lineDoubts.append("words after the result not read: '\(text.prefix(40))'")
            }
        }
        let ocrConfidence = cells.compactMap(\.confidence).min()
        // A result under its label ("Resultado: 92 mg/dL" under "GLICOSE") is a result by its
        // shape; its name, if phr does not know it, is marked.
        if !named, AnalyteCatalog.lookup(name, unit: unit) == nil, !ocr || AnalyteCatalog.ocrCorrected(name, unit: unit) == nil {
            // An unknown name: only a line shaped like a result (a number, a unit, a range).
            guard value.number != nil, let unit, LabGrammar.isUnit(unit), range?.low != nil || range?.high != nil else { return nil }
        }
        let row = assemble(name: name, value: value, unit: unit, range: range, critical: critical, doubts: lineDoubts,
                           ocr: ocrConfidence, page: page, panel: named ? nil : panel, fromLine: true)
        return (row, named)
    }

    /// The result that starts at `tokens[start]` and the index after it: a number (a flag may
    /// be glued to it), a comparison ("< 0.5" in one or two words), a word or two of a
    /// qualitative result ("Not detected").
    static func valueAt(_ tokens: [String], _ start: Int) -> (LabGrammar.Value, Int)? {
        let token = tokens[start]
        if ["<", ">", "≤", "≥", "<=", ">="].contains(token), start + 1 < tokens.count, LabGrammar.number(tokens[start + 1]) != nil {
            return (LabGrammar.Value(text: token + tokens[start + 1]), start + 2)
        }
        if start + 1 < tokens.count, let value = LabGrammar.value(token + " " + tokens[start + 1]), value.number == nil,
           LabGrammar.textResults.contains((token + " " + tokens[start + 1]).lowercased()) {
            return (value, start + 2)
        }
        guard let value = LabGrammar.value(token) else { return nil }
        return (value, start + 1)
    }

    /// The name part of a line: without its colon, dot leaders and bullet.
    static func lineName(_ tokens: ArraySlice<String>) -> String {
        let kept = tokens.filter { token in !token.allSatisfy { ".…_·:-–".contains($0) } }
        var name = LabGrammar.trimmed(kept.joined(separator: " "))
        while let last = name.last, ":.…_=".contains(last) { name.removeLast() }
        return LabGrammar.trimmed(name)
    }

    /// Whether words before a result can be a test's name: letters first, not a sentence, no
    /// measured number or unit inside.
    static func isLineName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter, name.count <= 60 else { return false }
        let words = name.split(separator: " ")
        guard words.count <= 8, !name.contains("="), !name.contains(";") else { return false }
        // "b) K(s)": a list item or a formula, not a test's name.
        if let close = name.firstIndex(of: ")"), name.firstIndex(of: "(").map({ $0 > close }) ?? true { return false }
        return !words.contains { word in
            let text = String(word)
            return (LabGrammar.number(text) != nil && (text.contains(".") || text.contains(","))) || LabUnits.ucum(text) != nil && text.contains("/")
                || text.contains("@") || text.hasSuffix(":") && word != words.last
        }
    }

    /// A line that holds only a range under its label ("Normal range: 4.0 - 5.6 %", "(Ref:
    /// 13 - 17)"), and the unit printed with it.
    static func rangeLine(_ cells: [Cell]) -> (ReferenceRange, String?)? {
        let written = cells.map(\.text).joined(separator: " ").filter { !"()[]".contains($0) }.trimmingCharacters(in: .whitespaces)
        let text = LabGrammar.rangeLabelRemoved(written)
        guard text != written else { return nil }
        let (range, unit) = Self.range(text, unit: nil, state: State())
        guard let range, range.low != nil || range.high != nil else { return nil }
        return (range, unit)
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
        if let guess = candidate?.guess, let day = guess.day { return CalendarDate(year: guess.year, month: guess.month, day: day) }
        // A "Collected" column: the label heads a table whose rows start with the date.
        let lines = text.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() where index + 1 < lines.count {
            let words = TextNormalizer.fold(line).split(separator: " ").map(String.init)
            guard let first = words.first, DateScanner.collectionLabels.contains(TextNormalizer.phrase(first))
                    || words.count >= 2 && DateScanner.collectionLabels.contains(TextNormalizer.phrase(words[0] + " " + words[1])) else { continue }
            let next = DateScanner(text: lines[index + 1], preferDayFirst: dayFirst).candidates().first
            if let guess = next?.guess, let day = guess.day, lines[index + 1].first?.isNumber == true {
                return CalendarDate(year: guess.year, month: guess.month, day: day)
            }
        }
        return nil
    }
}
