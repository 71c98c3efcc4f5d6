import Foundation

/// Which unit lab results are shown in. Everywhere by default: the unit the report printed (or
/// the user typed), as on the paper a person compares with; SI or conventional units only when
/// asked for (`--units si`, the web UI's link), and then only where phr knows the conversion.
public enum LabUnitChoice: String, Sendable, CaseIterable {
    case printed, si, conventional
}

/// One analyte's results over time in one unit: labs that report in different units are
/// converted (glucose mg/dL and mmol/L, creatinine mg/dL and µmol/L, HbA1c % and mmol/mol...)
/// to the unit of the latest result, or to the unit system asked for when phr knows the
/// conversion.
public struct LabTrend: Sendable {
    public struct Point: Sendable {
        public var observation: Observation
        public var day: CalendarDate?
        /// The value in `unit`, nil for a text result or one phr cannot convert.
        public var value: Double?
        /// The range in `unit`.
        public var range: ReferenceRange?
        public var flag: LabFlag?
        /// A result beyond what the lab measures ("<0.5"): the FHIR comparator and the bound in
        /// `unit`, drawn as a marker at the bound; `value` stays nil, no number is made up.
        public var comparator: String?
        public var bound: Double?
    }

    public var analyte: Analyte?
    public var displayName: String
    /// UCUM, or the unit as written when it has no UCUM code; nil for unitless results.
    public var unit: String?
    /// Oldest first.
    public var points: [Point]
    /// The units results came in that were converted to `unit`; empty when none was.
    public var convertedFrom: [String]

    /// The series in the units `choice` asks for.
    public init(results: [Observation], choice: LabUnitChoice) {
        switch choice {
        case .printed: self.init(results: results, units: .metric, asPrinted: true)
        case .si: self.init(results: results, units: .metric)
        case .conventional: self.init(results: results, units: .us)
        }
    }

    /// `asPrinted` keeps the unit the report printed (or the user typed): a series that came in
    /// different units is converted to its latest result's unit, and `convertedFrom` says from what.
    public init(results: [Observation], units: HealthSettings.Units, asPrinted: Bool = false) {
        let ordered = results.sorted { ($0.effective ?? "", $0.id) < ($1.effective ?? "", $1.id) }
        let analyte = ordered.lazy.compactMap(\.analyte).first
        self.analyte = analyte
        displayName = analyte?.name ?? ordered.last?.name ?? ""
        let key = analyte?.key
        let written = ordered.compactMap { observation in
            observation.valueNumber == nil && observation.valueText.flatMap(LabGrammar.comparison) == nil ? nil : (observation.unitUCUM ?? observation.valueUnit)
        }
        // The preferred unit when every number converts to it; else the latest result's unit.
        var target = written.last
        if !asPrinted, let preferred = analyte?.preferredUnit(units),
           written.allSatisfy({ LabUnits.convert(1, from: $0, to: preferred, analyte: key) != nil }), !written.isEmpty {
            target = preferred
        }
        unit = target
        // Only the units that did convert: a result phr cannot convert is listed, not charted.
        convertedFrom = Array(Set(written.filter { unit in
            unit != target && target.map { LabUnits.convert(1, from: unit, to: $0, analyte: key) != nil } == true
        })).sorted()
        points = ordered.map { observation in
            let from = observation.unitUCUM ?? observation.valueUnit
            func convert(_ value: Double) -> Double? {
                guard let from, let target else { return from == nil && target == nil ? value : nil }
                guard let converted = LabUnits.convert(value, from: from, to: target, analyte: key) else { return nil }
                // A converted number carries no more precision than the one printed: three
                // significant digits (HbA1c 6.1 % is 43.2 mmol/mol, not 43.17).
                return converted == value ? value : Self.significant(converted, digits: 3)
            }
            let value = observation.valueNumber.flatMap(convert)
            let comparison = observation.valueNumber == nil ? observation.valueText.flatMap(LabGrammar.comparison) : nil
            return Point(observation: observation, day: observation.day, value: value,
                         range: observation.lab?.range.map { range in range.low == nil && range.high == nil ? range : range.converted(convert) },
                         flag: observation.effectiveFlag, comparator: comparison?.comparator, bound: comparison.flatMap { convert($0.value) })
        }
    }

    /// `value` rounded to `digits` significant digits.
    static func significant(_ value: Double, digits: Int) -> Double {
        guard value != 0, value.isFinite else { return value }
        let scale = pow(10, Double(digits) - (log10(abs(value))).rounded(.up))
        return (value * scale).rounded() / scale
    }

    /// The latest result.
    public var latest: Point? { points.last }

    public enum Direction: String, Sendable { case up, down, steady }

    /// How the latest number compares with the one before (within 2 % is steady).
    public var direction: Direction? {
        let numbers = points.compactMap(\.value)
        guard numbers.count >= 2 else { return nil }
        let (previous, last) = (numbers[numbers.count - 2], numbers[numbers.count - 1])
        let tolerance = max(abs(previous) * 0.02, 1e-9)
        if last > previous + tolerance { return .up }
        if last < previous - tolerance { return .down }
        return .steady
    }

    /// The band drawn behind the chart: the latest result's range with both bounds or one.
    public var band: ReferenceRange? {
        points.reversed().lazy.compactMap(\.range).first { $0.low != nil || $0.high != nil }
    }

    /// The value axis a chart of `values` draws against `band` on: the results, and the band only
    /// as far as it does not flatten them (a ferritin band of 8–400 under results of 8, 12 and 25
    /// reaches past the top rather than squeezing the three into one row: issue 35, item 6), with
    /// a little room, round ticks, and no negative values for results that are not.
    public static func valueScale(_ values: [Double], band: ReferenceRange?, ticks: Int) -> AxisScale? {
        AxisScale.fitting(values, bandLow: band?.low, bandHigh: band?.high, ticks: ticks)
    }

    /// "12 ng/mL", "Negative".
    public static func valueText(_ point: Point, unit: String?) -> String {
        if let value = point.value { return [Observation.number(value), unit.map(LabUnits.display)].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ") }
        return point.observation.valueDescription
    }
}

/// The terminal chart of a trend: points placed by date along the bottom (oldest left), on a
/// value axis that fits the results with round ticks (`LabTrend.valueScale`), the reference band
/// as a shaded strip (`░`) clipped to the chart and said to go on when it does, points in range
/// `●`, above `▲`, below `▼`; so out-of-range points differ by shape as well as, on a colour
/// terminal, by colour (red points, green band).
public enum LabTrendChart {
    /// `height`: about how many rows (two a round tick, labelled 0, 50, 100...); `width`: the
    /// columns the dates spread over.
    public static func lines(_ trend: LabTrend, height: Int = 8, width: Int = 48, colour: Bool) -> [String] {
        // Results beyond the lab's limit ("<0.5") stand at their bound, marked < or >.
        let points = trend.points.filter { $0.value != nil || $0.bound != nil }
        guard !points.isEmpty, height >= 2, width >= 2 else { return [] }
        let band = trend.band
        guard let scale = LabTrend.valueScale(points.map { ($0.value ?? $0.bound)! }, band: band, ticks: max(2, height / 2 + 1)) else { return [] }
        // Two rows a tick (the ticks labelled with their round values), so close values part.
        let rowStep = scale.step / 2
        let height = Int(((scale.high - scale.low) / rowStep).rounded()) + 1
        /// The row (0 = top) a value falls in.
        func row(_ value: Double) -> Int { max(0, min(height - 1, Int(((scale.high - value) / rowStep).rounded()))) }
        let labels = (0..<height).map { $0 % 2 == 0 ? scale.label(AxisScale.clean(scale.high - Double($0) * rowStep)) : "" }
        let labelWidth = labels.map(\.count).max() ?? 0
        // Points by date: the first result at the left edge, the last at the right; undated
        // results (rare) take the place after the one before them.
        let days = points.map { $0.day?.dayNumber }
        let known = days.compactMap { $0 }
        let first = known.min() ?? 0, last = known.max() ?? 0
        let columns = points.count == 1 ? 1 : width
        func column(_ index: Int) -> Int {
            guard last > first, let day = days[index] else { return points.count == 1 ? 0 : min(columns - 1, index * (columns - 1) / max(1, points.count - 1)) }
            return Int((Double(day - first) / Double(last - first) * Double(columns - 1)).rounded())
        }
        // The band's rows, clipped to the chart; whether it goes on beyond an edge, or lies wholly beyond.
        var bandRows: ClosedRange<Int>?
        var bandNote = ""
        if let band, band.low != nil || band.high != nil {
            let above = band.low.map { $0 > scale.high } ?? false, below = band.high.map { $0 < scale.low } ?? false
            if above || below {
                bandNote = above ? " (above the chart)" : " (below the chart)"
            } else {
                // Rounded as the points are, so a result on the band's edge is on a shaded row; a
                // point just outside it may share that row, and its ▲ or ▼ says so.
                let top = band.high.map(row) ?? 0, bottom = band.low.map(row) ?? height - 1
                bandRows = min(top, bottom)...max(top, bottom)
                let up = band.high.map { $0 > scale.high } ?? true, down = band.low.map { $0 < scale.low } ?? (scale.low > 0)
                bandNote = up && down ? " (goes on above and below)" : up ? " (goes on above)" : down ? " (goes on below)" : ""
            }
        }
        var lines: [String] = []
        for r in 0..<height {
            var cells = Array(repeating: bandRows?.contains(r) == true ? "░" : " ", count: columns)
            for (index, point) in points.enumerated() where row((point.value ?? point.bound)!) == r {
                let symbol: String
                switch point.flag {
                case _ where point.value == nil: symbol = point.comparator?.hasPrefix("<") == true ? "<" : ">"
                case .high?, .criticalHigh?: symbol = "▲"
                case .low?, .criticalLow?: symbol = "▼"
                case .abnormal?: symbol = "◆"
                default: symbol = "●"
                }
                cells[column(index)] = colour && ["▲", "▼", "◆"].contains(symbol) ? "\u{1b}[1;31m\(symbol)\u{1b}[0m" : symbol
            }
            var body = cells.joined()
            if colour && bandRows?.contains(r) == true {
                body = "\u{1b}[32m" + body.replacingOccurrences(of: "\u{1b}[0m", with: "\u{1b}[0m\u{1b}[32m") + "\u{1b}[0m"
            }
            let label = String(repeating: " ", count: labelWidth - labels[r].count) + labels[r]
            lines.append("\(label) ┤\(body)".replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
        }
        lines.append(String(repeating: " ", count: labelWidth) + " └" + String(repeating: "─", count: columns))
        let firstText = points.first?.day?.description ?? "", lastText = points.last?.day?.description ?? ""
        let axis = points.count < 2 ? firstText
            : columns >= firstText.count + lastText.count + 1 ? firstText + String(repeating: " ", count: columns - firstText.count - lastText.count) + lastText
            : "\(firstText) → \(lastText)"
        lines.append(String(repeating: " ", count: labelWidth + 2) + axis)
        var legend = "● in range  ▲ high  ▼ low"
        if points.contains(where: { $0.value == nil }) { legend += "  < > beyond the lab's limit" }
        if let band { legend += "  ░ reference \(band.display)\(trend.unit.map { " " + LabUnits.display($0) } ?? "")\(bandNote)" }
        lines.append(String(repeating: " ", count: labelWidth + 2) + legend)
        return lines
    }
}
