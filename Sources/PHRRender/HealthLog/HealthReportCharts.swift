import Foundation
import PHRModel
import PHRTypesetting

/// The charts of a health report: a bar per day (per week, beyond two months) for habits with
/// the goal as a dashed line, and a line through the daily means for measurements.
enum HealthReportCharts {
    /// Periods up to this many days get a bar per day; longer ones a bar per week.
    static let dailyBarsUpTo = 62
    static let metColor = BundleStyle.accent
    static let unmetColor = Color(hex: 0x9DB4CC)

    /// The bar chart of a habit: each day's total (or each week's daily average) in the unit the
    /// report writes it in, the daily goal as the line.
    static func habitChart(_ stats: HabitStats, format: HealthFormat) -> BarChart {
        let metric = stats.metric
        let (unit, scale, decimals) = displayUnit(metric, format)
        var bars: [BarChart.Bar] = []
        if stats.period.days <= dailyBarsUpTo {
            for point in stats.days {
                let label = stats.period.days <= 14 ? "\(weekday(point.day)) \(point.day.day)" : "\(point.day.day)"
                // A day without entries gets no "0" over its empty slot.
                bars.append(BarChart.Bar(label, point.total / scale, color: point.met == true ? metColor : unmetColor,
                                         valueLabel: point.entries == 0 ? "" : nil))
            }
        } else {
            // Weeks from the period's first day, the last one possibly shorter; each bar is the
            // week's total over its days (a daily average, comparable with the daily goal).
            var start = 0
            while start < stats.days.count {
                let week = stats.days[start..<min(start + 7, stats.days.count)]
                let average = week.reduce(0) { $0 + $1.total } / Double(week.count)
                let goal = week.reduce(0) { $0 + $1.goal } / Double(week.count)
                let met = LogMetric.GoalDirection.atLeast == metric.goalDirection ? average >= goal : average <= goal && average > 0
                let first = week.first!.day
                bars.append(BarChart.Bar(String(format: "%02d-%02d", first.month, first.day), average / scale,
                                         color: met ? metColor : unmetColor, valueLabel: average == 0 ? "" : nil))
                start += 7
            }
        }
        let dailyGoal = stats.goal.period == .day ? stats.goal.value : stats.goal.value / 7
        return BarChart(bars: bars, unit: unit, goal: dailyGoal / scale,
                        goalLabel: "goal " + format.amount(dailyGoal, metric) + (stats.goal.period == .week ? " (a seventh of the week's)" : ""),
                        color: metColor, fontSize: 7, decimals: decimals)
    }

    /// The axis unit, the divisor from canonical units, and the decimals of tick labels.
    static func displayUnit(_ metric: LogMetric, _ format: HealthFormat) -> (String, Double, Int) {
        switch metric {
        case .water: return format.units == .us ? ("fl oz", HealthUnit.millilitresPerUSFluidOunce, 0) : ("litres", 1000, 1)
        case .sleep: return ("hours", 60, 1)
        case .workout: return ("minutes", 1, 0)
        case .meal: return ("kcal", 1, 0)
        case .weight: return format.units == .us ? ("lb", HealthUnit.kilogramsPerPound, 1) : ("kg", 1, 1)
        case .bp: return ("mmHg", 1, 0)
        case .glucose:
            return format.glucoseUnit == .milligramPerDecilitre ? ("mg/dL", 1 / HealthUnit.milligramsPerDecilitrePerMillimolePerLitre, 0)
                                                               : ("mmol/L", 1, 1)
        }
    }

    static func weekday(_ day: CalendarDate) -> String {
        ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"][day.isoWeekday - 1]
    }

    /// Draws a measurement's daily means as a line with a dot per day (two lines for blood
    /// pressure), over value ticks spanning the range, with the period's days along the bottom.
    static func drawMeasurementChart(_ stats: MeasurementStats, format: HealthFormat, on canvas: PDFCanvas, in frame: Rect) {
        let (unit, scale, decimals) = displayUnit(stats.metric, format)
        let series: [[(CalendarDate, Double)]] = stats.metric == .bp
            ? [stats.days.map { ($0.day, $0.mean) }, stats.days.compactMap { day in day.diastolicMean.map { (day.day, $0) } }]
            : [stats.days.map { ($0.day, $0.mean / scale) }]
        let values = series.flatMap { $0.map(\.1) }
        guard let low = values.min(), let high = values.max() else { return }
        let small = TextStyle(size: 7, color: .muted)
        let padding = max((high - low) * 0.15, abs(high) * 0.01, 0.5)
        let step = niceStep((high - low + 2 * padding) / 4)
        let bottom = ((low - padding) / step).rounded(.down) * step
        let top = ((high + padding) / step).rounded(.up) * step
        let ticks = stride(from: bottom, through: top + step / 2, by: step).map { $0 }
        let tickText = { (value: Double) in String(format: "%.\(decimals)f", value) }
        let axisWidth = (ticks.map { canvas.measureText(.plain(tickText($0)), style: small).width }.max() ?? 0) + 6
        let labelHeight = canvas.measureText(.plain("Ag"), style: small).height
        canvas.drawText(.plain(unit), x: frame.x, y: frame.y, style: small)
        let plot = Rect(x: frame.x + axisWidth, y: frame.y + labelHeight + 4, width: frame.width - axisWidth - 4,
                        height: frame.height - 2 * labelHeight - 8)
        guard plot.width > 0, plot.height > 0, top > bottom else { return }
        func yPosition(_ value: Double) -> Double { plot.maxY - (value - bottom) / (top - bottom) * plot.height }
        let days = max(1, stats.period.days - 1)
        func xPosition(_ day: CalendarDate) -> Double { plot.x + Double(stats.period.from.days(until: day)) / Double(days) * plot.width }
        for tick in ticks {
            let y = yPosition(tick)
            canvas.line(fromX: plot.x, y: y, toX: plot.maxX, y: y, width: 0.3, color: .hairline)
            canvas.drawText(.plain(tickText(tick)), x: frame.x, y: y - labelHeight / 2, width: axisWidth - 4, style: small.aligned(.right))
        }
        for (day, alignment) in [(stats.period.from, TextStyle.Alignment.left), (stats.period.to, .right)] {
            let x = alignment == .left ? plot.x : plot.maxX - 60
            canvas.drawText(.plain(day.description), x: x, y: plot.maxY + 3, width: 60, style: small.aligned(alignment))
        }
        let colors = [BundleStyle.accent, unmetColor]
        for (index, points) in series.enumerated() {
            let color = colors[index % colors.count]
            let placed = points.map { (x: xPosition($0.0), y: yPosition($0.1)) }
            for (a, b) in zip(placed, placed.dropFirst()) {
                canvas.line(fromX: a.x, y: a.y, toX: b.x, y: b.y, width: 1.2, color: color)
            }
            for point in placed { canvas.circle(centerX: point.x, centerY: point.y, radius: 1.8, fill: color) }
        }
        if stats.metric == .bp {
            let legend = "systolic (dark), diastolic (light)"
            canvas.drawText(.plain(legend), x: plot.maxX - 160, y: frame.y, width: 160, style: small.aligned(.right))
        }
    }

    /// The smallest of 1, 2 or 5 times a power of ten not below `raw`, as the bar charts' axes use.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(raw)))
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= raw { return factor * magnitude }
        return 10 * magnitude
    }
}
