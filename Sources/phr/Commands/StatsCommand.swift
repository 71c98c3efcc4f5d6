import ArgumentParser
import Foundation
import PHRService

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Totals, averages, goals met, streaks, trends and achievements from the health log.",
        discussion: """
            Without a metric, a summary of every metric; with one, its figures, a bar chart of \
            the period (a bar a day; over two months, a bar a month: its daily average) with the \
            goal line, the month's calendar with goal-met days marked *, and its achievements. \
            Periods end today: --week is the last 7 days (the default), --month 30, --year 365, \
            --days N. The daily average is over the days with entries; goal met counts days with \
            entries; streaks run over all history.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "water, sleep, workout, meal, weight, bp or glucose (default: all).") var metric: String?
    @Flag(help: "The last 7 days (default).") var week = false
    @Flag(help: "The last 30 days.") var month = false
    @Flag(help: "The last 365 days.") var year = false
    @Option(help: "The last N days.") var days: Int?

    func validate() throws {
        let chosen = [week, month, year, days != nil].filter { $0 }.count
        guard chosen <= 1 else { throw ValidationError("choose one of --week, --month, --year and --days") }
        if let days, !(1...StatsPeriod.maximumDays).contains(days) {
            throw ValidationError("--days: use 1 to \(StatsPeriod.maximumDays)")
        }
    }

    func run() throws {
        let context = try RecordContext(vault, profile)
        let chosen = try RecordContext.options { try metric.map { try LogMetric.parse($0, field: Field.argument("metric")) } }
        let today = context.time.today()
        let period: StatsPeriod = month ? .month(endingOn: today) : year ? .year(endingOn: today)
            : try days.map { try StatsPeriod.last($0, endingOn: today) } ?? .week(endingOn: today)
        let stats = HealthStats(vault: context.vault, profile: context.profile, time: context.time)
        let summary = try stats.summary(period, metrics: chosen.map { [$0] })
        let format = HealthFormat(summary.settings)
        let printer = StatsPrinter(format: format, today: today, colour: Console.stdoutColour)
        if let chosen {
            if chosen.isHabit {
                if output.json { return try Console.json(summary.habits[0]) }
                printer.habit(summary.habits[0])
            } else {
                if output.json { return try Console.json(summary.measurements[0]) }
                printer.measurement(summary.measurements[0])
            }
            return
        }
        if output.json { return try Console.json(summary) }
        printer.summary(summary)
    }
}

/// Prints statistics for people. Every figure goes through `HealthFormat`, as in the report.
struct StatsPrinter {
    let format: HealthFormat
    let today: CalendarDate
    let colour: Bool

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    func title(_ metric: LogMetric, _ period: StatsPeriod) -> String {
        Console.bold("\(metric.title), \(period.title) (\(period.from) to \(period.to))")
    }

    // MARK: Habits

    func habit(_ stats: HabitStats) {
        let metric = stats.metric
        Console.out(title(metric, stats.period))
        RecordText.fields(HealthStatsText.habit(stats, format).map { ($0.label, $0.value) }, width: 15)
        Console.out("")
        // The period asked for: a row a day up to two months (a week, a month), else a row a month
        // (the daily average of the days logged), as the web UI's chart draws it.
        let rows: [TerminalChart.Row]
        if stats.period.days > 62 {
            rows = stats.months(through: today).map { month in
                TerminalChart.Row(label: "\(Self.monthNames[month.month - 1]) \(month.year)", value: month.average,
                                  text: month.daysLogged == 0 ? "—" : format.amount(month.average, metric) + " a day", met: month.daysLogged == 0 ? nil : month.met)
            }
        } else {
            rows = stats.days.filter { $0.day <= today }.map { point in
                TerminalChart.Row(label: "\(Self.weekdays[point.day.isoWeekday - 1]) \(String(point.day.description.suffix(5)))", value: point.total,
                                  text: point.entries == 0 ? "—" : format.amount(point.total, metric), met: point.met)
            }
        }
        let daily = stats.goal.period == .day ? stats.goal.value : nil
        for line in TerminalChart.lines(rows, goal: daily, goalText: daily.map { format.amount($0, metric) }, colour: colour) {
            Console.out(line)
        }
        Console.out("")
        let marks = stats.calendar
        for line in MonthGrid.lines(year: marks.year, month: marks.month, marked: Set(marks.metDays), today: today, highlight: colour) {
            Console.out(line)
        }
        Console.out("* goal met" + (stats.goal.period == .week ? " (the day the week got there)" : ""))
        let reached = stats.achievements.filter { $0.achievedOn != nil }
        if !reached.isEmpty || stats.nextAchievement != nil {
            Console.out("")
            RecordText.fields([
                ("achievements", reached.isEmpty ? nil : reached.map { "\($0.title) (\($0.achievedOn!))" }.joined(separator: "\n")),
                ("next", stats.nextAchievement.map { "\($0.title): \($0.detail), \(Int(($0.progress * 100).rounded(.down)))% there" }),
            ], width: 15)
        }
    }

    // MARK: Measurements

    func measurement(_ stats: MeasurementStats) {
        Console.out(title(stats.metric, stats.period))
        RecordText.fields(HealthStatsText.measurement(stats, format).map { ($0.label, $0.value) }, width: 15)
        guard !stats.days.isEmpty else { return }
        Console.out("")
        let byDay = Dictionary(uniqueKeysWithValues: stats.days.map { ($0.day, $0) })
        // A row a day of the period (up to two months; a longer one, its last 62 days).
        let count = min(stats.period.days, 62)
        let rows = (0..<count).map { offset -> TerminalChart.Row in
            let day = stats.period.to.adding(days: offset - (count - 1))
            let data = byDay[day]
            let text = data.map { day in
                stats.metric == .bp ? format.bloodPressure(systolic: day.mean, diastolic: day.diastolicMean ?? 0) : format.amount(day.mean, stats.metric)
            } ?? "—"
            return TerminalChart.Row(label: "\(Self.weekdays[day.isoWeekday - 1]) \(String(day.description.suffix(5)))",
                                     value: data?.mean ?? 0, text: text, met: nil)
        }
        for line in TerminalChart.lines(rows, goal: nil, goalText: nil, colour: colour) { Console.out(line) }
    }

    // MARK: Everything

    func summary(_ summary: HealthStats.Summary) {
        let period = summary.period
        Console.out(Console.bold("Health log, \(period.title) (\(period.from) to \(period.to))"))
        Table.print(header: ["HABIT", "TOTAL", "DAILY AVG", "GOAL", "GOAL MET", "STREAK", "TREND"], rows: summary.habits.map { stats in
            let metric = stats.metric
            return [metric.rawValue, format.amount(stats.total, metric), stats.dailyAverage.map { format.amount($0, metric) } ?? "—",
                    HealthStatsText.goal(stats.goal.value, metric, stats.goal.period, format) + (stats.goal.isDefault ? "*" : ""),
                    HealthStatsText.tally(stats.goalMet), "\(stats.streak.current) (best \(stats.streak.longest))",
                    stats.change.map { HealthFormat.percentChange($0) } ?? "—"]
        })
        if summary.habits.contains(where: { $0.goal.isDefault }) {
            Console.out("* default goal; set yours with 'phr goal set' or see 'phr goal suggest'")
        }
        guard !summary.measurements.isEmpty else { return }
        Console.out("")
        Table.print(header: ["MEASUREMENT", "LATEST", "AVERAGE", "RANGE", "TREND"], rows: summary.measurements.map { stats in
            [stats.metric.rawValue, HealthStatsText.latest(stats, format),
             HealthStatsText.value(stats.metric, format, stats.average, stats.diastolicAverage) ?? "—",
             HealthStatsText.range(stats, format) ?? "—", HealthStatsText.trend(stats, format) ?? "—"]
        })
    }
}
