import Foundation
import PHRService

/// A habit (water, sleep, workouts, meals) over the period asked for, as SVG bars: a bar a day
/// for a week or a month, a bar a month (the daily average of the days logged) for a year; the
/// goal as a solid line, the period's daily average as a dashed one, each labelled; a bar that
/// met its goal is filled and marked ✓, so it differs by more than colour.
struct HabitChart {
    static let width = 640.0
    static let height = 240.0
    static let left = 52.0, right = 512.0, top = 20.0, bottom = 196.0

    struct Bar: Equatable {
        var x: Double
        var width: Double
        /// The bar's top (its bottom is the axis).
        var y: Double
        /// In the chart's unit.
        var value: Double
        /// "Tue 3", "12", "Mar".
        var label: String
        /// "Tuesday 3 March 2026", "March 2026 (daily average of 21 days logged)".
        var title: String
        var met: Bool
        var logged: Bool
    }

    /// How figures are shown on the axis: canonical amounts divided by `divisor`, in `unit`.
    struct Units: Equatable {
        var divisor: Double
        var unit: String

        static func of(_ metric: LogMetric, _ units: HealthSettings.Units, largest: Double) -> Units {
            switch metric {
            case .water:
                if units == .us { return Units(divisor: 1 / HealthUnit.usFluidOunce.fromCanonical(1), unit: "fl oz") }
                return largest >= 1000 ? Units(divisor: 1000, unit: "L") : Units(divisor: 1, unit: "ml")
            case .sleep, .workout: return Units(divisor: 60, unit: "h")
            case .meal: return Units(divisor: 1, unit: "kcal")
            case .weight: return units == .us ? Units(divisor: 1 / HealthUnit.pound.fromCanonical(1), unit: "lb") : Units(divisor: 1, unit: "kg")
            case .bp: return Units(divisor: 1, unit: "mmHg")
            case .glucose: return Units(divisor: 1, unit: "mmol/L")
            }
        }
    }

    let units: Units
    let scale: AxisScale
    let bars: [Bar]
    /// The goal and average lines' heights, nil when there is none.
    let goalY: Double?
    let averageY: Double?
    let goal: Double
    let average: Double?
    /// Which bars carry a label under them.
    let labelEvery: Int
    /// A bar a month (a year's chart).
    let monthly: Bool
    /// The goal is a week's: its line is the daily share, and days are not met on their own.
    let weekly: Bool

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    init(_ stats: HabitStats, units system: HealthSettings.Units, today: CalendarDate) {
        let metric = stats.metric
        let weekly = stats.goal.period == .week
        self.weekly = weekly
        struct Column { var day: CalendarDate; var value: Double; var goal: Double; var met: Bool; var logged: Bool; var label: String; var title: String }
        var columns: [Column] = []
        if stats.period.days > 62 {
            // A bar a month: the daily average over the days logged that month (HabitStats.months).
            for month in stats.months(through: today) {
                let (year, number, logged) = (month.year, month.month, month.daysLogged)
                columns.append(Column(day: CalendarDate(year: year, month: number, day: 1)!, value: month.average, goal: month.goal, met: month.met,
                                      logged: logged > 0, label: String(Self.months[number - 1].prefix(3)),
                                      title: weekly ? "\(Self.months[number - 1]) \(year): total a day over the month"
                                          : "\(Self.months[number - 1]) \(year): daily average of \(logged) \(logged == 1 ? "day" : "days") logged"))
            }
        } else {
            for point in stats.days where point.day <= today {
                let weekday = Self.weekdays[point.day.weekdayNumber - 1]
                columns.append(Column(day: point.day, value: point.total, goal: point.goal, met: point.met == true, logged: point.entries > 0,
                                      label: stats.period.days <= 7 ? "\(weekday) \(point.day.day)" : String(point.day.day),
                                      title: "\(weekday) \(point.day.day) \(Self.months[point.day.month - 1]) \(point.day.year)"))
            }
        }
        let goal = stats.goal.period == .week ? stats.goal.value / 7 : stats.goal.value
        // A weekly goal's average is over every day of the period (its daily share), as the goal line is.
        let dailyAverage = weekly ? stats.weeklyAverage.map { $0 / 7 } : stats.dailyAverage
        let largest = max(columns.map(\.value).max() ?? 0, goal, dailyAverage ?? 0)
        units = Units.of(metric, system, largest: largest)
        let divisor = units.divisor
        scale = AxisScale(covering: 0, max(largest / divisor, 1e-6) * 1.05, ticks: 5)
        self.goal = goal / divisor
        average = dailyAverage.map { $0 / divisor }
        let scale = self.scale
        func y(_ value: Double) -> Double { scale.position(value, top: Self.top, bottom: Self.bottom) }
        goalY = goal > 0 ? y(goal / divisor) : nil
        averageY = average.map(y)
        // Bars share the width; a bar takes 70% of its slot.
        let slot = (Self.right - Self.left) / Double(max(1, columns.count))
        bars = columns.enumerated().map { index, column in
            let value = column.value / divisor
            return Bar(x: Self.left + Double(index) * slot + slot * 0.15, width: slot * 0.7, y: y(value), value: value,
                       label: column.label, title: column.title, met: column.met, logged: column.logged)
        }
        monthly = stats.period.days > 62
        labelEvery = monthly || columns.count <= 12 ? 1 : columns.count <= 31 ? 5 : 10
    }

    /// A figure in the chart's unit as written on it.
    func figure(_ value: Double) -> String {
        let decimals = units.unit == "L" || units.unit == "h" ? (value < 10 ? 1 : 0) : 0
        return HealthFormat.number(value, decimals: decimals == 1 && units.unit == "L" ? 2 : decimals) + " " + units.unit
    }

    func svg(title: String) -> HTML {
        var parts: [HTML] = []
        let left = svgNumber(Self.left), right = svgNumber(Self.right)
        for tick in scale.ticks {
            let y = svgNumber(scale.position(tick, top: Self.top, bottom: Self.bottom))
            parts.append("<line class=\"grid\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(y)\" y2=\"\(y)\"/>")
            parts.append("<text class=\"tick\" x=\"\(svgNumber(Self.left - 6))\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(scale.label(tick))</text>")
        }
        parts.append("<text class=\"tick unit\" x=\"4\" y=\"12\">\(units.unit)</text>")
        let showValues = bars.count <= 13
        for (index, bar) in bars.enumerated() {
            let height = max(0, Self.bottom - bar.y)
            let centre = svgNumber(bar.x + bar.width / 2)
            let state = bar.met ? "goal met" : bar.logged ? "goal not met" : "nothing logged"
            var inner: HTML = "<rect x=\"\(svgNumber(bar.x))\" y=\"\(svgNumber(bar.y))\" width=\"\(svgNumber(bar.width))\" height=\"\(svgNumber(height))\"/>"
            // Above the bar: its figure (when there is room for one a bar) and ✓ when it met the goal.
            let above = [showValues && bar.logged ? figure(bar.value).split(separator: " ").first.map(String.init) : nil, bar.met ? "✓" : nil]
                .compactMap { $0 }.joined(separator: " ")
            if !above.isEmpty {
                inner = "\(inner)<text class=\"\(showValues ? "value" : "met-mark")\" x=\"\(centre)\" y=\"\(svgNumber(bar.y - 5))\" text-anchor=\"middle\">\(above)</text>"
            }
            if index % labelEvery == 0 || index == bars.count - 1 {
                // "Mon 23" on a wide screen, "23" on a phone (the weekday is in the bar's title).
                let parts = bar.label.split(separator: " ", maxSplits: 1).map(String.init)
                let label: HTML = parts.count == 2 && !monthly ? "<tspan class=\"long\">\(parts[0]) </tspan>\(parts[1])" : "\(bar.label)"
                inner = "\(inner)<text class=\"tick\" x=\"\(centre)\" y=\"\(svgNumber(Self.bottom + 18))\" text-anchor=\"middle\">\(label)</text>"
            }
            parts.append("""
            <g class="bar\(bar.met ? " met" : "")\(bar.logged ? "" : " empty")" data-value="\(HealthFormat.number(bar.value, decimals: 3))" data-y="\(svgNumber(bar.y))">\
            <title>\(bar.title): \(figure(bar.value)), \(state)</title>\(inner)</g>
            """)
        }
        parts.append("<line class=\"axis\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(svgNumber(Self.bottom))\" y2=\"\(svgNumber(Self.bottom))\"/>")
        // The lines' labels stand to the right of the plot, where no bar is; the average's moves
        // clear of the goal's when the two lines are close.
        let labelX = svgNumber(Self.right + 6)
        if let goalY {
            parts.append("<line class=\"goal-line\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(svgNumber(goalY))\" y2=\"\(svgNumber(goalY))\" data-value=\"\(HealthFormat.number(goal, decimals: 3))\"/>")
            parts.append("<text class=\"line-label goal-label\" x=\"\(labelX)\" y=\"\(svgNumber(goalY))\" dominant-baseline=\"middle\">goal \(figure(goal))\(weekly ? "/day" : "")</text>")
        }
        if let averageY, let average {
            var labelY = averageY
            if let goalY, abs(goalY - averageY) < 15 { labelY = averageY >= goalY ? goalY + 15 : goalY - 15 }
            parts.append("<line class=\"average-line\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(svgNumber(averageY))\" y2=\"\(svgNumber(averageY))\" data-value=\"\(HealthFormat.number(average, decimals: 3))\"/>")
            parts.append("<text class=\"line-label\" x=\"\(labelX)\" y=\"\(svgNumber(labelY))\" dominant-baseline=\"middle\"><tspan class=\"long\">average </tspan><tspan class=\"short\">avg </tspan>\(figure(average))</text>")
        }
        return """
        <svg class="chart habit-chart" viewBox="0 0 \(svgNumber(Self.width)) \(svgNumber(Self.height))" role="img" aria-label="\(title)">
        \(HTML(parts, separator: "\n"))
        </svg>
        """
    }
}
