import Foundation
import PHRService

/// A measurement (weight, blood pressure, glucose) over the period asked for, as SVG: each day's
/// mean placed by its date, joined by a line, with the period's average as a dashed line; blood
/// pressure as two series (systolic ●, diastolic ■, told apart by shape as well as by the
/// legend). Figures in the profile's units.
struct MeasurementChart {
    static let width = 640.0
    static let height = 240.0
    static let left = 52.0, right = 512.0, top = 20.0, bottom = 196.0

    struct Point: Equatable {
        var x: Double
        var y: Double
        var day: CalendarDate
        var value: Double
    }

    let unit: String
    let scale: AxisScale
    /// Systolic (or the one series), and diastolic for blood pressure.
    let series: [[Point]]
    let average: Double?
    let averageY: Double?
    /// Blood pressure's diastolic average, drawn as a second dashed line.
    let lowerAverage: Double?
    let dateTicks: [(x: Double, label: String)]

    /// `convert` turns a canonical value into the chart's unit.
    init?(_ stats: MeasurementStats, unit: String, convert: @escaping (Double) -> Double) {
        let days = stats.days.filter { stats.period.contains($0.day) && $0.readings > 0 }.sorted { $0.day < $1.day }
        guard !days.isEmpty else { return nil }
        self.unit = unit
        var values = days.map { convert($0.mean) }
        let diastolic = stats.metric == .bp ? days.compactMap { day in day.diastolicMean.map { (day.day, convert($0)) } } : []
        values += diastolic.map(\.1)
        let lowest = values.min()!, highest = values.max()!
        let spread = highest > lowest ? highest - lowest : max(abs(highest) * 0.05, 1)
        scale = AxisScale(covering: lowest - spread * 0.15, highest + spread * 0.15, ticks: 5)
        let scale = self.scale
        let first = stats.period.from.dayNumber, last = stats.period.to.dayNumber
        func x(_ day: CalendarDate) -> Double {
            last == first ? (Self.left + Self.right) / 2 : Self.left + Double(day.dayNumber - first) / Double(last - first) * (Self.right - Self.left)
        }
        func y(_ value: Double) -> Double { scale.position(value, top: Self.top, bottom: Self.bottom) }
        var all = [days.map { Point(x: x($0.day), y: y(convert($0.mean)), day: $0.day, value: convert($0.mean)) }]
        if !diastolic.isEmpty { all.append(diastolic.map { Point(x: x($0.0), y: y($0.1), day: $0.0, value: $0.1) }) }
        series = all
        average = stats.average.map(convert)
        averageY = average.map(y)
        lowerAverage = stats.metric == .bp ? stats.diastolicAverage.map(convert) : nil
        dateTicks = LabChart.dateTicks(from: first, to: last, results: days.map(\.day)).map { (x($0.day), $0.label) }
    }

    /// The unit a measurement is charted in for a profile, and how a canonical value becomes it.
    static func unit(of metric: LogMetric, _ settings: HealthSettings) -> (String, @Sendable (Double) -> Double) {
        switch metric {
        case .weight where settings.units == .us: return ("lb", { HealthUnit.pound.fromCanonical($0) })
        case .glucose where settings.glucoseUnit == .milligramPerDecilitre: return ("mg/dL", { HealthUnit.milligramPerDecilitre.fromCanonical($0) })
        case .weight: return ("kg", { $0 })
        case .glucose: return ("mmol/L", { $0 })
        default: return ("mmHg", { $0 })
        }
    }

    func figure(_ value: Double) -> String {
        HealthFormat.number(value, decimals: unit == "mmHg" || unit == "mg/dL" ? 0 : 1)
    }

    func svg(title: String, names: [String]) -> HTML {
        var parts: [HTML] = []
        let left = svgNumber(Self.left), right = svgNumber(Self.right)
        for tick in scale.ticks {
            let y = svgNumber(scale.position(tick, top: Self.top, bottom: Self.bottom))
            parts.append("<line class=\"grid\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(y)\" y2=\"\(y)\"/>")
            parts.append("<text class=\"tick\" x=\"\(svgNumber(Self.left - 6))\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(scale.label(tick))</text>")
        }
        parts.append("<text class=\"tick unit\" x=\"4\" y=\"12\">\(unit)</text>")
        parts.append("<line class=\"axis\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(svgNumber(Self.bottom))\" y2=\"\(svgNumber(Self.bottom))\"/>")
        for tick in dateTicks {
            parts.append("<text class=\"tick\" x=\"\(svgNumber(tick.x))\" y=\"\(svgNumber(Self.bottom + 18))\" text-anchor=\"middle\">\(tick.label)</text>")
        }
        if let averageY, let average {
            parts.append("<line class=\"average-line\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(svgNumber(averageY))\" y2=\"\(svgNumber(averageY))\"/>")
            parts.append("<text class=\"line-label\" x=\"\(svgNumber(Self.right + 6))\" y=\"\(svgNumber(averageY))\" dominant-baseline=\"middle\"><tspan class=\"long\">average </tspan><tspan class=\"short\">avg </tspan>\(figure(average))</text>")
        }
        if let lowerAverage {
            let y = svgNumber(scale.position(lowerAverage, top: Self.top, bottom: Self.bottom))
            parts.append("<line class=\"average-line\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(y)\" y2=\"\(y)\"/>")
            parts.append("<text class=\"line-label\" x=\"\(svgNumber(Self.right + 6))\" y=\"\(y)\" dominant-baseline=\"middle\"><tspan class=\"long\">average </tspan><tspan class=\"short\">avg </tspan>\(figure(lowerAverage))</text>")
        }
        let labelled = series.first.map { $0.count <= 14 } ?? false
        for (index, points) in series.enumerated() {
            if points.count > 1 {
                parts.append("<polyline class=\"trend-line\" points=\"\(points.map { "\(svgNumber($0.x)),\(svgNumber($0.y))" }.joined(separator: " "))\"/>")
            }
            let name = index < names.count ? names[index] : ""
            for point in points {
                let (x, y) = (svgNumber(point.x), svgNumber(point.y))
                let shape: HTML = index == 0 ? "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"4.5\"/>"
                    : "<rect x=\"\(svgNumber(point.x - 4))\" y=\"\(svgNumber(point.y - 4))\" width=\"8\" height=\"8\"/>"
                let label: HTML = labelled ? "<text class=\"value\" x=\"\(x)\" y=\"\(svgNumber(index == 0 ? point.y - 9 : point.y + 18))\" text-anchor=\"middle\">\(figure(point.value))</text>" : .empty
                parts.append("""
                <g class="mark mark-in-range" data-day="\(point.day.description)" data-value="\(figure(point.value))" data-y="\(y)">\
                <title>\(point.day.description): \(name.isEmpty ? "" : name + " ")\(figure(point.value)) \(unit)</title>\(shape)\(label)</g>
                """)
            }
        }
        return """
        <svg class="chart measurement-chart" viewBox="0 0 \(svgNumber(Self.width)) \(svgNumber(Self.height))" role="img" aria-label="\(title)">
        \(HTML(parts, separator: "\n"))
        </svg>
        """
    }
}
