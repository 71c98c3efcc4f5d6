import Foundation
import PHRService

/// The medication screens: the list with each one's schedule, next dose and 30-day adherence; one
/// medication with Take and Skip (through the dose guard, whose refusals are said in words), its
/// month of doses as a calendar (taken, skipped, missed), the doses logged, stop and remove; a
/// medication added with `phr med add`'s checks.
extension WebApp {
    /// The form's inputs that show an error beside them (an error about another field is said
    /// at the top of the form).
    static let medicationLabels = ["name": "Name", "dose": "Dose", "schedule": "Times of day", "every": "Every", "instructions": "Instructions"]

    public func medications(_ session: WebSession) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        let today = time.today()
        let store = MedicationStore(vault: vault, profile: profile, time: time)
        let all = try store.withLogs(all: true)
        let due = Dictionary(DoseDue.due(all.filter { $0.0.status == .active }, time: time, within: 36 * 3600).map { ($0.medicationID, $0) },
                             uniquingKeysWith: { a, _ in a })
        func row(_ medication: Medication, _ log: [Dose]) -> HTML {
            let adherence = Adherence.compute(medication, log: log, time: time)
            let next: HTML = due[medication.id].map { dose in
                dose.state == .overdue ? "<span class=\"badge badge-warn\"><span aria-hidden=\"true\">▲</span> overdue</span> \(TimeText.sentence(dose.instant, time))"
                    : HTML("\(TimeText.sentence(dose.instant, time))")
            } ?? "<span class=\"muted\">—</span>"
            return """
            <tr><th scope="row"><a href="/medications/\(medication.id)">\(medication.name)</a>\(medication.dose.map { text -> HTML in " <span class=\"muted\">\(text)</span>" })</th>
            <td>\(medication.schedule.summary)</td><td>\(next)</td>
            <td>\(Self.adherenceWords(adherence))</td><td>\(medication.state(today: today))</td></tr>
            """
        }
        let active = all.filter { $0.0.status == .active }, stopped = all.filter { $0.0.status != .active }
        let head: HTML = "<thead><tr><th scope=\"col\">Medication</th><th scope=\"col\">Schedule</th><th scope=\"col\">Next dose</th><th scope=\"col\">Last 30 days</th><th scope=\"col\">State</th></tr></thead>"
        let form = session.takeForm("med-add")
        let body: HTML = """
        <h1>Medications</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        \(active.isEmpty ? HTML("<p>No medications being taken.</p>") : HTML("""
        <div class="scroll" tabindex="0" role="region" aria-label="Medications being taken"><table class="records"><caption>Being taken</caption>\(head)
        <tbody>\(active.map { row($0.0, $0.1) })</tbody></table></div>
        """))
        \(stopped.isEmpty ? HTML.empty : HTML("""
        <details class="figures"><summary>Stopped (\(stopped.count))</summary>
        <div class="scroll" tabindex="0" role="region" aria-label="Stopped medications"><table class="records"><caption>Stopped</caption>\(head)
        <tbody>\(stopped.map { row($0.0, $0.1) })</tbody></table></div></details>
        """))
        \(medicationForm(session, form))
        """
        return try layout(.medications, session, profile).page(body)
    }

    static func adherenceWords(_ adherence: Adherence) -> HTML {
        guard let percent = adherence.percent else {
            return "<span class=\"muted\">\(adherence.unscheduled) taken</span>"
        }
        var parts = ["\(adherence.taken) of \(adherence.scheduled) taken"]
        if adherence.skipped > 0 { parts.append("\(adherence.skipped) skipped") }
        if adherence.missed > 0 { parts.append("\(adherence.missed) missed") }
        return "<strong>\(percent)%</strong> <span class=\"muted\">(\(parts.joined(separator: ", ")))</span>"
    }

    private func medicationForm(_ session: WebSession, _ state: FormState?) -> HTML {
        let fields = FormFields(form: "med-add", state: state)
        let kind = fields.value("kind", "times")
        func option(_ value: String, _ label: String) -> HTML {
            let checked: HTML = kind == value ? " checked" : ""
            return "<label><input type=\"radio\" name=\"kind\" value=\"\(value)\"\(checked)> \(label)</label>"
        }
        return """
        <details class="edit card"\(state == nil ? "" : " open")><summary>Add a medication</summary>
        <form method="post" action="/medications/add" class="fields" novalidate>
        <input type="hidden" name="csrf" value="\(session.csrf)">
        \(fields.formError)
        \(fields.input("name", label: "Name", extra: " required autocomplete=\"off\"", hint: "as on the pack: Levothyroxine, Amoxicillin 500 mg"))
        \(fields.input("dose", label: "Dose", extra: " autocomplete=\"off\"", hint: "1 tablet, 5 mg, 10 ml"))
        <fieldset class="choice"><legend>Schedule</legend>
        \(option("times", "At times of day")) \(option("every", "Every so many hours")) \(option("as-needed", "As needed")) \(option("none", "No schedule"))
        </fieldset>
        \(fields.input("schedule", label: "Times of day", extra: " autocomplete=\"off\"", hint: "08:00, 20:00 (for times of day)"))
        \(fields.input("every", label: "Every", extra: " autocomplete=\"off\"", hint: "8h, 12h (for every so many hours)"))
        \(fields.input("instructions", label: "Instructions", extra: " autocomplete=\"off\"", hint: "with food"))
        <p><button type="submit">Add the medication</button></p>
        </form></details>
        """
    }

    /// Adds a medication (`phr med add`'s checks); the page to show next.
    public func addMedication(_ session: WebSession, form: [String: String]) -> String {
        do {
            let profile = try profile(session)
            var input = MedicationStore.Input()
            input.name = form["name"] ?? ""
            input.dose = Self.given(form["dose"])
            input.instructions = Self.given(form["instructions"])
            switch form["kind"] ?? "times" {
            case "every": input.every = form["every"] ?? ""
            case "as-needed": input.asNeeded = true
            case "none": input.noSchedule = true
            default: input.times = form["schedule"] ?? ""
            }
            let added = try MedicationStore(vault: vault, profile: profile, time: clock()).add(input)
            session.flash("Added \(added.displayName), \(added.schedule.summary).")
            return "/medications/\(added.id)"
        } catch {
            let kept = form.filter { ["name", "dose", "kind", "schedule", "every", "instructions"].contains($0.key) }
            session.keepForm(FormState(name: "med-add", values: kept, error: error, labels: Self.medicationLabels))
            return "/medications"
        }
    }

    /// One medication: its facts, Take and Skip, the month of doses as a calendar, the doses logged.
    public func medication(_ session: WebSession, id: String, month requested: String?) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        let today = time.today()
        let store = MedicationStore(vault: vault, profile: profile, time: time)
        guard let medication = try? store.get(id), medication.id == id else { throw NotFound() }
        let log = try store.doses(of: medication)
        let adherence = Adherence.compute(medication, log: log, time: time)
        let due = DoseDue.due([(medication, log)], time: time, within: 36 * 3600).first
        let back = "/medications/\(medication.id)"

        // Take and Skip, as on Today (the dose guard decides; a refusal is said at the top).
        var actions: [HTML] = []
        if medication.status == .active {
            let when = due.map { TimeText.sentence($0.instant, time) }
            actions.append("""
            <form method="post" action="/doses/take" class="inline"><input type="hidden" name="csrf" value="\(session.csrf)">\
            <input type="hidden" name="medication" value="\(medication.id)"><input type="hidden" name="back" value="\(back)">\
            <button type="submit">Take a dose now</button></form>
            """)
            if let due, due.instant.timeIntervalSince(time.now) <= DoseLog.earlyMinutes * 60 {
                actions.append("""
                <form method="post" action="/doses/skip" class="inline"><input type="hidden" name="csrf" value="\(session.csrf)">\
                <input type="hidden" name="medication" value="\(medication.id)"><input type="hidden" name="at" value="\(due.at)">\
                <input type="hidden" name="back" value="\(back)"><button type="submit" class="secondary">Skip the dose due \(when ?? "")</button></form>
                """)
            }
        }

        // The month shown: this one, or one asked for as YYYY-MM.
        var (year, month) = (today.year, today.month)
        if let requested, requested.count == 7, let y = Int(requested.prefix(4)), let m = Int(requested.suffix(2)),
           CalendarDate(year: y, month: m, day: 1) != nil, y * 12 + m <= today.year * 12 + today.month {
            (year, month) = (y, m)
        }
        let days = AdherenceDay.month(medication, log: log, time: time, year: year, month: month)
        let calendar = Self.adherenceCalendar(days, year: year, month: month, today: today, path: back)

        let facts: [(String, String?)] = [
            ("Dose", medication.dose), ("Schedule", medication.schedule.summary + (medication.timeZone.map { " (\($0) time)" } ?? "")),
            ("Next dose", due.map { ($0.state == .overdue ? "overdue, " : "") + TimeText.sentence($0.instant, time) }),
            ("State", medication.state(today: today)), ("Instructions", medication.instructions),
            ("At most a day", medication.maxPerDay.map(String.init)),
            ("At least apart", medication.minIntervalMinutes.map { TimeText.duration(TimeInterval($0 * 60)) }),
            ("Prescriber", medication.prescriber), ("Pharmacy", medication.pharmacy), ("Notes", medication.notes),
        ]
        let factRows: [HTML] = facts.compactMap { name, value in value.map { HTML("<dt>\(name)</dt><dd>\($0)</dd>") } }
        let doseRows: [HTML] = log.sorted { $0.instant > $1.instant }.prefix(30).map { dose in
            let status: HTML = dose.status == .taken ? "<span aria-hidden=\"true\">✓</span> taken" : "<span aria-hidden=\"true\">–</span> skipped"
            return "<tr><td>\(TimeText.sentence(dose.instant, time))</td><td>\(status)</td><td>\(dose.scheduledFor.map { "the \($0.time) dose" } ?? "—")</td><td>\(dose.note ?? "")</td></tr>"
        }
        let body: HTML = """
        <p class="crumbs"><a href="/medications">Medications</a></p>
        <h1>\(medication.displayName)</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <p class="headline">\(Self.adherenceWords(adherence)) <span class="muted">of scheduled doses over the last 30 days</span></p>
        \(actions.isEmpty ? HTML.empty : HTML("<div class=\"actions\">\(HTML(actions, separator: " "))</div>"))
        <dl class="facts">\(factRows)</dl>
        \(calendar)
        <h2>Doses logged</h2>
        \(doseRows.isEmpty ? HTML("<p>No doses logged yet.</p>") : HTML("""
        <div class="scroll" tabindex="0" role="region" aria-label="Doses logged"><table class="records"><caption>The last \(doseRows.count), newest first</caption>
        <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">For</th><th scope="col">Note</th></tr></thead>
        <tbody>\(doseRows)</tbody></table></div>
        """))
        \(medicationEditForm(session, medication))
        <div class="actions">
        \(medication.status == .active ? HTML("""
        <form method="post" action="/medications/\(medication.id)/stop" class="inline"><input type="hidden" name="csrf" value="\(session.csrf)">\
        <button type="submit" class="secondary">Stop taking it today</button></form>
        """) : .empty)
        <a class="button secondary" href="/medications/\(medication.id)/remove">Remove…</a></div>
        """
        return try layout(.medications, session, profile, path: back).page(body)
    }

    /// The month as a calendar: each day's scheduled doses taken, skipped and missed, in marks
    /// and words (✓ all taken, ◐ some, ✗ missed), with links to the months before and after.
    static func adherenceCalendar(_ days: [AdherenceDay], year: Int, month: Int, today: CalendarDate, path: String) -> HTML {
        let first = CalendarDate(year: year, month: month, day: 1)!
        let length = CalendarDate.daysIn(month: month, year: year)
        var cells: [HTML] = Array(repeating: "<td></td>", count: first.weekdayNumber - 1)
        for number in 1...length {
            let date = first.plus(number - 1)
            let day = days.first { $0.day == date }
            var words: [String] = []
            var mark = "", kind = "none"
            if let day {
                if day.scheduled > 0 {
                    words.append("\(day.taken) of \(day.scheduled) taken")
                    if day.skipped > 0 { words.append("\(day.skipped) skipped") }
                    if day.missed > 0 { words.append("\(day.missed) missed") }
                    if day.missed > 0 { (mark, kind) = ("✗", "missed") }
                    else if day.taken == day.scheduled && day.pending == 0 { (mark, kind) = ("✓", "met") }
                    else if day.taken + day.skipped > 0 { (mark, kind) = ("◐", "partial") }
                } else if day.unscheduled > 0 {
                    (mark, kind) = ("•", "logged")
                } else if day.skipped > 0 {
                    (mark, kind) = ("–", "logged")
                    words.append("\(day.skipped) skipped")
                }
                if day.unscheduled > 0 { words.append("\(day.unscheduled) taken off the schedule") }
                if day.pending > 0 { words.append("\(day.pending) still to come") }
            } else if date > today {
                kind = "future"
                words.append("to come")
            }
            if date == today { words.append("today") }
            cells.append("""
            <td class="\(kind)\(date == today ? " today" : "")" data-day="\(date.description)"\(date == today ? " aria-current=\"date\"" as HTML : .empty)><span class="day">\(number)</span>\
            <span class="mark" aria-hidden="true">\(mark)</span><span class="visually-hidden">\(words.isEmpty ? "nothing scheduled" : words.joined(separator: ", "))</span></td>
            """)
        }
        while cells.count % 7 != 0 { cells.append("<td></td>") }
        let weeks: [HTML] = stride(from: 0, to: cells.count, by: 7).map { "<tr>\(HTML(Array(cells[$0..<$0 + 7])))</tr>" }
        let previous = month == 1 ? (year - 1, 12) : (year, month - 1)
        let next = month == 12 ? (year + 1, 1) : (year, month + 1)
        let name = "\(HabitChart.months[month - 1]) \(year)"
        let nextLink: HTML = next.0 * 12 + next.1 <= today.year * 12 + today.month
            ? "<a href=\"\(path)?month=\(String(format: "%04d-%02d", next.0, next.1))\">\(HabitChart.months[next.1 - 1]) <span aria-hidden=\"true\">→</span></a>" : .empty
        return """
        <section class="card adherence" aria-labelledby="adherence-heading"><h2 id="adherence-heading">Doses in \(name)</h2>
        <p class="pager"><a href="\(path)?month=\(String(format: "%04d-%02d", previous.0, previous.1))"><span aria-hidden="true">←</span> \(HabitChart.months[previous.1 - 1])</a> \(nextLink)</p>
        <table class="month"><caption class="visually-hidden">Scheduled doses of each day of \(name)</caption>
        <thead><tr>\(HabitChart.weekdayNames.map { HTML("<th scope=\"col\" abbr=\"\($0)\">\(String($0.prefix(2)))</th>") })</tr></thead>
        <tbody>\(weeks)</tbody></table>
        <p class="muted"><span aria-hidden="true">✓</span> all taken · <span aria-hidden="true">◐</span> some taken or skipped · <span aria-hidden="true">✗</span> missed · <span aria-hidden="true">•</span> taken, not on a schedule · <span aria-hidden="true">–</span> skipped</p>
        </section>
        """
    }

    /// Stops a medication today (`phr med stop`).
    public func stopMedication(_ session: WebSession, id: String) {
        do {
            let profile = try profile(session)
            let stopped = try MedicationStore(vault: vault, profile: profile, time: clock()).stop(id, on: nil)
            session.flash("Stopped \(stopped.displayName) (\(stopped.state(today: clock().today()))). Its doses stay in the log.")
        } catch {
            session.flash(Self.words(error), isError: true)
        }
    }

    /// Asks before a medication is removed (a GET changes nothing).
    public func confirmMedicationRemoval(_ session: WebSession, id: String) throws -> HTML {
        let profile = try profile(session)
        let store = MedicationStore(vault: vault, profile: profile, time: clock())
        guard let medication = try? store.get(id), medication.id == id else { throw NotFound() }
        let doses = try store.doses(of: medication).count
        let body: HTML = """
        <h1>Remove a medication?</h1>
        <p><strong>\(medication.displayName)</strong> (\(medication.schedule.summary)) and its \(doses) logged \(doses == 1 ? "dose" : "doses") go from the vault. \
        This cannot be undone, except from a backup. To keep its history, stop it instead.</p>
        <form method="post" action="/medications/\(medication.id)/remove" class="actions"><input type="hidden" name="csrf" value="\(session.csrf)">
        <button type="submit" class="danger">Remove it</button> <a href="/medications/\(medication.id)">Keep it</a></form>
        """
        return try layout(.medications, session, profile, path: "/medications/\(medication.id)/remove").page(body)
    }

    public func removeMedication(_ session: WebSession, id: String) throws {
        let profile = try profile(session)
        let store = MedicationStore(vault: vault, profile: profile, time: clock())
        guard let medication = try? store.get(id), medication.id == id else { throw NotFound() }
        let removed = try store.remove(medication.id)
        session.flash("Removed \(removed.displayName) and its doses.")
    }

    /// The form that changes a medication (`phr med edit`): what is typed replaces what is there,
    /// an emptied field clears it (the name cannot be emptied).
    private func medicationEditForm(_ session: WebSession, _ medication: Medication) -> HTML {
        let state = session.takeForm("med-edit")
        let fields = FormFields(form: "med-edit", state: state)
        let (kind, times, every): (String, String, String)
        switch medication.schedule {
        case .times(let list): (kind, times, every) = ("times", list.map(\.description).joined(separator: ", "), "")
        case .interval(let minutes): (kind, times, every) = ("every", "", TimeText.duration(TimeInterval(minutes * 60)))
        case .asNeeded: (kind, times, every) = ("as-needed", "", "")
        case .unscheduled: (kind, times, every) = ("none", "", "")
        }
        let chosen = fields.value("kind", kind)
        func option(_ value: String, _ label: String) -> HTML {
            "<label><input type=\"radio\" name=\"kind\" value=\"\(value)\"\(chosen == value ? " checked" as HTML : .empty)> \(label)</label>"
        }
        return """
        <details class="edit card"\(state == nil ? "" : " open")><summary>Change the medication</summary>
        <form method="post" action="/medications/\(medication.id)/edit" class="fields" novalidate>
        <input type="hidden" name="csrf" value="\(session.csrf)">
        \(fields.formError)
        \(fields.input("name", label: "Name", value: medication.name, extra: " required autocomplete=\"off\""))
        \(fields.input("dose", label: "Dose", value: medication.dose ?? "", extra: " autocomplete=\"off\""))
        <fieldset class="choice"><legend>Schedule</legend>
        \(option("times", "At times of day")) \(option("every", "Every so many hours")) \(option("as-needed", "As needed")) \(option("none", "No schedule"))
        </fieldset>
        \(fields.input("schedule", label: "Times of day", value: times, extra: " autocomplete=\"off\"", hint: "08:00, 20:00"))
        \(fields.input("every", label: "Every", value: every, extra: " autocomplete=\"off\"", hint: "8h, 12h"))
        \(fields.input("instructions", label: "Instructions", value: medication.instructions ?? "", extra: " autocomplete=\"off\""))
        <p><button type="submit">Save the changes</button></p>
        </form></details>
        """
    }

    /// Changes a medication from its form (`phr med edit`'s checks); the outcome, or the refused form.
    public func editMedication(_ session: WebSession, id: String, form: [String: String]) throws {
        let profile = try profile(session)
        let store = MedicationStore(vault: vault, profile: profile, time: clock())
        guard let medication = try? store.get(id), medication.id == id else { throw NotFound() }
        var input = MedicationStore.Input()
        input.name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
        input.dose = (form["dose"] ?? "").trimmingCharacters(in: .whitespaces)
        input.instructions = (form["instructions"] ?? "").trimmingCharacters(in: .whitespaces)
        switch form["kind"] ?? "times" {
        case "every": input.every = form["every"] ?? ""
        case "as-needed": input.asNeeded = true
        case "none": input.noSchedule = true
        default: input.times = form["schedule"] ?? ""
        }
        do {
            let changed = try store.edit(medication.id, input)
            session.flash("Saved \(changed.displayName), \(changed.schedule.summary).")
        } catch {
            let kept = form.filter { ["name", "dose", "kind", "schedule", "every", "instructions"].contains($0.key) }
            session.keepForm(FormState(name: "med-edit", values: kept, error: error, labels: Self.medicationLabels))
        }
    }
}
