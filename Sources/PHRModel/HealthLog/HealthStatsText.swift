import Foundation

/// The figures of statistics as labelled lines of text, written once for `phr stats` and the
/// PDF report, so the report shows exactly what the terminal shows.
public enum HealthStatsText {
    public struct Line: Sendable, Equatable {
        public var label: String
        public var value: String

        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// "2 L a day", "2h 30m a week", "2,500 kcal a day at most".
    public static func goal(_ value: Double, _ metric: LogMetric, _ period: GoalPeriod, _ format: HealthFormat) -> String {
        format.goal(value, metric, period: period) + (metric.goalDirection == .atMost ? " at most" : "")
    }

    /// "3 of 7 days", "1 of 1 week".
    public static func tally(_ tally: HabitStats.Tally) -> String {
        let unit = tally.unit == .day ? "day" : "week"
        return "\(tally.met) of \(tally.logged) \(tally.logged == 1 ? unit : unit + "s")"
    }

    /// "2 days now, longest 9 days (2026-02-01 to 2026-02-09)".
    public static func streak(_ streak: Streak) -> String {
        let one = streak.unit == .day ? "day" : "week"
        func count(_ n: Int) -> String { "\(n) \(n == 1 ? one : one + "s")" }
        var text = "\(count(streak.current)) now, longest \(count(streak.longest))"
        if let from = streak.longestFrom, let to = streak.longestTo, streak.longest > 0 { text += " (\(from) to \(to))" }
        return text
    }

    /// A habit's figures: total, averages, trend, goal, goal met, streak and the breakdown.
    public static func habit(_ stats: HabitStats, _ format: HealthFormat) -> [Line] {
        let metric = stats.metric
        var lines = [
            Line("total", "\(format.amount(stats.total, metric)) over \(stats.daysLogged) \(stats.daysLogged == 1 ? "day" : "days") logged"),
            Line("daily average", stats.dailyAverage.map { format.amount($0, metric) } ?? "—"),
        ]
        if let weekly = stats.weeklyAverage { lines.append(Line("weekly average", format.amount(weekly, metric))) }
        if let change = stats.change, let trend = stats.trend, let previous = stats.previous.dailyAverage {
            lines.append(Line("trend", "\(trend.rawValue), \(HealthFormat.percentChange(change)) on the \(stats.period.days) days before (\(format.amount(previous, metric)) a day)"))
        }
        lines.append(Line("goal", goal(stats.goal.value, metric, stats.goal.period, format) + (stats.goal.isDefault ? " (default)" : "")))
        lines.append(Line("goal met", tally(stats.goalMet) + " logged"))
        lines.append(Line("streak", streak(stats.streak)))
        if let breakdown = breakdown(stats, format) { lines.append(Line("by " + (metric.kindName ?? "kind"), breakdown)) }
        return lines
    }

    /// "water 9.1 L (73%), coffee 2 L (16%)"; nil when there is nothing to split (plain water only).
    public static func breakdown(_ stats: HabitStats, _ format: HealthFormat) -> String? {
        let kinds = stats.breakdown
        guard kinds.count > 1 || kinds.first.map({ !$0.kind.isEmpty && $0.kind != HydrationFactors.defaultDrink }) == true else { return nil }
        return kinds.map { share in
            "\(share.kind.isEmpty ? "other" : share.kind.replacingOccurrences(of: "-", with: " ")) \(format.amount(share.amount, stats.metric)) (\(Int((share.share * 100).rounded()))%)"
        }.joined(separator: ", ")
    }

    /// A measurement value: "72.5 kg", "120/80 mmHg".
    public static func value(_ metric: LogMetric, _ format: HealthFormat, _ systolic: Double?, _ diastolic: Double?) -> String? {
        guard let systolic else { return nil }
        return metric == .bp ? format.bloodPressure(systolic: systolic, diastolic: diastolic ?? 0) : format.amount(systolic, metric)
    }

    /// "72.5 kg on 2026-03-10".
    public static func latest(_ stats: MeasurementStats, _ format: HealthFormat) -> String {
        guard let entry = stats.latest else { return "—" }
        let value = stats.metric == .bp ? format.bloodPressure(systolic: entry.value, diastolic: entry.diastolic ?? 0)
            : format.amount(entry.value, stats.metric)
        return "\(value) on \(entry.day)"
    }

    /// "72.1 kg to 73.4 kg".
    public static func range(_ stats: MeasurementStats, _ format: HealthFormat) -> String? {
        guard let low = value(stats.metric, format, stats.minimum, stats.diastolicMinimum),
              let high = value(stats.metric, format, stats.maximum, stats.diastolicMaximum) else { return nil }
        return "\(low) to \(high)"
    }

    /// "down, -0.3 kg a week"; for blood pressure the systolic slope.
    public static func trend(_ stats: MeasurementStats, _ format: HealthFormat) -> String? {
        guard let slope = stats.slopePerWeek, let trend = stats.trend else { return nil }
        let amount = stats.metric == .bp ? "\(HealthFormat.number(abs(slope), decimals: 1)) mmHg systolic" : format.amount(abs(slope), stats.metric)
        return "\(trend.rawValue), \(slope < 0 ? "-" : "+")\(amount) a week"
    }

    /// A measurement's figures: latest, average, range, pulse, trend and the period before.
    public static func measurement(_ stats: MeasurementStats, _ format: HealthFormat) -> [Line] {
        let metric = stats.metric
        var lines = [Line("latest", latest(stats, format))]
        guard stats.readings > 0 else { return lines + [Line("readings", "none in this period")] }
        let average = value(metric, format, stats.average, stats.diastolicAverage)!
        lines.append(Line("average", "\(average) over \(stats.readings) \(stats.readings == 1 ? "reading" : "readings") on \(stats.daysLogged) \(stats.daysLogged == 1 ? "day" : "days")"))
        if let range = range(stats, format) { lines.append(Line("range", range)) }
        if let pulse = stats.pulseAverage { lines.append(Line("pulse", "\(HealthFormat.number(pulse, decimals: 0)) a minute on average")) }
        if let trend = trend(stats, format) { lines.append(Line("trend", trend)) }
        if let previous = value(metric, format, stats.previousAverage, stats.previousDiastolicAverage) {
            lines.append(Line("before", "\(previous) on average in the \(stats.period.days) days before"))
        }
        return lines
    }
}
