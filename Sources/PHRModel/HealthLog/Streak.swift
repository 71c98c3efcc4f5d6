import Foundation

/// Runs of days (or weeks, for a weekly goal) on which a goal was met.
///
/// Rules, as habit trackers and Apple's activity rings count them:
/// - a streak is consecutive days (weeks) that met their goal; a day without entries breaks
///   it (nothing logged is not a goal met);
/// - the **current** streak ends today if today's goal is already met, else yesterday: today
///   can still be met, so an unmet today does not break the streak yet;
/// - the **longest** streak is over all history up to today; of equally long runs, the most
///   recent is reported.
public struct Streak: Codable, Sendable, Equatable {
    public var current: Int
    public var longest: Int
    /// Whether the counts are days or weeks.
    public var unit: GoalPeriod
    /// The first day (a Monday, for weeks) of the current streak.
    public var currentFrom: CalendarDate?
    /// The first and last day of the longest streak (for weeks: the Monday and the Sunday).
    public var longestFrom: CalendarDate?
    public var longestTo: CalendarDate?

    enum CodingKeys: String, CodingKey {
        case current, longest, unit
        case currentFrom = "current_from"
        case longestFrom = "longest_from"
        case longestTo = "longest_to"
    }

    public static let none = Streak(current: 0, longest: 0, unit: .day, currentFrom: nil, longestFrom: nil, longestTo: nil)

    /// Streaks over `units`, oldest first, the last one being the current (unfinished) day or
    /// week.
    public static func compute(_ units: [GoalUnit], unit: GoalPeriod) -> Streak {
        var streak = Streak(current: 0, longest: 0, unit: unit, currentFrom: nil, longestFrom: nil, longestTo: nil)
        var run = 0
        for (index, item) in units.enumerated() {
            run = item.met ? run + 1 : 0
            if item.met && run >= streak.longest {
                streak.longest = run
                streak.longestFrom = units[index - run + 1].start
                streak.longestTo = item.start.plus(unit.days - 1)
            }
        }
        // The run ending at the last unit, or at the one before when the last is not met yet.
        var end = units.count - 1
        if end >= 0 && !units[end].met { end -= 1 }
        var start = end
        while start >= 0 && units[start].met { start -= 1 }
        streak.current = end - start
        if streak.current > 0 { streak.currentFrom = units[start + 1].start }
        return streak
    }
}

/// One day, or one week for a weekly goal, judged against its goal.
public struct GoalUnit: Sendable, Equatable {
    /// The day, or the Monday of the week.
    public var start: CalendarDate
    public var met: Bool
    /// The day the goal was reached: the day itself, or the day in the week when the running
    /// total got there (for a weekly budget, the week's last logged day).
    public var metOn: CalendarDate?

    public init(start: CalendarDate, met: Bool, metOn: CalendarDate?) {
        self.start = start
        self.met = met
        self.metOn = metOn
    }
}
