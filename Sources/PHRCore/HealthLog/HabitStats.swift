import Foundation

extension HabitStats {
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
