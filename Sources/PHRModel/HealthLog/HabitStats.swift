import Foundation

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

        package init(day: CalendarDate, total: Double, entries: Int, goal: Double, met: Bool? = nil) {
            self.day = day
            self.total = total
            self.entries = entries
            self.goal = goal
            self.met = met
        }
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

        package init(kind: String, amount: Double, logged: Double, entries: Int, share: Double) {
            self.kind = kind
            self.amount = amount
            self.logged = logged
            self.entries = entries
            self.share = share
        }
    }

    public struct Tally: Codable, Sendable, Equatable {
        public var met: Int
        /// Days (or weeks) with entries.
        public var logged: Int
        public var unit: GoalPeriod

        package init(met: Int, logged: Int, unit: GoalPeriod) {
            self.met = met
            self.logged = logged
            self.unit = unit
        }
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

        package init(
            from: CalendarDate,
            to: CalendarDate,
            total: Double,
            daysLogged: Int,
            dailyAverage: Double? = nil
        ) {
            self.from = from
            self.to = to
            self.total = total
            self.daysLogged = daysLogged
            self.dailyAverage = dailyAverage
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

        package init(year: Int, month: Int, metDays: [Int], loggedDays: [Int]) {
            self.year = year
            self.month = month
            self.metDays = metDays
            self.loggedDays = loggedDays
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

    package init(
        metric: LogMetric,
        period: StatsPeriod,
        goal: EffectiveGoal,
        total: Double,
        entries: Int,
        daysLogged: Int,
        dailyAverage: Double? = nil,
        weeklyAverage: Double? = nil,
        goalMet: Tally,
        streak: Streak,
        previous: Previous,
        change: Double? = nil,
        trend: Trend? = nil,
        days: [DayPoint],
        lastSevenDays: [DayPoint],
        breakdown: [Share],
        calendar: MonthMarks,
        achievements: [Achievement],
        nextAchievement: Achievement? = nil
    ) {
        self.metric = metric
        self.period = period
        self.goal = goal
        self.total = total
        self.entries = entries
        self.daysLogged = daysLogged
        self.dailyAverage = dailyAverage
        self.weeklyAverage = weeklyAverage
        self.goalMet = goalMet
        self.streak = streak
        self.previous = previous
        self.change = change
        self.trend = trend
        self.days = days
        self.lastSevenDays = lastSevenDays
        self.breakdown = breakdown
        self.calendar = calendar
        self.achievements = achievements
        self.nextAchievement = nextAchievement
    }
}

extension HabitStats {
    /// One calendar month of a long period: the daily average of the days logged (for a weekly
    /// goal, the total a day over every day of the month, as its goal line is the goal's daily
    /// share), the daily goal, and whether the month met it.
    public struct Month: Sendable, Equatable {
        public var year: Int
        public var month: Int
        public var average: Double
        public var goal: Double
        public var met: Bool
        public var daysLogged: Int
    }

    /// The period's days up to `today`, a month at a time, oldest first: what a chart of a year
    /// draws (a bar a month), in the web UI and in the terminal alike.
    public func months(through today: CalendarDate) -> [Month] {
        let weekly = goal.period == .week
        var order: [Int] = []
        var groups: [Int: [DayPoint]] = [:]
        for point in days where point.day <= today {
            let key = point.day.year * 12 + point.day.month - 1
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(point)
        }
        return order.map { key in
            let points = groups[key]!
            let logged = points.filter { $0.entries > 0 }
            let average = weekly ? points.map(\.total).reduce(0, +) / Double(points.count)
                : logged.isEmpty ? 0 : logged.map(\.total).reduce(0, +) / Double(logged.count)
            let goal = points.map(\.goal).reduce(0, +) / Double(points.count)
            let met = !logged.isEmpty && (metric.goalDirection == .atLeast ? average >= goal : average <= goal)
            return Month(year: key / 12, month: key % 12 + 1, average: average, goal: goal, met: met, daysLogged: logged.count)
        }
    }
}
