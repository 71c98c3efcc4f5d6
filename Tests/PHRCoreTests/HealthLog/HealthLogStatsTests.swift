import Foundation
import Testing
@testable import PHRCore
@testable import PHRModel

/// Totals, daily averages, goal-met days, streaks, trends and achievements, with exact
/// expected values, over entries logged through the store: across midnight, across the DST
/// changes of Europe/Berlin, and across a flight to New York.
@Suite struct HealthLogStatsTests {
    typealias X = HealthLogFixture

    static func day(_ text: String) -> CalendarDate { CalendarDate(text)! }

    @Test func waterStreaksGoalMetAndAverages() throws {
        let f = try X("stats-water")
        defer { f.cleanUp() }
        // Europe/Berlin is UTC+1 until 2026-03-29. The default goal is 2 L a day.
        for (at, amount) in [("2026-03-20T12:00:00+01:00", "2000ml"), ("2026-03-21T09:00:00+01:00", "1l"), ("2026-03-21T18:00:00+01:00", "1200ml"),
                             ("2026-03-22T10:00:00+01:00", "500ml"), ("2026-03-24T10:00:00+01:00", "2.5l"), ("2026-03-25T10:00:00+01:00", "2000ml"),
                             ("2026-03-26T10:00:00+01:00", "2100ml"), ("2026-03-27T09:00:00+01:00", "800ml")] {
            try f.log(.water, amount, at: at)
        }
        let now = "2026-03-27T12:00:00+01:00"
        var stats = try f.stats(now).habit(.water, .week(endingOn: Self.day("2026-03-27")))
        #expect(stats.period.from == Self.day("2026-03-21") && stats.period.to == Self.day("2026-03-27"))
        #expect(stats.total == 10_100 && stats.entries == 7 && stats.daysLogged == 6)
        #expect(stats.dailyAverage == 10_100.0 / 6)
        #expect(stats.goal == EffectiveGoal(metric: .water, value: 2000, period: .day, direction: .atLeast, since: nil, isDefault: true))
        #expect(stats.goalMet == HabitStats.Tally(met: 4, logged: 6, unit: .day))
        // Today (800 ml) is not met yet, so the streak counts back from yesterday: 26, 25, 24;
        // the empty 23rd broke the one before.
        #expect(stats.streak == Streak(current: 3, longest: 3, unit: .day, currentFrom: Self.day("2026-03-24"),
                                       longestFrom: Self.day("2026-03-24"), longestTo: Self.day("2026-03-26")))
        #expect(stats.previous == HabitStats.Previous(from: Self.day("2026-03-14"), to: Self.day("2026-03-20"), total: 2000, daysLogged: 1,
                                                       dailyAverage: 2000))
        #expect(stats.change == (10_100.0 / 6 - 2000) / 2000 && stats.trend == .down)
        #expect(stats.lastSevenDays.map(\.total) == [2200, 500, 0, 2500, 2000, 2100, 800])
        #expect(stats.lastSevenDays.map(\.met) == [true, false, false, true, true, true, false])
        #expect(stats.calendar == HabitStats.MonthMarks(year: 2026, month: 3, metDays: [20, 21, 24, 25, 26], loggedDays: [20, 21, 22, 24, 25, 26, 27]))
        #expect(stats.breakdown == [HabitStats.Share(kind: "water", amount: 10_100, logged: 10_100, entries: 7, share: 1)])
        let reached = stats.achievements.filter { $0.achievedOn != nil }.map { "\($0.id) \($0.achievedOn!)" }
        #expect(reached == ["water-first-entry 2026-03-20", "water-first-goal 2026-03-20", "water-total-10000 2026-03-26"])
        #expect(stats.nextAchievement?.id == "water-streak-7" && stats.nextAchievement?.progress == 3.0 / 7)

        // Reaching today's goal extends the streak to today.
        try f.log(.water, "1200ml", at: "2026-03-27T13:00:00+01:00")
        stats = try f.stats("2026-03-27T13:30:00+01:00").habit(.water, .week(endingOn: Self.day("2026-03-27")))
        #expect(stats.goalMet == HabitStats.Tally(met: 5, logged: 6, unit: .day))
        #expect(stats.streak == Streak(current: 4, longest: 4, unit: .day, currentFrom: Self.day("2026-03-24"),
                                       longestFrom: Self.day("2026-03-24"), longestTo: Self.day("2026-03-27")))
        #expect(HealthStatsText.habit(stats, HealthFormat(.defaults)).map { "\($0.label): \($0.value)" } == [
            "total: 11.3 L over 6 days logged",
            "daily average: 1.88 L",
            "trend: down, -6% on the 7 days before (2 L a day)",
            "goal: 2 L a day (default)",
            "goal met: 5 of 6 days logged",
            "streak: 4 days now, longest 4 days (2026-03-24 to 2026-03-27)",
        ])
    }

    @Test func sleepAcrossMidnightAndBothDSTChanges() throws {
        let f = try X("stats-sleep")
        defer { f.cleanUp() }
        func sleep(_ now: String, from: String?, to: String?, _ amount: String? = nil) throws -> LogEntry {
            try f.log(.sleep, amount, at: now) { input in
                input.from = from
                input.to = to
            }
        }
        // An ordinary night counts for the morning it ends.
        let ordinary = try sleep("2026-03-28T07:00:00+01:00", from: "22:30", to: "06:30")
        #expect(ordinary.start == "2026-03-27T21:30:00Z" && ordinary.at == "2026-03-28T05:30:00Z")
        #expect(ordinary.value == 480 && ordinary.day == Self.day("2026-03-28"))
        // 23:00 CET to 07:00 CEST: the clocks skipped an hour, so seven hours were slept.
        let spring = try sleep("2026-03-29T08:00:00+02:00", from: "23:00", to: "07:00")
        #expect(spring.start == "2026-03-28T22:00:00Z" && spring.at == "2026-03-29T05:00:00Z")
        #expect(spring.value == 420 && spring.day == Self.day("2026-03-29"))
        // A nap the same day adds to it.
        let nap = try sleep("2026-03-29T14:00:00+02:00", from: nil, to: "13:45", "45min")
        #expect(nap.start == "2026-03-29T11:00:00Z" && nap.value == 45 && nap.day == Self.day("2026-03-29"))
        // 23:00 CEST to 07:00 CET: the clocks repeated an hour, so nine hours were slept.
        let autumn = try sleep("2026-10-25T08:00:00+01:00", from: "23:00", to: "07:00")
        #expect(autumn.start == "2026-10-24T21:00:00Z" && autumn.at == "2026-10-25T06:00:00Z" && autumn.value == 540)

        let spring2 = try f.stats("2026-03-29T20:00:00+02:00").habit(.sleep, try StatsPeriod.last(2, endingOn: Self.day("2026-03-29")))
        #expect(spring2.days.map(\.total) == [480, 465])
        #expect(spring2.total == 945 && spring2.daysLogged == 2 && spring2.dailyAverage == 472.5)
        #expect(spring2.goalMet == HabitStats.Tally(met: 1, logged: 2, unit: .day))
        #expect(spring2.streak.current == 1 && spring2.streak.longest == 1)
        let autumnStats = try f.stats("2026-10-25T09:00:00+01:00").habit(.sleep, try StatsPeriod.last(1, endingOn: Self.day("2026-10-25")))
        #expect(autumnStats.total == 540 && autumnStats.goalMet.met == 1)
    }

    @Test func waterAcrossMidnightOnTheShortDSTDay() throws {
        let f = try X("stats-midnight")
        defer { f.cleanUp() }
        try f.log(.water, "500ml", at: "2026-03-28T23:59:00+01:00")
        // 2026-03-29 has 23 hours in Berlin; both of these belong to it.
        try f.log(.water, "1000ml", at: "2026-03-29T00:30:00+01:00")
        try f.log(.water, "1000ml", at: "2026-03-29T23:30:00+02:00")
        let stats = try f.stats("2026-03-29T23:45:00+02:00").habit(.water, try StatsPeriod.last(2, endingOn: Self.day("2026-03-29")))
        #expect(stats.days.map(\.total) == [500, 2000])
        #expect(stats.days.map(\.met) == [false, true])
        #expect(stats.streak.current == 1)
    }

    @Test func entriesKeepTheirDayAcrossATimeZoneChange() throws {
        let f = try X("stats-travel")
        defer { f.cleanUp() }
        // 23:30 in Berlin on the 10th, then a flight to New York (UTC-4 from 2026-03-08).
        let berlin = try f.log(.water, "1500ml", at: "2026-03-10T23:30:00+01:00", zone: "Europe/Berlin")
        // 23:30 in New York is already 04:30 on the 11th in Berlin; it still counts for the 10th.
        let evening = try f.log(.water, "600ml", at: "2026-03-10T23:30:00-04:00", zone: "America/New_York")
        let morning = try f.log(.water, "2000ml", at: "2026-03-11T09:00:00-04:00", zone: "America/New_York")
        #expect([berlin.day, evening.day, morning.day] == [Self.day("2026-03-10"), Self.day("2026-03-10"), Self.day("2026-03-11")])
        #expect(evening.timeZone == "America/New_York" && evening.at == "2026-03-11T03:30:00Z")

        let inNewYork = try f.stats("2026-03-11T20:00:00-04:00", "America/New_York")
            .habit(.water, .week(endingOn: Self.day("2026-03-11")))
        #expect(inNewYork.lastSevenDays.suffix(2).map(\.total) == [2100, 2000])
        #expect(inNewYork.goalMet.met == 2 && inNewYork.streak.current == 2 && inNewYork.streak.currentFrom == Self.day("2026-03-10"))
        // The same moment seen from Berlin is already the 12th: a new day with nothing logged
        // yet, so the streak still stands at two.
        let today = TimeContext(now: RecordFixtures.instant("2026-03-11T20:00:00-04:00"), zone: TimeZone(identifier: "Europe/Berlin")!).today()
        #expect(today == Self.day("2026-03-12"))
        let inBerlin = try f.stats("2026-03-11T20:00:00-04:00", "Europe/Berlin").habit(.water, .week(endingOn: today))
        #expect(inBerlin.lastSevenDays.suffix(3).map(\.total) == [2100, 2000, 0])
        #expect(inBerlin.streak.current == 2)
    }

    @Test func weeklyGoalsCountWeeksAndJudgeEarlierWeeksByTheirGoal() throws {
        let f = try X("stats-weekly")
        defer { f.cleanUp() }
        // 150 minutes a week from Monday 2026-03-02; before that the default, 60 minutes a day.
        try f.goals("2026-03-02T08:00:00+01:00").set("workout", "150min", per: "week", since: "2026-03-02")
        for (day, minutes) in [("02-24", 100), ("02-26", 100), ("03-03", 60), ("03-04", 60), ("03-06", 40), ("03-10", 90), ("03-12", 60),
                               ("03-17", 150), ("03-24", 30)] {
            try f.log(.workout, "\(minutes)min", at: "2026-\(day)T18:00:00+01:00") { $0.type = "run" }
        }
        let stats = try f.stats("2026-03-24T19:00:00+01:00").habit(.workout, .month(endingOn: Self.day("2026-03-24")))
        #expect(stats.goal.value == 150 && stats.goal.period == .week && stats.goal.since == Self.day("2026-03-02"))
        #expect(stats.total == 690 && stats.entries == 9 && stats.daysLogged == 9)
        #expect(stats.dailyAverage == 690.0 / 9 && stats.weeklyAverage == 690.0 * 7 / 30)
        // Weeks of 23 Feb (200 of 7 × 60 = 420), 2, 9 and 16 March (met), 23 March (30 so far).
        #expect(stats.goalMet == HabitStats.Tally(met: 3, logged: 5, unit: .week))
        #expect(stats.streak == Streak(current: 3, longest: 3, unit: .week, currentFrom: Self.day("2026-03-02"),
                                       longestFrom: Self.day("2026-03-02"), longestTo: Self.day("2026-03-22")))
        // The calendar marks the day each week got there.
        #expect(stats.calendar.metDays == [6, 12, 17])
        #expect(stats.lastSevenDays.map(\.met) == Array(repeating: nil, count: 7))
        #expect(stats.lastSevenDays.first?.goal == 150.0 / 7)
        let reached = stats.achievements.filter { $0.achievedOn != nil }.map { "\($0.id) \($0.achievedOn!)" }
        #expect(reached == ["workout-first-entry 2026-02-24", "workout-first-goal 2026-03-06", "workout-total-600 2026-03-17"])
        #expect(stats.achievements.first { $0.id == "workout-streak-4" }?.progress == 0.75)
        #expect(stats.breakdown == [HabitStats.Share(kind: "run", amount: 690, logged: 690, entries: 9, share: 1)])
    }

    @Test func aCalorieGoalIsABudgetAndGoalsChangeOverTime() throws {
        let f = try X("stats-budget")
        defer { f.cleanUp() }
        try f.log(.meal, "2400kcal", at: "2026-03-01T19:00:00+01:00") { $0.meal = "dinner" }
        try f.log(.meal, "1300kcal", at: "2026-03-02T12:00:00+01:00") { $0.meal = "lunch" }
        try f.log(.meal, "1300kcal", at: "2026-03-02T19:00:00+01:00") { $0.meal = "dinner" }
        let meals = try f.stats("2026-03-03T20:00:00+01:00").habit(.meal, try StatsPeriod.last(3, endingOn: Self.day("2026-03-03")))
        // Within the budget on the 1st, over it on the 2nd; nothing logged on the 3rd is not a day on budget.
        #expect(meals.days.map(\.met) == [true, false, false])
        #expect(meals.goalMet == HabitStats.Tally(met: 1, logged: 2, unit: .day))
        #expect(meals.streak.current == 0 && meals.streak.longest == 1)
        #expect(meals.breakdown.map(\.kind) == ["dinner", "lunch"] && meals.breakdown.map(\.amount) == [3700, 1300])

        // A lower water goal from the 25th: the 23rd is judged by 2 L, the 25th by 1.5 L.
        try f.goals("2026-03-25T07:00:00+01:00").set("water", "1.5l")
        try f.log(.water, "1600ml", at: "2026-03-23T12:00:00+01:00")
        try f.log(.water, "1600ml", at: "2026-03-25T12:00:00+01:00")
        let water = try f.stats("2026-03-25T20:00:00+01:00").habit(.water, try StatsPeriod.last(3, endingOn: Self.day("2026-03-25")))
        #expect(water.days.map(\.goal) == [2000, 2000, 1500])
        #expect(water.days.map(\.met) == [false, false, true])
        #expect(water.goal.value == 1500 && !water.goal.isDefault)
    }

    @Test func drinksCountByTheirHydrationFactor() throws {
        let f = try X("stats-drinks")
        defer { f.cleanUp() }
        let milk = try f.log(.water, "400ml", at: "2026-03-05T08:00:00+01:00") { $0.drink = "Whole milk" }
        #expect(milk.kind == "milk" && milk.factor == 1.5 && milk.counted == 600)
        let coffee = try f.log(.water, "200ml", at: "2026-03-05T09:00:00+01:00") { $0.drink = "coffee" }
        #expect(coffee.factor == 1.0)
        let mine = try f.log(.water, "500ml", at: "2026-03-05T10:00:00+01:00") { input in
            input.drink = "kombucha"
            input.factor = "0.9"
        }
        #expect(mine.kind == "kombucha" && mine.factor == 0.9 && HydrationFactors.basis(drink: "kombucha", factor: 0.9) == .estimate)
        let stats = try f.stats("2026-03-05T20:00:00+01:00").habit(.water, try StatsPeriod.last(1, endingOn: Self.day("2026-03-05")))
        #expect(stats.total == 1250)
        #expect(stats.breakdown == [
            HabitStats.Share(kind: "milk", amount: 600, logged: 400, entries: 1, share: 0.48),
            HabitStats.Share(kind: "kombucha", amount: 450, logged: 500, entries: 1, share: 0.36),
            HabitStats.Share(kind: "coffee", amount: 200, logged: 200, entries: 1, share: 0.16),
        ])
    }

    @Test func theFirstWeekAchievementComesOnTheSeventhDayInARow() throws {
        let f = try X("stats-first-week")
        defer { f.cleanUp() }
        for day in 1...8 {
            try f.log(.water, "2l", at: String(format: "2026-04-%02dT12:00:00+02:00", day))
        }
        let stats = try f.stats("2026-04-08T20:00:00+02:00").habit(.water, .week(endingOn: Self.day("2026-04-08")))
        let week = try #require(stats.achievements.first { $0.id == "water-streak-7" })
        #expect(week.title == "First week" && week.achievedOn == Self.day("2026-04-07") && week.progress == 1)
        #expect(stats.achievements.first { $0.id == "water-total-10000" }?.achievedOn == Self.day("2026-04-05"))
        #expect(stats.nextAchievement?.id == "water-streak-30" && stats.nextAchievement?.progress == 8.0 / 30)
    }

    @Test func measurementsHaveAverageRangeAndTrend() throws {
        let f = try X("stats-weight")
        defer { f.cleanUp() }
        for (day, kg) in [("01", "80kg"), ("03", "79.6kg"), ("05", "79.4kg"), ("07", "79kg")] {
            try f.log(.weight, kg, at: "2026-03-\(day)T07:00:00+01:00")
        }
        try f.log(.weight, "175lb", at: "2026-02-25T07:00:00+01:00")
        try f.log(.bp, "130/85", at: "2026-03-02T07:00:00+01:00") { $0.pulse = "70" }
        try f.log(.bp, "120/75", at: "2026-03-02T19:00:00+01:00")
        let weight = try f.stats("2026-03-07T12:00:00+01:00").measurement(.weight, .week(endingOn: Self.day("2026-03-07")))
        #expect(weight.readings == 4 && weight.daysLogged == 4)
        #expect(abs(weight.average! - 79.5) < 1e-9 && weight.minimum == 79 && weight.maximum == 80)
        #expect(weight.latest?.value == 79)
        // Least squares through (0, 80), (2, 79.6), (4, 79.4), (6, 79): -0.16 kg a day.
        #expect(abs(weight.slopePerWeek! - (-0.16 * 7)) < 1e-9 && weight.trend == .down)
        #expect(abs(weight.previousAverage! - 175 * 0.45359237) < 1e-9)
        let pressure = try f.stats("2026-03-07T12:00:00+01:00").measurement(.bp, .week(endingOn: Self.day("2026-03-07")))
        #expect(pressure.average == 125 && pressure.diastolicAverage == 80 && pressure.pulseAverage == 70)
        #expect(HealthStatsText.measurement(pressure, HealthFormat(.defaults)).map { "\($0.label): \($0.value)" } == [
            "latest: 120/75 mmHg on 2026-03-02", "average: 125/80 mmHg over 2 readings on 1 day", "range: 120/75 mmHg to 130/85 mmHg",
            "pulse: 70 a minute on average",
        ])
    }
}
