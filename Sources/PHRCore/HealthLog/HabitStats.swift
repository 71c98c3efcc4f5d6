import Foundation

/// What `phr stats METRIC` shows for a habit (water, sleep, workouts, meals) over a period.
///
/// Rules (README, "Health log"):
/// - a day's total is the sum of its entries (water: volume × hydration factor; sleep: every
///   sleep that ended that day, naps included);
/// - the **daily average** is the total over the days with entries ("days logged"), as Apple
///   Health averages over days with data;
/// - **goal met** counts days logged whose total met that day's goal (a weekly goal: weeks
///   with entries whose total met it), out of days (weeks) logged; today counts as it stands;
/// - the **trend** compares the daily average with the period of the same length before it:
///   "up" or "down" from ±5% (rounded to a whole percent), else "steady";
/// - streaks and achievements run over all history up to today (Streak.swift).
public struct HabitStats: Codable, Sendable {
    /// One day of the period.
    public struct DayPoint: Codable, Sendable, Equatable {
        public var day: CalendarDate
        public var total: Double
        public var entries: Int
        /// The day's goal (a weekly goal: its daily share, a seventh, for charts).
        public var goal: Double
        /// Whether the day met its goal; nil for weekly goals, which weeks meet.
        public var met: Bool?
    }

    /// A drink's, workout type's or meal's share of the period.
    public struct Share: Codable, Sendable, Equatable {
        /// The drink, type or meal; "" for entries without one.
        public var kind: String
        /// What counted toward the total.
        public var amount: Double
        /// As logged (water: the volume drunk, before the hydration factor).
        public var logged: Double
        public var entries: Int
        /// amount / the period's total, 0 to 1.
        public var share: Double
    }

    public struct Tally: Codable, Sendable, Equatable {
        public var met: Int
        /// Days (or weeks) with entries.
        public var logged: Int
        public var unit: GoalPeriod
    }

    public struct Previous: Codable, Sendable, Equatable {
        public var from: CalendarDate
        public var to: CalendarDate
        public var total: Double
        public var daysLogged: Int
        public var dailyAverage: Double?

        enum CodingKeys: String, CodingKey {
            case from, to, total
            case daysLogged = "days_logged"
            case dailyAverage = "daily_average"
        }
    }

    /// The month of the period's last day, for the calendar view.
    public struct MonthMarks: Codable, Sendable, Equatable {
        public var year: Int
        public var month: Int
        /// Days of the month whose goal was met (for a weekly goal: the day its week got there).
        public var metDays: [Int]
        public var loggedDays: [Int]

        enum CodingKeys: String, CodingKey {
            case year, month
            case metDays = "met_days"
            case loggedDays = "logged_days"
        }
    }

    public enum Trend: String, Codable, Sendable {
        case up, down, steady
    }

    public var metric: LogMetric
    public var period: StatsPeriod
    /// The goal in effect on the period's last day.
    public var goal: EffectiveGoal
    public var total: Double
    public var entries: Int
    public var daysLogged: Int
    public var dailyAverage: Double?
    /// For weekly goals: the total per 7 days of the period.
    public var weeklyAverage: Double?
    public var goalMet: Tally
    public var streak: Streak
    public var previous: Previous
    /// The daily average's change against the previous period, as a fraction (0.12 = +12%).
    public var change: Double?
    public var trend: Trend?
    public var days: [DayPoint]
    /// The 7 days ending on the period's last day (the terminal bar chart).
    public var lastSevenDays: [DayPoint]
    public var breakdown: [Share]
    public var calendar: MonthMarks
    public var achievements: [Achievement]
    public var nextAchievement: Achievement?

    enum CodingKeys: String, CodingKey {
        case metric, period, goal, total, entries
        case daysLogged = "days_logged"
        case dailyAverage = "daily_average"
        case weeklyAverage = "weekly_average"
        case goalMet = "goal_met"
        case streak, previous, change, trend, days
        case lastSevenDays = "last_seven_days"
        case breakdown, calendar, achievements
        case nextAchievement = "next_achievement"
    }

    /// The statistics of `series` over `period`, judged by `goals`, with `today` the last day
    /// that counts (entries dated later are ignored).
    public static func compute(_ series: HabitSeries, goals: GoalBook, period: StatsPeriod, today: CalendarDate) -> HabitStats {
        let metric = series.metric
        let goal = goals.goal(metric, on: period.to)
        let unit = goal.period

        func point(_ day: CalendarDate) -> DayPoint {
            let data = series[day]
            let total = data?.total ?? 0
            let daily = goals.goal(metric, on: day, per: .day)
            return DayPoint(day: day, total: total, entries: data?.entries ?? 0, goal: daily.value,
                            met: unit == .day ? goals.goal(metric, on: day).isMet(by: total, logged: data != nil) : nil)
        }

        let units = Self.units(series, goals: goals, unit: unit, today: today)
        let streak = Streak.compute(units, unit: unit)

        let sums = series.total(from: period.from, to: min(period.to, today))
        let previousPeriod = period.previous
        let before = series.total(from: previousPeriod.from, to: previousPeriod.to)
        let average = sums.daysLogged > 0 ? sums.total / Double(sums.daysLogged) : nil
        let previousAverage = before.daysLogged > 0 ? before.total / Double(before.daysLogged) : nil
        var change: Double?
        var trend: Trend?
        if let average, let previousAverage, previousAverage > 0 {
            change = (average - previousAverage) / previousAverage
            // Judged on the whole percentage shown, so "-5%" never reads "steady".
            let percent = Int((change! * 100).rounded())
            trend = percent >= 5 ? .up : percent <= -5 ? .down : .steady
        }

        // Days (weeks) logged in the period and how many met their goal.
        var tally = Tally(met: 0, logged: 0, unit: unit)
        let firstUnit = unit == .day ? period.from : Self.monday(of: period.from)
        for item in units where item.start >= firstUnit && item.start <= period.to {
            let logged = unit == .day ? series[item.start] != nil
                : (0..<7).contains { series[item.start.plus($0)] != nil }
            guard logged else { continue }
            tally.logged += 1
            if item.met { tally.met += 1 }
        }

        var kinds: [String: HabitSeries.KindAmount] = [:]
        for day in series.days where period.contains(day.day) && day.day <= today {
            for (kind, amount) in day.byKind {
                var sum = kinds[kind] ?? HabitSeries.KindAmount(counted: 0, raw: 0, entries: 0)
                sum.counted += amount.counted
                sum.raw += amount.raw
                sum.entries += amount.entries
                kinds[kind] = sum
            }
        }
        let breakdown = kinds.map { kind, sum in
            Share(kind: kind, amount: sum.counted, logged: sum.raw, entries: sum.entries, share: sums.total > 0 ? sum.counted / sums.total : 0)
        }.sorted { ($1.amount, $0.kind) < ($0.amount, $1.kind) }

        var marks = MonthMarks(year: period.to.year, month: period.to.month, metDays: [], loggedDays: [])
        for item in units where item.met {
            if let day = item.metOn, day.year == marks.year, day.month == marks.month { marks.metDays.append(day.day) }
        }
        for day in series.days where day.day.year == marks.year && day.day.month == marks.month && day.day <= today {
            marks.loggedDays.append(day.day.day)
        }

        let achievements = Achievements.evaluate(series, units: units, unit: unit, current: streak.current, through: today)
        return HabitStats(
            metric: metric, period: period, goal: goal, total: sums.total, entries: sums.entries, daysLogged: sums.daysLogged,
            dailyAverage: average, weeklyAverage: unit == .week ? sums.total * 7 / Double(period.days) : nil,
            goalMet: tally, streak: streak,
            previous: Previous(from: previousPeriod.from, to: previousPeriod.to, total: before.total, daysLogged: before.daysLogged,
                               dailyAverage: previousAverage),
            change: change, trend: trend, days: period.allDays.map(point),
            lastSevenDays: (0..<7).map { point(period.to.plus($0 - 6)) },
            breakdown: breakdown, calendar: marks, achievements: achievements, nextAchievement: Achievements.next(achievements))
    }

    /// Every day (or week) from the first entry to today, judged against its goal.
    static func units(_ series: HabitSeries, goals: GoalBook, unit: GoalPeriod, today: CalendarDate) -> [GoalUnit] {
        guard let first = series.firstDay, first <= today else { return [] }
        let metric = series.metric
        var result: [GoalUnit] = []
        switch unit {
        case .day:
            var day = first
            while day <= today {
                let data = series[day]
                let met = goals.goal(metric, on: day).isMet(by: data?.total ?? 0, logged: data != nil)
                result.append(GoalUnit(start: day, met: met, metOn: met ? day : nil))
                day = day.plus(1)
            }
        case .week:
            var monday = Self.monday(of: first)
            while monday <= today {
                let last = min(monday.plus(6), today)
                let goal = goals.goal(metric, on: last, per: .week)
                var running = 0.0
                var reachedOn: CalendarDate?
                var lastLogged: CalendarDate?
                var day = monday
                while day <= last {
                    if let data = series[day] {
                        running += data.total
                        lastLogged = day
                        if reachedOn == nil && goal.direction == .atLeast && running >= goal.value { reachedOn = day }
                    }
                    day = day.plus(1)
                }
                let met = goal.isMet(by: running, logged: lastLogged != nil)
                result.append(GoalUnit(start: monday, met: met, metOn: met ? (reachedOn ?? lastLogged) : nil))
                monday = monday.plus(7)
            }
        }
        return result
    }

    /// The Monday of `day`'s ISO week.
    static func monday(of day: CalendarDate) -> CalendarDate { day.monday }
}
