import Foundation
import PHRService

/// The health log's screen: one habit (water, sleep, workouts, meals) over a week, a month or
/// a year as a chart with its goal and average, the month's calendar of goal-met days, the
/// streak and achievements, and quick ways to log. The figures are `phr stats`'s (HealthStats).
extension WebApp {
    public enum LogPeriod: String, Sendable, CaseIterable {
        case week, month, year
        var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
        func period(endingOn day: CalendarDate) -> StatsPeriod {
            switch self {
            case .week: return .week(endingOn: day)
            case .month: return .month(endingOn: day)
            case .year:
                // The last twelve calendar months, this one included: a bar a whole month.
                var (year, month) = (day.year, day.month - 11)
                if month < 1 { (year, month) = (year - 1, month + 12) }
                let first = CalendarDate(year: year, month: month, day: 1) ?? day.plus(-364)
                return StatsPeriod(kind: .year, days: day.dayNumber - first.dayNumber + 1, endingOn: day)
            }
        }
    }

    /// The form's inputs that show an error beside them.
    static let logLabels = ["amount": "Amount", "type": "Type", "from": "From", "to": "To", "pulse": "Pulse"]

    public func healthLog(_ session: WebSession, metric: LogMetric, period choice: LogPeriod) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        let today = time.today()
        let settings = try HealthSettingsStore(vault: vault, profile: profile, time: time).get()
        let format = HealthFormat(settings)
        let path = "/log?metric=\(metric.rawValue)&period=\(choice.rawValue)"
        let metricTabs: [HTML] = LogMetric.allCases.map { item in
            let current: HTML = item == metric ? " aria-current=\"page\"" : ""
            return "<li><a href=\"/log?metric=\(item.rawValue)&amp;period=\(choice.rawValue)\"\(current)>\(item.title)</a></li>"
        }
        let periodTabs: [HTML] = LogPeriod.allCases.map { item in
            let current: HTML = item == choice ? " aria-current=\"page\"" : ""
            return "<li><a href=\"/log?metric=\(metric.rawValue)&amp;period=\(item.rawValue)\"\(current)>\(item.label)</a></li>"
        }

        guard metric.isHabit else {
            return try measurementLog(session, profile: profile, metric: metric, choice: choice, settings: settings,
                                      tabs: (metricTabs, periodTabs), path: path)
        }
        let stats = try HealthStats(vault: vault, profile: profile, time: time).habit(metric, choice.period(endingOn: today))
        let chart = HabitChart(stats, units: settings.units, today: today)

        // The number that matters first: the daily average against the goal.
        let goalText = format.goal(stats.goal.value, metric, period: stats.goal.period)
        // A weekly goal (workouts) is judged by the week: its average is a week's.
        let average: HTML = stats.goal.period == .week
            ? (stats.daysLogged > 0 ? stats.weeklyAverage.map { "<span class=\"big\">\(format.amount($0, metric))</span> a week on average" } : nil)
                ?? "<span class=\"big\">Nothing logged</span>"
            : stats.dailyAverage.map { "<span class=\"big\">\(format.amount($0, metric))</span> a day on average" }
                ?? "<span class=\"big\">Nothing logged</span>"
        let tally = stats.goalMet
        let unitWord = tally.unit == .week ? (tally.logged == 1 ? "week" : "weeks") : (tally.logged == 1 ? "day" : "days")
        let trendText: HTML = stats.change.map { change in
            let arrow = stats.trend == .up ? "↑" : stats.trend == .down ? "↓" : "→"
            return " · <span aria-hidden=\"true\">\(arrow)</span> \(HealthFormat.percentChange(change)) against the \(stats.period.days) days before"
        } ?? .empty
        let headline: HTML = """
        <p class="headline">\(average) <span class="muted">\(choice == .year ? "since \(stats.period.from.day) \(HabitChart.months[stats.period.from.month - 1]) \(stats.period.from.year)" : "over the last \(stats.period.days) days"); goal \(goalText)</span></p>
        <p>Goal met on <strong>\(tally.met) of \(tally.logged)</strong> \(unitWord) logged\(trendText).</p>
        """

        let figureRows: [HTML] = chart.bars.reversed().map { bar in
            "<tr><td>\(bar.title)</td><td class=\"number\">\(bar.logged ? chart.figure(bar.value) : "—")</td><td>\(bar.met ? "✓ goal met" : bar.logged ? "not met" : "nothing logged")</td></tr>"
        }
        let chartHTML: HTML = """
        <figure class="chart-figure">\(chart.svg(title: "\(metric.title) over the last \(stats.period.days) days, with the goal and the average; the table below lists the figures"))
        <figcaption><ul class="legend" aria-label="How to read the chart">
        <li><span class="key key-met" aria-hidden="true">✓</span> goal met (filled bar)</li>
        <li><span class="key key-bar" aria-hidden="true">▮</span> not met (light bar)</li>
        <li><span class="key key-goal" aria-hidden="true">━</span> goal</li>
        <li><span class="key key-average" aria-hidden="true">┅</span> average</li>
        </ul></figcaption></figure>
        <details class="figures"><summary>The figures</summary>
        <div class="scroll" tabindex="0" role="region" aria-label="The figures"><table class="records"><caption>\(chart.monthly ? "Each month's daily average" : "Each day"), newest first</caption>
        <thead><tr><th scope="col">\(chart.monthly ? "Month" : "Day")</th><th scope="col">\(chart.monthly ? "Daily average" : "Total")</th><th scope="col">Goal</th></tr></thead>
        <tbody>\(figureRows)</tbody></table></div></details>
        """

        // The month of the period's last day: a calendar of the days whose goal was met.
        let marks = stats.calendar
        let first = CalendarDate(year: marks.year, month: marks.month, day: 1)!
        let length = CalendarDate.daysIn(month: marks.month, year: marks.year)
        var cells: [HTML] = Array(repeating: "<td></td>", count: first.weekdayNumber - 1)
        for day in 1...length {
            let met = marks.metDays.contains(day), logged = marks.loggedDays.contains(day)
            let words = met ? "goal met" : logged ? "logged, goal not met" : "nothing logged"
            let mark = met ? "✓" : logged ? "•" : ""
            cells.append("""
            <td class="\(met ? "met" : logged ? "logged" : "none")\(first.plus(day - 1) == today ? " today" : "")"\(first.plus(day - 1) == today ? " aria-current=\"date\"" as HTML : .empty)><span class="day">\(day)</span>\
            <span class="mark" aria-hidden="true">\(mark)</span><span class="visually-hidden">\(words)</span></td>
            """)
        }
        while cells.count % 7 != 0 { cells.append("<td></td>") }
        let weeks: [HTML] = stride(from: 0, to: cells.count, by: 7).map { "<tr>\(HTML(Array(cells[$0..<$0 + 7])))</tr>" }
        let calendar: HTML = """
        <section class="card" aria-labelledby="month-heading"><h2 id="month-heading">\(HabitChart.months[marks.month - 1]) \(marks.year)</h2>
        <table class="month"><caption class="visually-hidden">Days of \(HabitChart.months[marks.month - 1]) whose goal was met</caption>
        <thead><tr>\(HabitChart.weekdayNames.map { HTML("<th scope=\"col\" abbr=\"\($0)\">\(String($0.prefix(2)))</th>") })</tr></thead>
        <tbody>\(weeks)</tbody></table>
        <p class="muted"><span aria-hidden="true">✓</span> goal met · <span aria-hidden="true">•</span> logged</p></section>
        """

        let streak = stats.streak
        let streakUnit = streak.unit == .week ? "week" : "day"
        let earned = stats.achievements.filter { $0.achievedOn != nil }
        let achievements: HTML = """
        <section class="card" aria-labelledby="streak-heading"><h2 id="streak-heading">Streak</h2>
        <p><span class="big">\(streak.current)</span> \(streak.current == 1 ? streakUnit : streakUnit + "s") in a row · longest \(streak.longest)</p>
        \(earned.isEmpty ? HTML("<p class=\"muted\">No achievements yet.</p>") : HTML("<ul class=\"plain\">\(earned.map { HTML("<li><span aria-hidden=\"true\">★</span> <strong>\($0.title)</strong> <span class=\"muted\">\($0.achievedOn?.description ?? "")</span></li>") })</ul>"))
        \(stats.nextAchievement.map { HTML("<p>Next: <strong>\($0.title)</strong>, \($0.detail) (\(Int(($0.progress * 100).rounded(.down)))%)</p>") })
        </section>
        """
        let breakdown: HTML = stats.breakdown.count > 1 || stats.breakdown.first.map({ !$0.kind.isEmpty }) == true ? """
        <section class="card" aria-labelledby="kinds-heading"><h2 id="kinds-heading">\(metric == .water ? "Drinks" : metric == .meal ? "Meals" : "Types")</h2>
        <ul class="plain">\(stats.breakdown.map { share in HTML("<li>\(share.kind.isEmpty ? "unnamed" : share.kind): \(format.amount(share.amount, metric)) (\(Int((share.share * 100).rounded()))%)</li>") })</ul></section>
        """ : .empty

        let body: HTML = """
        <h1>Health log</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <nav aria-label="What to show" class="tabs"><ul>\(metricTabs)</ul></nav>
        <nav aria-label="Period" class="tabs"><ul>\(periodTabs)</ul></nav>
        \(headline)
        \(chartHTML)
        <p>\(try pinForm(session, profile: profile, metric: metric, period: choice, back: path))</p>
        <div class="cards">\(logForm(session, metric: metric, back: path, settings: settings))\(calendar)\(achievements)\(breakdown)</div>
        """
        return try layout(.log, session, profile, path: path).page(body)
    }

    /// Quick ways to log the habit shown: a glass of water in one press, or an amount.
    private func logForm(_ session: WebSession, metric: LogMetric, back: String, settings: HealthSettings) -> HTML {
        let fields = FormFields(form: "log-add", state: session.takeForm("log-add-\(metric.rawValue)"))
        let hidden: HTML = """
        <input type="hidden" name="csrf" value="\(session.csrf)"><input type="hidden" name="metric" value="\(metric.rawValue)">\
        <input type="hidden" name="back" value="\(back)">
        """
        var kind: HTML = .empty
        switch metric {
        case .water:
            kind = """
            <div class="field"><label for="log-add-drink">Drink</label>
            <select id="log-add-drink" name="drink">\(HydrationFactors.drinks.map { drink -> HTML in
                let selected: HTML = drink.name == fields.value("drink", HydrationFactors.defaultDrink) ? " selected" : ""
                return "<option value=\"\(drink.name)\"\(selected)>\(drink.name.replacingOccurrences(of: "-", with: " "))</option>"
            })</select></div>
            """
        case .meal:
            kind = """
            <div class="field"><label for="log-add-meal">Meal</label>
            <select id="log-add-meal" name="meal"><option value="">(none)</option>\(LogStore.meals.map { meal -> HTML in
                "<option value=\"\(meal)\"\(meal == fields.value("meal") ? " selected" as HTML : .empty)>\(meal)</option>"
            })</select></div>
            """
        case .workout:
            kind = fields.input("type", label: "Type", extra: " autocomplete=\"off\"", hint: "walk, run, swim")
        default:
            break
        }
        let glass: HTML = metric == .water ? """
        <form method="post" action="/log/add" class="inline quick">\(hidden)<input type="hidden" name="amount" value="+">
        <button type="submit">Add a glass (\(HealthFormat(settings).amount(settings.servingML, .water)))</button></form>
        """ : .empty
        let example: String
        switch metric {
        case .water: example = "330 ml, 12 fl oz, 2 cups"
        case .sleep: example = "7h30m, ending now; or a From and To time"
        case .workout: example = "45 min, ending now"
        case .meal: example = "650 kcal"
        default: example = ""
        }
        let interval: HTML = metric.isInterval ? """
        \(fields.input("from", label: "From", extra: " autocomplete=\"off\"", hint: "22:45 or 2026-03-01 22:45"))
        \(fields.input("to", label: "To", extra: " autocomplete=\"off\"", hint: "06:30"))
        """ : .empty
        return """
        <section class="card log-add" aria-labelledby="log-add-heading"><h2 id="log-add-heading">Log \(metric.title.lowercased())</h2>
        \(glass)
        <form method="post" action="/log/add" class="fields" novalidate>\(hidden)
        \(fields.formError)
        \(fields.input("amount", label: "Amount", extra: " autocomplete=\"off\"", hint: example))
        \(interval)
        \(kind)
        <p><button type="submit">Log it</button></p>
        </form></section>
        """
    }

    /// Logs an entry (`phr log METRIC`'s checks); the outcome, or the form refused, for the next page.
    public func addLogEntry(_ session: WebSession, form: [String: String]) {
        guard let metric = form["metric"].flatMap(LogMetric.init(rawValue:)) else {
            session.flash("Nothing was logged: the form did not say what to log.", isError: true)
            return
        }
        do {
            let profile = try profile(session)
            let time = clock()
            var input = LogStore.Input()
            input.amount = Self.given(form["amount"])
            input.from = Self.given(form["from"])
            input.to = Self.given(form["to"])
            input.drink = Self.given(form["drink"])
            input.type = Self.given(form["type"])
            input.meal = Self.given(form["meal"])
            input.context = Self.given(form["context"])
            input.pulse = Self.given(form["pulse"])
            let entry = try LogStore(vault: vault, profile: profile, time: time).add(metric, input)
            let format = HealthFormat(try HealthSettingsStore(vault: vault, profile: profile, time: time).get())
            let progress = metric.isHabit ? try LogStore(vault: vault, profile: profile, time: time).progress(metric, on: entry.day) : nil
            session.flash("Logged \(format.entry(entry))\(entry.kind.map { " of \($0)" } ?? "")."
                + (progress.map { " Today: \(format.amount($0.total, metric))\($0.met ? ", goal met ✓" : "")." } ?? ""))
        } catch {
            let kept = form.filter { ["amount", "from", "to", "drink", "type", "meal", "context", "pulse"].contains($0.key) }
            session.keepForm(FormState(name: "log-add-\(metric.rawValue)", values: kept, error: error, labels: Self.logLabels))
        }
    }

    /// A measurement's view: the latest reading first, the period's average and range, the chart
    /// of each day's mean, the figures, and a form to log one.
    private func measurementLog(_ session: WebSession, profile: Profile, metric: LogMetric, choice: LogPeriod, settings: HealthSettings,
                                tabs: (metrics: [HTML], periods: [HTML]), path: String) throws -> HTML {
        let time = clock()
        let format = HealthFormat(settings)
        let stats = try HealthStats(vault: vault, profile: profile, time: time).measurement(metric, choice.period(endingOn: time.today()))
        let (unit, convert) = MeasurementChart.unit(of: metric, settings)
        let chart = MeasurementChart(stats, unit: unit, convert: convert)
        let latest: HTML = stats.latest.map { entry in
            "<span class=\"big\">\(format.entry(entry))</span> <span class=\"muted\">latest, \(TimeText.sentence(entry.instant, time))</span>"
        } ?? "<span class=\"big\">Nothing logged yet</span>"
        var summary: [String] = []
        if let average = stats.average {
            summary.append(metric == .bp ? "average \(format.bloodPressure(systolic: average, diastolic: stats.diastolicAverage ?? 0))"
                           : "average \(format.amount(average, metric))")
        }
        if let minimum = stats.minimum, let maximum = stats.maximum, metric != .bp {
            summary.append("from \(format.amount(minimum, metric)) to \(format.amount(maximum, metric))")
        }
        summary.append("\(stats.readings) \(stats.readings == 1 ? "reading" : "readings") on \(stats.daysLogged) \(stats.daysLogged == 1 ? "day" : "days")")
        let names = metric == .bp ? ["systolic", "diastolic"] : [metric.title.lowercased()]
        let chartHTML: HTML = chart.map { chart in
            """
            <figure class="chart-figure">\(chart.svg(title: "\(metric.title) over the last \(stats.period.days) days, each day's mean; the table below lists them", names: names))
            <figcaption><ul class="legend" aria-label="How to read the chart">
            <li><span class="key key-in-range" aria-hidden="true">●</span> \(metric == .bp ? "systolic" : "a day's mean")</li>
            \(metric == .bp ? "<li><span class=\"key key-in-range\" aria-hidden=\"true\">■</span> diastolic</li>" as HTML : .empty)
            <li><span class="key key-average" aria-hidden="true">┅</span> average</li></ul></figcaption></figure>
            """
        } ?? "<p class=\"muted\">No readings in this period.</p>"
        let rows: [HTML] = stats.days.filter { stats.period.contains($0.day) && $0.readings > 0 }.reversed().map { day in
            let mean = metric == .bp ? format.bloodPressure(systolic: day.mean, diastolic: day.diastolicMean ?? 0) : format.amount(day.mean, metric)
            return "<tr><td>\(day.day.description)</td><td class=\"number\">\(mean)</td><td class=\"number\">\(day.readings)</td></tr>"
        }
        let fields = FormFields(form: "log-add", state: session.takeForm("log-add-\(metric.rawValue)"))
        let example = metric == .weight ? "72.5 kg, 160 lb" : metric == .bp ? "120/80" : "5.4 mmol/L, 97 mg/dL"
        let context: HTML = metric == .glucose ? """
        <div class="field"><label for="log-add-context">When</label>
        <select id="log-add-context" name="context"><option value="">(not said)</option>\(LogStore.glucoseContexts.map { item -> HTML in
            "<option value=\"\(item)\"\(item == fields.value("context") ? " selected" as HTML : .empty)>\(item.replacingOccurrences(of: "-", with: " "))</option>"
        })</select></div>
        """ : .empty
        let form: HTML = """
        <section class="card log-add" aria-labelledby="log-add-heading"><h2 id="log-add-heading">Log \(metric.title.lowercased())</h2>
        <form method="post" action="/log/add" class="fields" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">\
        <input type="hidden" name="metric" value="\(metric.rawValue)"><input type="hidden" name="back" value="\(path)">
        \(fields.formError)
        \(fields.input("amount", label: metric == .bp ? "Reading" : "Amount", extra: " autocomplete=\"off\"", hint: example))
        \(metric == .bp ? fields.input("pulse", label: "Pulse", extra: " inputmode=\"numeric\" autocomplete=\"off\"", hint: "beats a minute, if measured") : .empty)
        \(context)
        <p><button type="submit">Log it</button></p>
        </form></section>
        """
        let body: HTML = """
        <h1>Health log</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <nav aria-label="What to show" class="tabs"><ul>\(tabs.metrics)</ul></nav>
        <nav aria-label="Period" class="tabs"><ul>\(tabs.periods)</ul></nav>
        <p class="headline">\(latest)</p>
        <p>Over the last \(stats.period.days) days: \(summary.joined(separator: ", ")).</p>
        \(chartHTML)
        <p>\(try pinForm(session, profile: profile, metric: metric, period: choice, back: path))</p>
        <details class="figures"><summary>The figures</summary>
        <div class="scroll" tabindex="0" role="region" aria-label="The figures"><table class="records"><caption>Each day's mean, newest first</caption>
        <thead><tr><th scope="col">Day</th><th scope="col">Mean</th><th scope="col">Readings</th></tr></thead>
        <tbody>\(rows)</tbody></table></div></details>
        <div class="cards">\(form)</div>
        """
        return try layout(.log, session, profile, path: path).page(body)
    }

    /// Pins the chart to Today (`pin=1`) or unpins it (`pin=0`): the state asked for, so a
    /// button on a stale page never undoes what another did.
    public func togglePin(_ session: WebSession, form: [String: String]) {
        guard let metric = form["metric"].flatMap(LogMetric.init(rawValue:)), let pin = PinnedCharts.Pin(metric: metric, period: form["period"] ?? "") else {
            session.flash("Nothing was pinned: the form did not say which chart.", isError: true)
            return
        }
        do {
            let profile = try profile(session)
            let pins = try PinnedCharts.set(pin, pinned: form["pin"] != "0", vault: vault, profile: profile)
            session.flash(pins.contains(pin) ? "Pinned \(metric.title.lowercased()), \(pin.period), to Today." : "Unpinned \(metric.title.lowercased()), \(pin.period), from Today.")
        } catch {
            session.flash(Self.words(error), isError: true)
        }
    }

    /// The pin button of a view: pins it, or unpins it when it is pinned.
    func pinForm(_ session: WebSession, profile: Profile, metric: LogMetric, period: LogPeriod, back: String) throws -> HTML {
        let pinned = try PinnedCharts.pins(vault, profile: profile).contains { $0.metric == metric && $0.period == period.rawValue }
        return """
        <form method="post" action="/log/pin" class="inline pin"><input type="hidden" name="csrf" value="\(session.csrf)">\
        <input type="hidden" name="metric" value="\(metric.rawValue)"><input type="hidden" name="period" value="\(period.rawValue)">\
        <input type="hidden" name="back" value="\(back)"><input type="hidden" name="pin" value="\(pinned ? "0" : "1")">\
        <button type="submit" class="secondary">\(pinned ? "Unpin from Today" : "Pin to Today")</button></form>
        """
    }

    /// The profile's pinned charts for Today: each chart with a link to its view.
    func pinnedCharts(_ session: WebSession, profile: Profile) throws -> HTML {
        let pins = try PinnedCharts.pins(vault, profile: profile)
        guard !pins.isEmpty else { return .empty }
        let time = clock()
        let settings = try HealthSettingsStore(vault: vault, profile: profile, time: time).get()
        let stats = HealthStats(vault: vault, profile: profile, time: time)
        let charts: [HTML] = try pins.map { pin in
            let period = LogPeriod(rawValue: pin.period) ?? .week
            let statsPeriod = period.period(endingOn: time.today())
            let title = "\(pin.metric.title), \(period == .year ? "last 12 months" : "last \(statsPeriod.days) days")"
            let chart: HTML
            if pin.metric.isHabit {
                chart = HabitChart(try stats.habit(pin.metric, statsPeriod), units: settings.units, today: time.today())
                    .svg(title: "\(title); its figures are on the health log")
            } else {
                let (unit, convert) = MeasurementChart.unit(of: pin.metric, settings)
                chart = MeasurementChart(try stats.measurement(pin.metric, statsPeriod), unit: unit, convert: convert)?
                    .svg(title: "\(title); its figures are on the health log", names: pin.metric == .bp ? ["systolic", "diastolic"] : [])
                    ?? "<p class=\"muted\">No readings in this period.</p>"
            }
            return """
            <section class="card pinned" aria-label="\(title)"><h3><a href="/log?metric=\(pin.metric.rawValue)&amp;period=\(period.rawValue)">\(title)</a></h3>\(chart)</section>
            """
        }
        return "<h2 class=\"pinned-heading\">Pinned charts</h2><div class=\"cards pinned-charts\">\(charts)</div>"
    }
}
