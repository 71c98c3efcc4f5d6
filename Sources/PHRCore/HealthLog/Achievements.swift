import Foundation

/// Works out a habit's achievements from its history. They are derived, never stored, so
/// editing or importing entries can never leave a stale badge.
public enum Achievements {
    /// Streak milestones: days for daily goals, weeks for weekly ones.
    static let dayStreaks: [(Int, String)] = [(7, "First week"), (30, "A month in a row"), (100, "100 days in a row"), (365, "A year in a row")]
    static let weekStreaks: [(Int, String)] = [(4, "Four weeks in a row"), (12, "Twelve weeks in a row"), (52, "A year of weeks")]

    /// Total milestones in canonical units (meals count entries instead).
    static func totals(_ metric: LogMetric) -> [(Double, String)] {
        switch metric {
        case .water: return [(10_000, "10 litres"), (100_000, "100 litres"), (1_000_000, "1,000 litres")]
        case .sleep: return [(6_000, "100 hours of sleep"), (60_000, "1,000 hours of sleep")]
        case .workout: return [(600, "10 hours of workouts"), (6_000, "100 hours of workouts"), (60_000, "1,000 hours of workouts")]
        case .meal: return [(100, "100 meals logged"), (1_000, "1,000 meals logged")]
        case .weight, .bp, .glucose: return []
        }
    }

    /// Every achievement of `series`, in a fixed order: reached ones carry their day.
    /// `units` are the days (or weeks) from the first entry to today, judged as for
    /// `Streak.compute`; `current` is the current streak. Entries dated after `today` (logged
    /// with a zone already in tomorrow) do not count yet.
    public static func evaluate(_ series: HabitSeries, units: [GoalUnit], unit: GoalPeriod,
                                current: Int, through today: CalendarDate) -> [Achievement] {
        let metric = series.metric
        let name = metric.rawValue
        var result: [Achievement] = []

        let first = series.firstDay.flatMap { $0 <= today ? $0 : nil }
        result.append(Achievement(id: "\(name)-first-entry", title: "First entry", detail: "logged \(Self.noun(metric)) for the first time",
                                  achievedOn: first, progress: first == nil ? 0 : 1))
        let firstMet = units.first { $0.met }
        result.append(Achievement(id: "\(name)-first-goal", title: "Goal reached",
                                  detail: "met the \(Self.noun(metric)) goal for the first time",
                                  achievedOn: firstMet.map { $0.metOn ?? $0.start }, progress: firstMet == nil ? 0 : 1))

        // The day each streak length was first reached.
        let milestones = unit == .day ? dayStreaks : weekStreaks
        var reached: [Int: CalendarDate] = [:]
        var run = 0
        for item in units {
            run = item.met ? run + 1 : 0
            for (length, _) in milestones where run == length && reached[length] == nil {
                reached[length] = item.metOn ?? item.start
            }
        }
        for (length, title) in milestones {
            let unitName = unit == .day ? "days" : "weeks"
            result.append(Achievement(id: "\(name)-streak-\(length)", title: title,
                                      detail: "\(length) \(unitName) in a row at the \(Self.noun(metric)) goal", achievedOn: reached[length],
                                      progress: reached[length] != nil ? 1 : min(1, Double(current) / Double(length))))
        }

        // Totals: cumulative amount (or entries, for meals) crossing each threshold.
        let countsEntries = metric == .meal
        var cumulative = 0.0
        var crossed: [Double: CalendarDate] = [:]
        let thresholds = totals(metric)
        for day in series.days where day.day <= today {
            cumulative += countsEntries ? Double(day.entries) : day.total
            for (threshold, _) in thresholds where crossed[threshold] == nil && cumulative >= threshold {
                crossed[threshold] = day.day
            }
        }
        for (threshold, title) in thresholds {
            result.append(Achievement(id: "\(name)-total-\(Int(threshold))", title: title,
                                      detail: countsEntries ? "meals logged in all" : "\(Self.noun(metric)) logged in all",
                                      achievedOn: crossed[threshold], progress: min(1, cumulative / threshold)))
        }
        return result
    }

    /// The unreached achievement closest to being reached (ties: the first in order).
    public static func next(_ achievements: [Achievement]) -> Achievement? {
        var best: Achievement?
        for achievement in achievements where achievement.achievedOn == nil {
            if best == nil || achievement.progress > best!.progress { best = achievement }
        }
        return best
    }

    static func noun(_ metric: LogMetric) -> String {
        switch metric {
        case .water: return "water"
        case .sleep: return "sleep"
        case .workout: return "workout"
        case .meal: return "meal"
        case .weight: return "weight"
        case .bp: return "blood pressure"
        case .glucose: return "glucose"
        }
    }
}
