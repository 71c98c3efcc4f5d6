import Foundation
import PHRTypesetting

/// The lab reports `phr lab extract` is tested on: four layouts real laboratories use, each
/// written from one list of results (`LabResultSpec`) that also becomes the expected rows
/// (`*.expected.json` beside the PDF), so the tests compare extraction with what was printed.
///
/// - `lab-report-us-panel.pdf`: a US panel with the flags in their own column, month-first dates.
/// - `lab-report-eu-decimal-comma.pdf`: a German report, decimal commas, one-sided ranges
///   (`< 5,0`, `≥ 60`), flags glued to the value (`13,9 H`, `4,1*`), day-first dates.
/// - `lab-report-two-column.pdf`: two result tables side by side on one page.
/// - `lab-report-multi-page.pdf`: three pages, the table header and a running header repeated.

/// One printed result and what it means.
struct LabResultSpec: Sendable {
    enum Value: Sendable {
        case number(Double, decimals: Int)
        case text(String)
    }

    enum Range: Sendable {
        case between(Double, Double, decimals: Int)
        /// "<", "≤": the upper bound only.
        case below(String, Double, decimals: Int)
        /// ">", "≥": the lower bound only.
        case above(String, Double, decimals: Int)
        case text(String)
    }

    var name: String
    var value: Value
    var flag: String?
    var unit: String?
    var range: Range?

    init(_ name: String, _ value: Value, _ flag: String? = nil, _ unit: String?, _ range: Range?) {
        self.name = name
        self.value = value
        self.flag = flag
        self.unit = unit
        self.range = range
    }

    static func n(_ value: Double, _ decimals: Int = 0) -> Value { .number(value, decimals: decimals) }
    static func r(_ low: Double, _ high: Double, _ decimals: Int = 0) -> Range { .between(low, high, decimals: decimals) }

    /// How a layout prints numbers, ranges and flags.
    struct Style: Sendable {
        var decimalComma = false
        var dash = " - "
        /// Flags in their own column (nil), or after the value with this separator ("" glued, " " spaced).
        var gluedFlag: String? = nil
        /// Abnormal values marked with "*" instead of the letter.
        var star = false
        var comparatorSpace = ""
    }

    static func format(_ value: Double, decimals: Int, style: Style) -> String {
        let text = String(format: "%.\(decimals)f", value)
        return style.decimalComma ? text.replacingOccurrences(of: ".", with: ",") : text
    }

    func valueText(_ style: Style) -> String {
        switch value {
        case .number(let number, let decimals):
            let text = Self.format(number, decimals: decimals, style: style)
            guard let flag, let separator = style.gluedFlag else { return text }
            return style.star ? text + "*" : text + separator + flag
        case .text(let text):
            return text
        }
    }

    func rangeText(_ style: Style) -> String {
        switch range {
        case .between(let low, let high, let decimals)?:
            return Self.format(low, decimals: decimals, style: style) + style.dash + Self.format(high, decimals: decimals, style: style)
        case .below(let sign, let high, let decimals)?: return sign + style.comparatorSpace + Self.format(high, decimals: decimals, style: style)
        case .above(let sign, let low, let decimals)?: return sign + style.comparatorSpace + Self.format(low, decimals: decimals, style: style)
        case .text(let text)?: return text
        case nil: return ""
        }
    }

    /// The table cells of this result: name, value (in the alert tone when flagged), the flag
    /// when the layout has a flag column, unit and range.
    func cells(_ style: Style, flagColumn: Bool) -> Table.Row {
        let value = valueText(style)
        var cells: [Table.Cell] = [.init(name), flag == nil ? .init(value) : .init(value, tone: .alert)]
        if flagColumn { cells.append(.init(flag ?? "", tone: .alert)) }
        return .values(cells + [.init(unit ?? ""), .init(rangeText(style))])
    }

    /// The row `phr lab extract` should find, as JSON.
    func expected(page: Int, panel: String?, style: Style) -> [String: Any] {
        var row: [String: Any] = ["page": page, "name": name]
        switch value {
        case .number(let number, _): row["value_number"] = number
        case .text(let text): row["value_text"] = text
        }
        if let flag { row["flag"] = flag }
        if let unit { row["unit"] = unit }
        if let panel { row["panel"] = panel }
        switch range {
        case .between(let low, let high, _)?: row["range_low"] = low; row["range_high"] = high
        case .below(_, let high, _)?: row["range_high"] = high
        case .above(_, let low, _)?: row["range_low"] = low
        default: break
        }
        if range != nil { row["range_text"] = rangeText(style) }
        return row
    }
}

/// A lab report sample that also states the rows it prints.
protocol LabReportSample: SampleDocument {
    /// The rows as they should be read, in reading order, as JSON objects.
    var expectedRows: [[String: Any]] { get }
    var collected: String { get }
}

extension LabReportSample {
    /// The metadata every lab sample carries, with its own title.
    static func labMetadata(title: String) -> PDFMetadata {
        PDFMetadata(title: title, author: "\(SampleCast.laboratory.name) (fictitious)",
                    subject: "Synthetic sample laboratory report for phr, not a real medical record", keywords: "sample, synthetic, laboratory")
    }

    /// The laboratory's letterhead and the boxed patient and date fields above the results.
    static func drawHeading(_ flow: DocumentFlow, title: String, subtitle: String, fields: [Field], after: Double = 12) {
        Letterhead(organization: SampleCast.laboratory, title: title, subtitle: subtitle).draw(in: flow)
        flow.fields(fields, columns: 2, boxed: true, after: after)
    }

    /// `{"document", "collected", "rows"}` with sorted keys, for the tests.
    func expectedJSON() throws -> Data {
        let object: [String: Any] = ["document": fileName, "collected": collected, "rows": expectedRows]
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }
}

/// Draws a results table by hand at a given x and width: header row, then rows, no page flow
/// (used for the side-by-side layout, which the flow's full-width tables cannot draw).
struct PlainResultsTable {
    var titles: [String]
    var weights: [Double]
    var alignments: [TextStyle.Alignment]
    var fontSize = 8.4

    /// Draws at (`x`, `y`) across `width`; returns the y below the table.
    func draw(_ rows: [[String]], groups: [Int: String], on canvas: PDFCanvas, x: Double, y: Double, width: Double, accent: Color) -> Double {
        let total = weights.reduce(0, +)
        let widths = weights.map { width * $0 / total }
        let header = TextStyle(size: fontSize - 0.6, bold: true, color: .ink)
        let body = TextStyle(size: fontSize)
        var top = y
        canvas.line(fromX: x, y: top, toX: x + width, y: top, width: 0.9, color: accent)
        var left = x
        for (index, title) in titles.enumerated() {
            canvas.drawText(.plain(title), x: left + 3, y: top + 3, width: widths[index] - 6, style: header.aligned(alignments[index]))
            left += widths[index]
        }
        top += fontSize + 9
        canvas.line(fromX: x, y: top, toX: x + width, y: top, width: 0.6, color: accent)
        for (rowIndex, row) in rows.enumerated() {
            if let group = groups[rowIndex] {
                canvas.drawText(.plain(group), x: x + 3, y: top + 4, width: width - 6, style: body.emboldened)
                top += fontSize + 8
            }
            left = x
            // A cell that wraps ("mL/min/" over "1.73m2") makes its row taller, as a real table does.
            var height = fontSize
            for (index, cell) in row.enumerated() {
                let style = cell.hasSuffix(" H") || cell.hasSuffix(" L") ? body.emboldened.colored(.alert) : body
                canvas.drawText(.plain(cell), x: left + 3, y: top + 3, width: widths[index] - 6, style: style.aligned(alignments[index]))
                height = max(height, canvas.measureText(.plain(cell), width: widths[index] - 6, style: style).height)
                left += widths[index]
            }
            top += height + 6
        }
        canvas.line(fromX: x, y: top, toX: x + width, y: top, width: 0.9, color: accent)
        return top
    }
}

// MARK: - US panel, flags in a column

struct LabReportUSPanelDocument: LabReportSample {
    let fileName = "lab-report-us-panel.pdf"
    let collected = "2025-09-08"
    private let lab = SampleCast.laboratory
    static let style = LabResultSpec.Style()
    typealias R = LabResultSpec

    static let sections: [(String, [LabResultSpec])] = [
        ("Comprehensive metabolic panel", [
            R("Glucose", R.n(112), "H", "mg/dL", R.r(65, 99)),
            R("BUN", R.n(14), nil, "mg/dL", R.r(6, 24)),
            R("Creatinine", R.n(1.08, 2), nil, "mg/dL", R.r(0.76, 1.27, 2)),
            R("eGFR", R.n(84), nil, "mL/min/1.73m2", .above(">", 59, decimals: 0)),
            R("BUN/Creatinine Ratio", R.n(13), nil, nil, R.r(9, 20)),
            R("Sodium", R.n(139), nil, "mmol/L", R.r(134, 144)),
            R("Potassium", R.n(5.4, 1), "H", "mmol/L", R.r(3.5, 5.2, 1)),
            R("Chloride", R.n(101), nil, "mmol/L", R.r(96, 106)),
            R("Carbon Dioxide, Total", R.n(23), nil, "mmol/L", R.r(20, 29)),
            R("Calcium", R.n(9.6, 1), nil, "mg/dL", R.r(8.7, 10.2, 1)),
            R("Protein, Total", R.n(7.1, 1), nil, "g/dL", R.r(6.0, 8.5, 1)),
            R("Albumin", R.n(4.6, 1), nil, "g/dL", R.r(4.1, 5.1, 1)),
            R("Bilirubin, Total", R.n(0.4, 1), nil, "mg/dL", R.r(0.0, 1.2, 1)),
            R("Alkaline Phosphatase", R.n(71), nil, "IU/L", R.r(44, 121)),
            R("AST (SGOT)", R.n(22), nil, "IU/L", R.r(0, 40)),
            R("ALT (SGPT)", R.n(58), "H", "IU/L", R.r(0, 44)),
        ]),
        ("Lipid panel", [
            R("Cholesterol, Total", R.n(241), "H", "mg/dL", R.r(100, 199)),
            R("Triglycerides", R.n(187), "H", "mg/dL", .below("<", 150, decimals: 0)),
            R("HDL Cholesterol", R.n(38), "L", "mg/dL", .above(">", 39, decimals: 0)),
            R("LDL Chol Calc (NIH)", R.n(166), "H", "mg/dL", R.r(0, 99)),
        ]),
        ("Thyroid and diabetes", [
            R("TSH", R.n(2.310, 3), nil, "uIU/mL", R.r(0.450, 4.500, 3)),
            R("Hemoglobin A1c", R.n(6.1, 1), "H", "%", R.r(4.8, 5.6, 1)),
            R("Vitamin D, 25-Hydroxy", R.n(24.1, 1), "L", "ng/mL", R.r(30.0, 100.0, 1)),
            R("Ferritin", R.n(412), "H", "ng/mL", R.r(30, 400)),
        ]),
    ]

    var expectedRows: [[String: Any]] {
        Self.sections.flatMap { section in section.1.map { $0.expected(page: 1, panel: section.0, style: Self.style) } }
    }

    var metadata: PDFMetadata { Self.labMetadata(title: "Laboratory report: metabolic panel, lipids (SAMPLE)") }

    var template: PageTemplate {
        PageTemplate(source: "\(lab.name) · Laboratory report · Accession SRL-0000908",
                     runningHeader: "\(SampleCast.patientName) · DOB \(SampleCast.dateOfBirth) · Accession SRL-0000908 (continued)")
    }

    func compose(in flow: DocumentFlow) {
        Self.drawHeading(flow, title: "Laboratory Report", subtitle: "Final report", fields: [
            Field("Patient", SampleCast.patientName), Field("Collected", "09/08/2025 07:55", emphasized: true),
            Field("Date of birth", SampleCast.dateOfBirth), Field("Reported", "09/09/2025 11:02"),
        ])
        let columns = [Table.Column("Test", weight: 3.0), Table.Column("Result", weight: 1.0, alignment: .right),
                       Table.Column("Flag", weight: 0.6, alignment: .center), Table.Column("Units", weight: 1.3),
                       Table.Column("Reference Range", weight: 1.5, alignment: .center)]
        var rows: [Table.Row] = []
        for (title, results) in Self.sections {
            rows.append(.group(title))
            rows += results.map { $0.cells(Self.style, flagColumn: true) }
        }
        flow.table(Table(columns: columns, rows: rows, fontSize: 8.4), after: 10)
        flow.paragraph(.plain("Flags: H above, L below the reference range. End of report."), style: TextStyle.body.sized(8))
    }
}

// MARK: - European: decimal commas, one-sided ranges, flags glued

struct LabReportEuropeanDocument: LabReportSample {
    let fileName = "lab-report-eu-decimal-comma.pdf"
    let collected = "2025-02-04"
    private let lab = SampleCast.laboratory
    static let style = LabResultSpec.Style(decimalComma: true, dash: " – ", gluedFlag: " ", comparatorSpace: " ")
    typealias R = LabResultSpec

    static let sections: [(String, [LabResultSpec])] = [
        ("Kleines Blutbild", [
            R("Leukozyten", R.n(11.2, 1), "H", "10^9/L", R.r(3.6, 10.0, 1)),
            R("Erythrozyten", R.n(4.51, 2), nil, "10^12/L", R.r(4.10, 5.10, 2)),
            R("Hämoglobin", R.n(13.9, 1), nil, "g/dL", R.r(12.0, 15.4, 1)),
            R("Hämatokrit", R.n(41.2, 1), nil, "%", R.r(35.0, 45.0, 1)),
            R("MCV", R.n(91.4, 1), nil, "fL", R.r(80.0, 96.0, 1)),
            R("Thrombozyten", R.n(412), "H", "10^9/L", R.r(150, 370)),
        ]),
        ("Klinische Chemie", [
            R("Natrium", R.n(141), nil, "mmol/L", R.r(135, 145)),
            R("Kalium", R.n(3.3, 1), "L", "mmol/L", R.r(3.5, 5.1, 1)),
            R("Kreatinin", R.n(0.78, 2), nil, "mg/dL", R.r(0.50, 0.90, 2)),
            R("eGFR (CKD-EPI)", R.n(96), nil, "ml/min/1,73m2", .above("≥", 60, decimals: 0)),
            R("Harnsäure", R.n(6.8, 1), "H", "mg/dL", .below("<", 5.7, decimals: 1)),
            R("GPT (ALT)", R.n(19), nil, "U/L", .below("<", 35, decimals: 0)),
            R("Gamma-GT", R.n(61), "H", "U/L", .below("<", 40, decimals: 0)),
            R("CRP", R.n(12.4, 1), "H", "mg/L", .below("<", 5.0, decimals: 1)),
        ]),
        ("Fettstoffwechsel", [
            R("Cholesterin gesamt", R.n(231), "H", "mg/dL", .below("≤", 200, decimals: 0)),
            R("HDL-Cholesterin", R.n(52), nil, "mg/dL", .above("≥", 45, decimals: 0)),
            R("LDL-Cholesterin", R.n(158), "H", "mg/dL", .below("<", 116, decimals: 0)),
            R("Triglyceride", R.n(1.64, 2), nil, "mmol/L", .below("<", 1.70, decimals: 2)),
        ]),
        ("Schilddrüse und Eisen", [
            R("TSH basal", R.n(0.12, 2), "L", "mU/L", R.r(0.27, 4.20, 2)),
            R("fT4", R.n(18.3, 1), nil, "pmol/L", R.r(12.0, 22.0, 1)),
            R("Ferritin", R.n(9.6, 1), "L", "µg/L", R.r(15.0, 150.0, 1)),
            R("HbA1c", R.n(39), nil, "mmol/mol", .below("<", 42, decimals: 0)),
        ]),
    ]

    var expectedRows: [[String: Any]] {
        Self.sections.flatMap { section in section.1.map { $0.expected(page: 1, panel: section.0, style: Self.style) } }
    }

    var metadata: PDFMetadata { Self.labMetadata(title: "Laborbefund (SAMPLE)") }

    var template: PageTemplate {
        var template = PageTemplate(source: "\(lab.name) · Laborbefund · Auftrag 250204-117",
                                    runningHeader: "\(SampleCast.patientName) · geb. 22.07.1984 · Auftrag 250204-117 (Fortsetzung)")
        template.pageWord = "Seite"
        template.ofWord = "von"
        return template
    }

    func compose(in flow: DocumentFlow) {
        Self.drawHeading(flow, title: "Laborbefund", subtitle: "Endbefund", fields: [
            Field("Patient", SampleCast.patientName), Field("Probenentnahme", "04.02.2025 07:40", emphasized: true),
            Field("Geburtsdatum", "22.07.1984"), Field("Befunddatum", "05.02.2025"),
        ])
        let columns = [Table.Column("Untersuchung", weight: 3.0), Table.Column("Ergebnis", weight: 1.2, alignment: .right),
                       Table.Column("Einheit", weight: 1.2), Table.Column("Referenzbereich", weight: 1.6, alignment: .center)]
        var rows: [Table.Row] = []
        for (title, results) in Self.sections {
            rows.append(.group(title))
            rows += results.map { $0.cells(Self.style, flagColumn: false) }
        }
        flow.table(Table(columns: columns, rows: rows, fontSize: 8.6), after: 10)
        flow.paragraph(.plain("H = erhöht, L = erniedrigt. Ende des Befundes."), style: TextStyle.body.sized(8))
    }
}

// MARK: - Two tables side by side

struct LabReportTwoColumnDocument: LabReportSample {
    let fileName = "lab-report-two-column.pdf"
    let collected = "2025-09-21"
    private let lab = SampleCast.laboratory
    static let style = LabResultSpec.Style(dash: "-", gluedFlag: " ")
    typealias R = LabResultSpec

    static let left: [(String, [LabResultSpec])] = [
        ("Full blood count", [
            R("WBC", R.n(5.2, 1), nil, "x10E3/uL", R.r(3.4, 10.8, 1)),
            R("RBC", R.n(4.05, 2), "L", "x10E6/uL", R.r(4.14, 5.80, 2)),
            R("Hemoglobin", R.n(11.9, 1), "L", "g/dL", R.r(13.0, 17.7, 1)),
            R("Hematocrit", R.n(36.0, 1), "L", "%", R.r(37.5, 51.0, 1)),
            R("MCV", R.n(89), nil, "fL", R.r(79, 97)),
            R("MCH", R.n(29.4, 1), nil, "pg", R.r(26.6, 33.0, 1)),
            R("RDW", R.n(14.9, 1), "H", "%", R.r(11.6, 15.4, 1)),
            R("Platelets", R.n(263), nil, "x10E3/uL", R.r(150, 450)),
            R("Neutrophils", R.n(61), nil, "%", nil),
            R("Lymphs", R.n(28), nil, "%", nil),
            R("Neutrophils (Absolute)", R.n(3.2, 1), nil, "x10E3/uL", R.r(1.4, 7.0, 1)),
            R("Lymphs (Absolute)", R.n(1.5, 1), nil, "x10E3/uL", R.r(0.7, 3.1, 1)),
        ]),
    ]

    static let right: [(String, [LabResultSpec])] = [
        ("Iron and vitamins", [
            R("Iron, Serum", R.n(41), "L", "ug/dL", R.r(59, 158)),
            R("TIBC", R.n(462), "H", "ug/dL", R.r(250, 450)),
            R("Iron Saturation", R.n(9), "L", "%", R.r(15, 55)),
            R("Ferritin", R.n(11), "L", "ng/mL", R.r(30, 400)),
            R("Vitamin B12", R.n(382), nil, "pg/mL", R.r(232, 1245)),
            R("Folate (Folic Acid)", R.n(11.8, 1), nil, "ng/mL", .above(">", 3.0, decimals: 1)),
        ]),
        ("Kidney", [
            R("Creatinine", R.n(0.94, 2), nil, "mg/dL", R.r(0.57, 1.00, 2)),
            R("eGFR", R.n(78), nil, "mL/min/1.73m2", .above(">", 59, decimals: 0)),
            R("Uric Acid", R.n(5.1, 1), nil, "mg/dL", R.r(2.6, 6.2, 1)),
            R("Cystatin C", R.n(0.82, 2), nil, "mg/L", R.r(0.53, 0.95, 2)),
            R("CRP", R.n(2), nil, "mg/L", R.r(0, 10)),
            R("Magnesium", R.n(2.1, 1), nil, "mg/dL", R.r(1.6, 2.3, 1)),
        ]),
    ]

    var expectedRows: [[String: Any]] {
        (Self.left + Self.right).flatMap { section in section.1.map { $0.expected(page: 1, panel: section.0, style: Self.style) } }
    }

    var metadata: PDFMetadata { Self.labMetadata(title: "Laboratory report: blood count, iron, kidney (SAMPLE)") }

    var template: PageTemplate {
        PageTemplate(source: "\(lab.name) · Laboratory report · Specimen 25-264-0042",
                     runningHeader: "\(SampleCast.patientName) · Specimen 25-264-0042 (continued)")
    }

    func compose(in flow: DocumentFlow) {
        Self.drawHeading(flow, title: "Laboratory Report", subtitle: "Cumulative summary", fields: [
            Field("Patient", SampleCast.patientName), Field("Date collected", "21/09/2025 09:30", emphasized: true),
            Field("Specimen", "25-264-0042"), Field("Printed", "22/09/2025"),
        ], after: 14)
        let table = PlainResultsTable(titles: ["Test", "Result", "Range", "Units"], weights: [2.6, 1.2, 1.4, 1.3],
                                      alignments: [.left, .right, .center, .left], fontSize: 8.0)
        let gap = 18.0
        let half = (flow.width - gap) / 2
        func draw(_ sections: [(String, [LabResultSpec])], x: Double) -> Double {
            var rows: [[String]] = []
            var groups: [Int: String] = [:]
            for (title, results) in sections {
                groups[rows.count] = title
                rows += results.map { [$0.name, $0.valueText(Self.style), $0.rangeText(Self.style), $0.unit ?? ""] }
            }
            return table.draw(rows, groups: groups, on: flow.canvas, x: x, y: flow.y, width: half, accent: lab.accent)
        }
        let bottom = max(draw(Self.left, x: flow.left), draw(Self.right, x: flow.left + half + gap))
        flow.y = bottom + 12
        flow.paragraph(.plain("H high, L low. End of report."), style: TextStyle.body.sized(8))
    }
}

// MARK: - Several pages, header repeated

struct LabReportMultiPageDocument: LabReportSample {
    let fileName = "lab-report-multi-page.pdf"
    let collected = "2025-11-03"
    private let lab = SampleCast.laboratory
    static let style = LabResultSpec.Style(dash: " - ")
    typealias R = LabResultSpec

    static let sections: [(String, [LabResultSpec])] = [
        ("CBC with differential/platelet", [
            R("WBC", R.n(7.9, 1), nil, "x10E3/uL", R.r(3.4, 10.8, 1)),
            R("RBC", R.n(4.88, 2), nil, "x10E6/uL", R.r(4.14, 5.80, 2)),
            R("Hemoglobin", R.n(14.6, 1), nil, "g/dL", R.r(13.0, 17.7, 1)),
            R("Hematocrit", R.n(43.8, 1), nil, "%", R.r(37.5, 51.0, 1)),
            R("MCV", R.n(90), nil, "fL", R.r(79, 97)),
            R("MCH", R.n(29.9, 1), nil, "pg", R.r(26.6, 33.0, 1)),
            R("MCHC", R.n(33.3, 1), nil, "g/dL", R.r(31.5, 35.7, 1)),
            R("RDW", R.n(12.9, 1), nil, "%", R.r(11.6, 15.4, 1)),
            R("Platelets", R.n(131), "L", "x10E3/uL", R.r(150, 450)),
            R("Neutrophils", R.n(64), nil, "%", nil),
            R("Lymphs", R.n(25), nil, "%", nil),
            R("Monocytes", R.n(8), nil, "%", nil),
            R("Eos", R.n(2), nil, "%", nil),
            R("Basos", R.n(1), nil, "%", nil),
            R("Neutrophils (Absolute)", R.n(5.1, 1), nil, "x10E3/uL", R.r(1.4, 7.0, 1)),
            R("Lymphs (Absolute)", R.n(2.0, 1), nil, "x10E3/uL", R.r(0.7, 3.1, 1)),
            R("Monocytes(Absolute)", R.n(0.6, 1), nil, "x10E3/uL", R.r(0.1, 0.9, 1)),
            R("Eos (Absolute)", R.n(0.2, 1), nil, "x10E3/uL", R.r(0.0, 0.4, 1)),
            R("Baso (Absolute)", R.n(0.1, 1), nil, "x10E3/uL", R.r(0.0, 0.2, 1)),
        ]),
        ("Comprehensive metabolic panel", [
            R("Glucose", R.n(143), "H", "mg/dL", R.r(70, 99)),
            R("BUN", R.n(22), nil, "mg/dL", R.r(8, 27)),
            R("Creatinine", R.n(1.41, 2), "H", "mg/dL", R.r(0.76, 1.27, 2)),
            R("eGFR", R.n(52), "L", "mL/min/1.73m2", .above(">", 59, decimals: 0)),
            R("Sodium", R.n(137), nil, "mmol/L", R.r(134, 144)),
            R("Potassium", R.n(4.7, 1), nil, "mmol/L", R.r(3.5, 5.2, 1)),
            R("Chloride", R.n(99), nil, "mmol/L", R.r(96, 106)),
            R("Carbon Dioxide, Total", R.n(24), nil, "mmol/L", R.r(20, 29)),
            R("Calcium", R.n(9.4, 1), nil, "mg/dL", R.r(8.6, 10.2, 1)),
            R("Protein, Total", R.n(6.9, 1), nil, "g/dL", R.r(6.0, 8.5, 1)),
            R("Albumin", R.n(4.2, 1), nil, "g/dL", R.r(3.8, 4.8, 1)),
            R("Globulin, Total", R.n(2.7, 1), nil, "g/dL", R.r(1.5, 4.5, 1)),
            R("Bilirubin, Total", R.n(0.6, 1), nil, "mg/dL", R.r(0.0, 1.2, 1)),
            R("Alkaline Phosphatase", R.n(88), nil, "IU/L", R.r(44, 121)),
            R("AST (SGOT)", R.n(31), nil, "IU/L", R.r(0, 40)),
            R("ALT (SGPT)", R.n(35), nil, "IU/L", R.r(0, 44)),
        ]),
        ("Lipid panel", [
            R("Cholesterol, Total", R.n(176), nil, "mg/dL", R.r(100, 199)),
            R("Triglycerides", R.n(212), "H", "mg/dL", R.r(0, 149)),
            R("HDL Cholesterol", R.n(41), nil, "mg/dL", .above(">", 39, decimals: 0)),
            R("VLDL Cholesterol Cal", R.n(36), nil, "mg/dL", R.r(5, 40)),
            R("LDL Chol Calc (NIH)", R.n(99), nil, "mg/dL", R.r(0, 99)),
        ]),
        ("Diabetes and thyroid", [
            R("Hemoglobin A1c", R.n(7.4, 1), "H", "%", R.r(4.8, 5.6, 1)),
            R("Microalbumin/Creatinine Ratio", R.n(48), "H", "mg/g creat", R.r(0, 29)),
            R("TSH", R.n(1.870, 3), nil, "uIU/mL", R.r(0.450, 4.500, 3)),
            R("T4, Free (Direct)", R.n(1.22, 2), nil, "ng/dL", R.r(0.82, 1.77, 2)),
            R("PSA", R.n(1.1, 1), nil, "ng/mL", R.r(0.0, 4.0, 1)),
        ]),
        ("Urinalysis", [
            R("Specific Gravity", R.n(1.021, 3), nil, nil, R.r(1.005, 1.030, 3)),
            R("pH", R.n(5.5, 1), nil, nil, R.r(5.0, 7.5, 1)),
            R("Urine-Color", .text("Yellow"), nil, nil, .text("Yellow")),
            R("Appearance", .text("Clear"), nil, nil, .text("Clear")),
            R("Protein", .text("Trace"), "A", nil, .text("Negative/Trace")),
            R("Glucose", .text("2+"), "A", nil, .text("Negative")),
            R("Ketones", .text("Negative"), nil, nil, .text("Negative")),
            R("Occult Blood", .text("Negative"), nil, nil, .text("Negative")),
            R("Leukocyte Esterase", .text("Negative"), nil, nil, .text("Negative")),
            R("Nitrite, Urine", .text("Negative"), nil, nil, .text("Negative")),
            R("Bilirubin", .text("Negative"), nil, nil, .text("Negative")),
            R("Urobilinogen,Semi-Qn", R.n(0.2, 1), nil, "mg/dL", R.r(0.2, 1.0, 1)),
        ]),
        ("Iron studies and vitamins", [
            R("Iron", R.n(96), nil, "ug/dL", R.r(38, 169)),
            R("Ferritin", R.n(188), nil, "ng/mL", R.r(30, 400)),
            R("Vitamin B12", R.n(205), "L", "pg/mL", R.r(232, 1245)),
            R("Folate (Folic Acid), Serum", R.n(9.4, 1), nil, "ng/mL", .above(">", 3.0, decimals: 1)),
            R("Vitamin D, 25-Hydroxy", R.n(31.5, 1), nil, "ng/mL", R.r(30.0, 100.0, 1)),
            R("C-Reactive Protein, Cardiac", R.n(3.62, 2), "H", "mg/L", R.r(0.00, 3.00, 2)),
        ]),
    ]

    var expectedRows: [[String: Any]] {
        var rows: [[String: Any]] = []
        var index = 0
        for (title, results) in Self.sections {
            for result in results {
                rows.append(result.expected(page: Self.page(ofRow: index), panel: title, style: Self.style))
                index += 1
            }
        }
        return rows
    }

    /// Rows per page are fixed by hand (forced page breaks), so the expected pages do not
    /// depend on font metrics: 22 rows on page 1, 24 on page 2, the rest on page 3.
    static let rowsPerPage = [22, 24]

    static func page(ofRow index: Int) -> Int {
        var remaining = index
        for (page, count) in rowsPerPage.enumerated() {
            if remaining < count { return page + 1 }
            remaining -= count
        }
        return rowsPerPage.count + 1
    }

    var metadata: PDFMetadata { Self.labMetadata(title: "Laboratory report: annual panel (SAMPLE)") }

    var template: PageTemplate {
        PageTemplate(source: "\(lab.name) · Laboratory report · Accession SRL-0001103",
                     runningHeader: "\(SampleCast.patientName) · DOB \(SampleCast.dateOfBirth) · Accession SRL-0001103 · Collected 11/03/2025 (continued)")
    }

    func compose(in flow: DocumentFlow) {
        Self.drawHeading(flow, title: "Laboratory Report", subtitle: "Final report", fields: [
            Field("Patient", SampleCast.patientName), Field("Collected", "11/03/2025 08:20", emphasized: true),
            Field("Date of birth", SampleCast.dateOfBirth), Field("Reported", "11/04/2025 16:45"),
        ])
        let columns = [Table.Column("Test", weight: 3.0), Table.Column("Result", weight: 1.1, alignment: .right),
                       Table.Column("Flag", weight: 0.6, alignment: .center), Table.Column("Units", weight: 1.3),
                       Table.Column("Reference Interval", weight: 1.6, alignment: .center)]
        // One table per page: the header is printed again at the top of each, as the real
        // reports do, and the page breaks fall where `rowsPerPage` says.
        var pages: [[Table.Row]] = [[]]
        var index = 0
        for (title, results) in Self.sections {
            var first = true
            for result in results {
                let page = Self.page(ofRow: index)
                while pages.count < page { pages.append([]) }
                if first || pages[page - 1].isEmpty { pages[page - 1].append(.group(title)) }
                first = false
                pages[page - 1].append(result.cells(Self.style, flagColumn: true))
                index += 1
            }
        }
        for (number, rows) in pages.enumerated() {
            if number > 0 { flow.pageBreak() }
            flow.table(Table(columns: columns, rows: rows, fontSize: 8.4), after: 10)
        }
        flow.paragraph(.plain("Flags: H high, L low, A abnormal. End of report."), style: TextStyle.body.sized(8))
    }
}
