import Foundation
import PHRService

/// One analyte's results as an SVG chart: points placed by date (not evenly), each value written
/// beside its point, the reference band behind them, flags as shapes (▲ high, ▼ low, ◆ abnormal,
/// ● in range) with the words in each point's title and in the table under the chart.
///
/// The value axis covers the results, and the band only as far as it does not flatten them: a
/// ferritin band of 8–400 under results of 8, 12 and 25 is drawn to the top edge and said to go
/// on, rather than squeezing the three points into one row (issue 35, item 6).
struct LabChart {
    static let width = 640.0
    static let height = 260.0
    /// The plot area inside the axes.
    static let left = 56.0, right = 624.0, top = 24.0, bottom = 212.0

    enum Shape: String {
        case inRange = "in-range", high, low, abnormal, beyond
    }

    struct Mark: Equatable {
        var x: Double
        var y: Double
        var day: CalendarDate
        var value: Double
        var label: String
        var shape: Shape
        /// "high", "below the lab's limit", "in range": the flag in words.
        var words: String
    }

    struct Band: Equatable {
        /// The band's top and bottom edges on the chart (clipped to the plot).
        var top: Double
        var bottom: Double
        var low: Double?
        var high: Double?
        /// Whether the band goes on beyond the plot's top or bottom edge.
        var continuesUp: Bool
        var continuesDown: Bool
    }

    let unit: String?
    /// "reference 30–400 ng/mL (above the chart)" when the band is wholly beyond the results.
    let bandOutside: String?
    let scale: AxisScale
    let marks: [Mark]
    let band: Band?
    /// Date ticks along the bottom: where, and what they say.
    let dateTicks: [(x: Double, label: String)]
    let firstDay: Int
    let lastDay: Int

    /// nil when no result has both a date and a number (or a bound) to place.
    init?(_ trend: LabTrend) {
        let placed = trend.points.compactMap { point -> (LabTrend.Point, CalendarDate, Double)? in
            guard let day = point.day, let value = point.value ?? point.bound else { return nil }
            return (point, day, value)
        }
        guard !placed.isEmpty else { return nil }
        unit = trend.unit.map(LabUnits.display).flatMap { $0.isEmpty ? nil : $0 }
        let reference = trend.band
        // The band only as far as it does not flatten the results (LabTrend.valueScale).
        scale = LabTrend.valueScale(placed.map(\.2), band: reference, ticks: 5)!
        let scale = self.scale

        // Dates: the first to the last result, a little room either side (a month around a
        // single result).
        let days = placed.map(\.1.dayNumber)
        let first = days.min()!, last = days.max()!
        let margin = last == first ? 30 : max(2, (last - first) / 20)
        firstDay = first - margin
        lastDay = last + margin
        let (start, end) = (firstDay, lastDay)
        func x(_ day: Int) -> Double { Self.left + Double(day - start) / Double(end - start) * (Self.right - Self.left) }
        func y(_ value: Double) -> Double { scale.position(value, top: Self.top, bottom: Self.bottom) }

        marks = placed.map { point, day, value in
            let shape: Shape
            let words: String
            if point.value == nil {
                shape = .beyond
                words = point.comparator?.hasPrefix("<") == true ? "below the lab's limit" : "above the lab's limit"
            } else {
                switch point.flag {
                case .high?, .criticalHigh?: shape = .high
                case .low?, .criticalLow?: shape = .low
                case .abnormal?: shape = .abnormal
                default: shape = .inRange
                }
                words = point.flag.map { $0 == .normal ? "in range" : $0.words } ?? (point.range == nil ? "no range given" : "in range")
            }
            let number = Observation.number(value)
            return Mark(x: x(day.dayNumber), y: y(value), day: day, value: value,
                        label: (point.value == nil ? (point.comparator ?? "") : "") + number, shape: shape, words: words)
        }

        band = reference.flatMap { range -> Band? in
            guard range.low != nil || range.high != nil else { return nil }
            let upper = range.high.map(y) ?? Self.top, lower = range.low.map(y) ?? Self.bottom
            let top = max(Self.top, min(upper, lower)), bottom = min(Self.bottom, max(upper, lower))
            guard bottom > top else { return nil }
            return Band(top: top, bottom: bottom, low: range.low, high: range.high,
                        continuesUp: range.high.map { $0 > scale.high } ?? true,
                        continuesDown: range.low.map { $0 < scale.low } ?? (scale.low > 0))
        }

        // A band wholly beyond the results is not drawn; its place is said instead.
        if band == nil, let range = reference, range.low != nil || range.high != nil {
            let beyond = range.low.map { $0 > scale.high } == true ? "above" : range.high.map { $0 < scale.low } == true ? "below" : nil
            let unitText = unit.map { " " + $0 } ?? ""
            bandOutside = beyond.map { "reference \(range.display)\(unitText) (\($0) the chart)" }
        } else {
            bandOutside = nil
        }
        dateTicks = Self.dateTicks(from: start, to: end, results: placed.map(\.1)).map { (x($0.day.dayNumber), $0.label) }
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Round dates between `from` and `to`: month starts (or year starts over a long span, or
    /// the results' own dates over a few weeks), at most six.
    static func dateTicks(from: Int, to: Int, results: [CalendarDate]) -> [(day: CalendarDate, label: String)] {
        let start = CalendarDate(dayNumber: from), end = CalendarDate(dayNumber: to)
        enum Step { case year, month, week, day }
        let step: Step = to - from > 3 * 365 ? .year : to - from > 60 ? .month : to - from > 10 ? .week : .day
        var days: [CalendarDate] = []
        switch step {
        case .year:
            for year in (start.year + 1)...max(start.year + 1, end.year) {
                if let day = CalendarDate(year: year, month: 1, day: 1), day.dayNumber <= to { days.append(day) }
            }
        case .month:
            var (year, month) = (start.year, start.month)
            while true {
                month += 1
                if month > 12 { (year, month) = (year + 1, 1) }
                guard let day = CalendarDate(year: year, month: month, day: 1), day.dayNumber <= to else { break }
                days.append(day)
            }
        case .week:
            // Mondays.
            var day = start.plus((8 - start.weekdayNumber) % 7)
            while day.dayNumber <= to {
                days.append(day)
                day = day.plus(7)
            }
        case .day:
            days = Set(results).sorted()
        }
        if days.count > 6 {
            let every = Int((Double(days.count) / 6).rounded(.up))
            // Keep a January (where the year changes) among the ticks kept.
            let anchor = step == .month ? days.firstIndex { $0.month == 1 } ?? 0 : 0
            days = days.enumerated().filter { ($0.offset - anchor) % every == 0 }.map(\.element)
        }
        // A tick says its year on the first and wherever the year changes.
        var shownYear: Int?
        return days.map { day in
            defer { shownYear = day.year }
            let year = shownYear == day.year ? "" : " \(day.year)"
            switch step {
            case .year: return (day, String(day.year))
            case .month: return (day, monthNames[day.month - 1] + year)
            case .week, .day: return (day, "\(day.day) \(monthNames[day.month - 1])" + year)
            }
        }
    }

    /// Where the band's label goes: inside the band, at the first of its four corners where no
    /// point or point label stands (top right when every corner is taken).
    func bandLabelPlace(_ band: Band, width: Double) -> (x: Double, y: Double, anchor: String) {
        let candidates: [(x: Double, y: Double, anchor: String)] = [
            (Self.right - 4, band.top + 13, "end"), (Self.left + 4, band.top + 13, "start"),
            (Self.right - 4, band.bottom - 5, "end"), (Self.left + 4, band.bottom - 5, "start"),
        ]
        for candidate in candidates {
            let from = candidate.anchor == "end" ? candidate.x - width : candidate.x, to = from + width
            let (top, bottom) = (candidate.y - 12, candidate.y + 3)
            guard bottom <= band.bottom + 1, top >= band.top - 1 else { continue }
            // A point takes its shape and its value's label above or below it.
            let clear = marks.allSatisfy { mark in
                mark.x + 18 < from || mark.x - 18 > to || mark.y + 24 < top || mark.y - 24 > bottom
            }
            if clear { return candidate }
        }
        return candidates[0]
    }

    /// The chart as inline SVG. `title` names it for assistive technology; the table under it
    /// holds the same figures as text.
    func svg(title: String) -> HTML {
        let unitText = unit.map { " " + $0 } ?? ""
        var parts: [HTML] = []
        let left = svgNumber(Self.left), right = svgNumber(Self.right)
        // Grid lines and value ticks.
        for tick in scale.ticks {
            let y = svgNumber(scale.position(tick, top: Self.top, bottom: Self.bottom))
            parts.append("<line class=\"grid\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(y)\" y2=\"\(y)\"/>")
            parts.append("<text class=\"tick\" x=\"\(svgNumber(Self.left - 6))\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(scale.label(tick))</text>")
        }
        if let band {
            let range = ReferenceRange(low: band.low, high: band.high, text: nil).display
            parts.append("""
            <rect class="band" x="\(left)" y="\(svgNumber(band.top))" width="\(svgNumber(Self.right - Self.left))" height="\(svgNumber(band.bottom - band.top))" \
            data-low="\(band.low.map(Observation.number) ?? "")" data-high="\(band.high.map(Observation.number) ?? "")"><title>Reference range \(range)\(unitText)</title></rect>
            """)
            let beyond = [band.continuesUp && band.high != nil ? "above" : nil, band.continuesDown && band.low != nil ? "below" : nil].compactMap { $0 }
            let note = "reference \(range)\(unitText)" + (beyond.isEmpty ? "" : " (goes on \(beyond.joined(separator: " and ")))")
            let place = bandLabelPlace(band, width: Double(note.count) * 7)
            parts.append("<text class=\"band-label\" x=\"\(svgNumber(place.x))\" y=\"\(svgNumber(place.y))\" text-anchor=\"\(place.anchor)\">\(note)</text>")
        }
        if let bandOutside {
            parts.append("<text class=\"band-label\" x=\"\(svgNumber(Self.right - 4))\" y=\"\(svgNumber(Self.top + 12))\" text-anchor=\"end\">\(bandOutside)</text>")
        }
        // Axes.
        parts.append("<line class=\"axis\" x1=\"\(left)\" x2=\"\(left)\" y1=\"\(svgNumber(Self.top))\" y2=\"\(svgNumber(Self.bottom))\"/>")
        parts.append("<line class=\"axis\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(svgNumber(Self.bottom))\" y2=\"\(svgNumber(Self.bottom))\"/>")
        for (index, tick) in dateTicks.enumerated() {
            // On a phone a month tick drops its year, but for the first: the words grow there.
            let words = tick.label.split(separator: " ").map(String.init)
            let label: HTML = index > 0 && words.count == 2 && Self.monthNames.contains(words[0])
                ? "\(words[0])<tspan class=\"long\"> \(words[1])</tspan>" : "\(tick.label)"
            parts.append("<line class=\"axis\" x1=\"\(svgNumber(tick.x))\" x2=\"\(svgNumber(tick.x))\" y1=\"\(svgNumber(Self.bottom))\" y2=\"\(svgNumber(Self.bottom + 5))\"/>")
            parts.append("<text class=\"tick\" x=\"\(svgNumber(tick.x))\" y=\"\(svgNumber(Self.bottom + 20))\" text-anchor=\"middle\">\(label)</text>")
        }
        if let unit { parts.append("<text class=\"tick unit\" x=\"4\" y=\"12\">\(unit)</text>") }
        // The line through the numbers, then each point.
        if marks.count > 1 {
            let path = marks.map { "\(svgNumber($0.x)),\(svgNumber($0.y))" }.joined(separator: " ")
            parts.append("<polyline class=\"trend-line\" points=\"\(path)\"/>")
        }
        let labelled = marks.count <= 24
        for (index, mark) in marks.enumerated() {
            let (x, y) = (svgNumber(mark.x), svgNumber(mark.y))
            let shape: HTML
            switch mark.shape {
            case .inRange: shape = "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"5\"/>"
            case .high: shape = "<path d=\"M\(svgNumber(mark.x)) \(svgNumber(mark.y - 7))L\(svgNumber(mark.x + 7)) \(svgNumber(mark.y + 5))L\(svgNumber(mark.x - 7)) \(svgNumber(mark.y + 5))Z\"/>"
            case .low: shape = "<path d=\"M\(svgNumber(mark.x)) \(svgNumber(mark.y + 7))L\(svgNumber(mark.x + 7)) \(svgNumber(mark.y - 5))L\(svgNumber(mark.x - 7)) \(svgNumber(mark.y - 5))Z\"/>"
            case .abnormal: shape = "<path d=\"M\(svgNumber(mark.x)) \(svgNumber(mark.y - 7))L\(svgNumber(mark.x + 7)) \(y)L\(svgNumber(mark.x)) \(svgNumber(mark.y + 7))L\(svgNumber(mark.x - 7)) \(y)Z\"/>"
            case .beyond: shape = "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"5\" class=\"open\"/>"
            }
            // Labels above the point, below it near the top edge; alternate sides when two points
            // stand close together.
            let crowded = index > 0 && mark.x - marks[index - 1].x < 36
            let below = mark.y < Self.top + 16 || (crowded && index % 2 == 1 && mark.y < Self.bottom - 20)
            let label: HTML = labelled ? "<text class=\"value\" x=\"\(x)\" y=\"\(svgNumber(below ? mark.y + 20 : mark.y - 11))\" text-anchor=\"middle\">\(mark.label)</text>" : .empty
            parts.append("""
            <g class="mark mark-\(mark.shape.rawValue)" data-day="\(mark.day.description)" data-value="\(Observation.number(mark.value))" data-x="\(x)" data-y="\(y)">\
            <title>\(mark.day.description): \(mark.label)\(unitText), \(mark.words)</title>\(shape)\(label)</g>
            """)
        }
        return """
        <svg class="chart lab-chart" viewBox="0 0 \(svgNumber(Self.width)) \(svgNumber(Self.height))" role="img" aria-label="\(title)">
        \(HTML(parts, separator: "\n"))
        </svg>
        """
    }
}
