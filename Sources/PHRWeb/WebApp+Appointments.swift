import Foundation
import PHRService

/// The appointment screens: a month calendar whose days filter the list, the list (upcoming, or
/// the day chosen), an appointment added with `phr appt add`'s checks, removal with
/// confirmation, and the calendar as an .ics download (`phr appt export`'s file).
extension WebApp {
    /// The form's inputs that show an error beside them ("at" is the date and time together).
    static let appointmentLabels = ["with": "With", "at": "Date and time", "duration": "Duration", "location": "Where",
                                    "reason": "What for", "remind": "Remind me"]

    /// `month` is "YYYY-MM" (default: this one), `day` "YYYY-MM-DD" filters the list to that day.
    public func appointments(_ session: WebSession, month requested: String?, day requestedDay: String?) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        let today = time.today()
        let store = AppointmentStore(vault: vault, profile: profile, time: time)
        let chosenDay = requestedDay.flatMap(CalendarDate.init)
        var (year, month) = ((chosenDay ?? today).year, (chosenDay ?? today).month)
        if let requested, requested.count == 7, let y = Int(requested.prefix(4)), let m = Int(requested.suffix(2)),
           CalendarDate(year: y, month: m, day: 1) != nil {
            (year, month) = (y, m)
        }
        let inMonth = try store.list(.month(year: year, month: month)).filter { $0.status != .cancelled }
        let monthKey = String(format: "%04d-%02d", year, month)

        // The calendar: each day with its appointments' count and first time, a link that
        // filters the list to it.
        let first = CalendarDate(year: year, month: month, day: 1)!
        var cells: [HTML] = Array(repeating: "<td></td>", count: first.weekdayNumber - 1)
        for number in 1...CalendarDate.daysIn(month: month, year: year) {
            let date = first.plus(number - 1)
            let those = inMonth.filter { $0.start.date == date }
            let classes = [those.isEmpty ? nil : "busy", date == today ? "today" : nil, date == chosenDay ? "chosen" : nil].compactMap { $0 }
            let words = those.isEmpty ? "no appointments" : "\(those.count) \(those.count == 1 ? "appointment" : "appointments")"
            let content: HTML = those.isEmpty ? "<span class=\"day\">\(number)</span>" : """
                <a href="/appointments?day=\(date.description)"\(date == chosenDay ? " aria-current=\"true\"" as HTML : .empty)><span class="day">\(number)</span>\
                <span class="mark" aria-hidden="true">\(those.count > 1 ? "●\(those.count)" : "●")</span><span class="visually-hidden">, \(words)</span></a>
                """
            let current: HTML = date == today ? " aria-current=\"date\"" : ""
            cells.append("<td class=\"\(classes.joined(separator: " "))\" data-day=\"\(date.description)\"\(current)>\(content)</td>")
        }
        while cells.count % 7 != 0 { cells.append("<td></td>") }
        let weeks: [HTML] = stride(from: 0, to: cells.count, by: 7).map { "<tr>\(HTML(Array(cells[$0..<$0 + 7])))</tr>" }
        let previous = month == 1 ? (year - 1, 12) : (year, month - 1)
        let next = month == 12 ? (year + 1, 1) : (year, month + 1)
        let name = "\(HabitChart.months[month - 1]) \(year)"
        let calendar: HTML = """
        <section class="card calendar" aria-labelledby="calendar-heading"><h2 id="calendar-heading">\(name)</h2>
        <p class="pager"><a href="/appointments?month=\(String(format: "%04d-%02d", previous.0, previous.1))"><span aria-hidden="true">←</span> \(HabitChart.months[previous.1 - 1])</a>
        \(monthKey == String(format: "%04d-%02d", today.year, today.month) ? HTML.empty : HTML("<a href=\"/appointments\">This month</a>"))
        <a href="/appointments?month=\(String(format: "%04d-%02d", next.0, next.1))">\(HabitChart.months[next.1 - 1]) <span aria-hidden="true">→</span></a></p>
        <table class="month"><caption class="visually-hidden">Appointments in \(name); a day with appointments links to them</caption>
        <thead><tr>\(HabitChart.weekdayNames.map { HTML("<th scope=\"col\" abbr=\"\($0)\">\(String($0.prefix(2)))</th>") })</tr></thead>
        <tbody>\(weeks)</tbody></table></section>
        """

        let listed: [Appointment]
        let heading: HTML
        if let chosenDay {
            listed = try store.list(.on(chosenDay))
            heading = "<h2 id=\"list-heading\">On \(Self.longDate(chosenDay)) <a class=\"small\" href=\"/appointments?month=\(monthKey)\">show all upcoming</a></h2>"
        } else {
            listed = try store.list(.upcoming)
            heading = "<h2 id=\"list-heading\">Upcoming</h2>"
        }
        let rows: [HTML] = listed.map { appointment in
            let when = appointment.allDay ? "\(appointment.start.date) (all day)" : TimeText.sentence(appointment.startInstant, time)
            let status: HTML = appointment.status == .cancelled ? " <span class=\"badge\">cancelled</span>" : .empty
            return """
            <li class="appointment"><strong>\(when)</strong>\(status) with \(appointment.with)\(appointment.location.map { ", " + $0 })\
            \(appointment.reason.map { " (\($0))" }) <span class="muted">\(appointment.allDay ? "" : "\(appointment.durationMinutes) min")\
            \(appointment.remindMinutes.map { " · reminder \(TimeText.duration(TimeInterval($0 * 60))) before" } ?? "")</span>
            <a class="small" href="/appointments/\(appointment.id)/edit" aria-label="Change the appointment with \(appointment.with) on \(appointment.start.date.description)">Change…</a>
            <a class="small" href="/appointments/\(appointment.id)/remove" aria-label="Remove the appointment with \(appointment.with) on \(appointment.start.date.description)">Remove…</a></li>
            """
        }
        let form = session.takeForm("appt-add")
        let body: HTML = """
        <h1>Appointments</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <div class="cards">
        \(calendar)
        <section class="card" aria-labelledby="list-heading">\(heading)
        \(rows.isEmpty ? HTML("<p>\(chosenDay == nil ? "No appointments ahead." : "No appointments that day.")</p>") : HTML("<ul class=\"plain\">\(rows)</ul>"))
        <p><a href="/appointments/calendar.ics" download>Download the calendar (.ics)</a> <span class="muted">for a calendar app; it holds every appointment</span></p>
        </section>
        </div>
        \(appointmentForm(session, form, day: chosenDay ?? (first > today ? first : today)))
        """
        return try layout(.appointments, session, profile, path: chosenDay.map { "/appointments?day=\($0)" } ?? "/appointments?month=\(monthKey)").page(body)
    }

    static func longDate(_ day: CalendarDate) -> String {
        "\(HabitChart.weekdays[day.weekdayNumber - 1]) \(day.day) \(HabitChart.months[day.month - 1]) \(day.year)"
    }

    private func appointmentForm(_ session: WebSession, _ state: FormState?, day: CalendarDate) -> HTML {
        let fields = FormFields(form: "appt-add", state: state)
        let (dateError, dateAttributes) = fields.error("at")
        let (_, timeAttributes) = fields.error("at", hint: true)
        return """
        <details class="edit card"\(state == nil ? "" : " open")><summary>Add an appointment</summary>
        <form method="post" action="/appointments/add" class="fields" novalidate>
        <input type="hidden" name="csrf" value="\(session.csrf)">
        \(fields.formError)
        \(fields.input("with", label: "With", extra: " required autocomplete=\"off\"", hint: "Dr Patel, the dentist"))
        <div class="field"><label for="appt-add-date">Date</label>
        <input id="appt-add-date" name="date" type="date" value="\(fields.value("date", day.description))"\(dateAttributes) required></div>
        <div class="field"><label for="appt-add-time">Time</label><span class="muted field-hint" id="appt-add-at-hint">empty for all day</span>
        <input id="appt-add-time" name="time" type="time" value="\(fields.value("time", "09:00"))"\(timeAttributes)>\(dateError)</div>
        \(fields.input("duration", label: "Duration", value: "30m", extra: " autocomplete=\"off\"", hint: "30m, 1h"))
        \(fields.input("location", label: "Where", extra: " autocomplete=\"off\""))
        \(fields.input("reason", label: "What for", extra: " autocomplete=\"off\""))
        \(fields.input("remind", label: "Remind me", extra: " autocomplete=\"off\"", hint: "how long before: 1h, 1d (empty for your usual)"))
        <p><button type="submit">Add the appointment</button></p>
        </form></details>
        """
    }

    /// Adds an appointment (`phr appt add`'s checks); the page to show next (its day).
    public func addAppointment(_ session: WebSession, form: [String: String]) -> String {
        do {
            let profile = try profile(session)
            var input = AppointmentStore.Input()
            input.with = form["with"] ?? ""
            let date = (form["date"] ?? "").trimmingCharacters(in: .whitespaces)
            let clock = (form["time"] ?? "").trimmingCharacters(in: .whitespaces)
            input.at = clock.isEmpty ? date : "\(date) \(clock)"
            input.duration = Self.given(form["duration"])
            input.location = Self.given(form["location"])
            input.reason = Self.given(form["reason"])
            input.remind = Self.given(form["remind"])
            let added = try AppointmentStore(vault: vault, profile: profile, time: self.clock()).add(input)
            session.flash("Added the appointment with \(added.with) on \(Self.longDate(added.start.date))\(added.allDay ? "" : " at \(added.start.time)").")
            return "/appointments?day=\(added.start.date)"
        } catch {
            let kept = form.filter { ["with", "date", "time", "duration", "location", "reason", "remind"].contains($0.key) }
            session.keepForm(FormState(name: "appt-add", values: kept, error: error, labels: Self.appointmentLabels))
            return "/appointments"
        }
    }

    /// Every appointment as an iCalendar file, as `phr appt export` writes it.
    public func appointmentCalendar(_ session: WebSession) throws -> (name: String, bytes: [UInt8]) {
        let profile = try profile(session)
        let time = clock()
        let appointments = try AppointmentStore(vault: vault, profile: profile, time: time).list(.all)
        let defaults = try ReminderStore(vault: vault, profile: profile, time: time).appointmentLeadMinutes()
        let text = ICalendarExport.document(appointments, generator: "phr \(PHRVersion.string)", calendarName: "phr: \(profile.name)",
                                            defaultAlarmMinutes: defaults)
        return ("appointments.ics", Array(text.utf8))
    }

    public func confirmAppointmentRemoval(_ session: WebSession, id: String) throws -> HTML {
        let profile = try profile(session)
        let store = AppointmentStore(vault: vault, profile: profile, time: clock())
        guard let appointment = try? store.get(id), appointment.id == id else { throw NotFound() }
        let body: HTML = """
        <h1>Remove an appointment?</h1>
        <p>The appointment with <strong>\(appointment.with)</strong> on \(Self.longDate(appointment.start.date))\(appointment.allDay ? "" : " at \(appointment.start.time.description)") \
        goes from the vault (and from the .ics the next time it is downloaded). This cannot be undone, except from a backup.</p>
        <form method="post" action="/appointments/\(appointment.id)/remove" class="actions"><input type="hidden" name="csrf" value="\(session.csrf)">
        <button type="submit" class="danger">Remove it</button> <a href="/appointments?day=\(appointment.start.date.description)">Keep it</a></form>
        """
        return try layout(.appointments, session, profile, path: "/appointments/\(appointment.id)/remove").page(body)
    }

    public func removeAppointment(_ session: WebSession, id: String) throws -> String {
        let profile = try profile(session)
        let store = AppointmentStore(vault: vault, profile: profile, time: clock())
        guard let appointment = try? store.get(id), appointment.id == id else { throw NotFound() }
        let removed = try store.remove(appointment.id)
        session.flash("Removed the appointment with \(removed.with) on \(Self.longDate(removed.start.date)).")
        return "/appointments?day=\(removed.start.date)"
    }

    /// A reminder's lead time as it is typed, exactly: "2d", "3h", "90m" (never rounded).
    static func leadText(_ minutes: Int?) -> String {
        guard let minutes else { return "" }
        if minutes > 0 && minutes % 1440 == 0 { return "\(minutes / 1440)d" }
        if minutes > 0 && minutes % 60 == 0 { return "\(minutes / 60)h" }
        return "\(minutes)m"
    }

    /// An appointment's form (`phr appt edit`): what is typed replaces what is there; an emptied
    /// optional field clears it.
    public func editAppointmentPage(_ session: WebSession, id: String) throws -> HTML {
        let profile = try profile(session)
        let store = AppointmentStore(vault: vault, profile: profile, time: clock())
        guard let appointment = try? store.get(id), appointment.id == id else { throw NotFound() }
        let fields = FormFields(form: "appt-edit", state: session.takeForm("appt-edit"))
        let (dateError, dateAttributes) = fields.error("at")
        let body: HTML = """
        <p class="crumbs"><a href="/appointments?day=\(appointment.start.date.description)">Appointments</a></p>
        <h1>Change the appointment</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <form method="post" action="/appointments/\(appointment.id)/edit" class="fields" novalidate>
        <input type="hidden" name="csrf" value="\(session.csrf)">
        \(fields.formError)
        \(fields.input("with", label: "With", value: appointment.with, extra: " required autocomplete=\"off\""))
        <div class="field"><label for="appt-edit-date">Date</label>
        <input id="appt-edit-date" name="date" type="date" value="\(fields.value("date", appointment.start.date.description))"\(dateAttributes) required></div>
        <div class="field"><label for="appt-edit-time">Time</label><span class="muted field-hint" id="appt-edit-at-hint">empty for all day</span>
        <input id="appt-edit-time" name="time" type="time" value="\(fields.value("time", appointment.allDay ? "" : appointment.start.time.description))"\
        \(fields.error("at", hint: true).attributes)>\(dateError)</div>
        \(fields.input("duration", label: "Duration", value: "\(appointment.durationMinutes)m", extra: " autocomplete=\"off\"", hint: "30m, 1h"))
        \(fields.input("location", label: "Where", value: appointment.location ?? "", extra: " autocomplete=\"off\""))
        \(fields.input("reason", label: "What for", value: appointment.reason ?? "", extra: " autocomplete=\"off\""))
        <input type="hidden" name="remind-shown" value="\(Self.leadText(appointment.remindMinutes))">
        \(fields.input("remind", label: "Remind me", value: Self.leadText(appointment.remindMinutes),
                       extra: " autocomplete=\"off\"", hint: "how long before: 1h, 1d (empty for your usual)"))
        <div class="actions"><button type="submit">Save the changes</button> <a href="/appointments?day=\(appointment.start.date.description)">Leave it as it is</a></div>
        </form>
        """
        return try layout(.appointments, session, profile, path: "/appointments/\(appointment.id)/edit").page(body)
    }

    /// Changes an appointment from its form; the page to show next.
    public func editAppointment(_ session: WebSession, id: String, form: [String: String]) throws -> String {
        let profile = try profile(session)
        let store = AppointmentStore(vault: vault, profile: profile, time: clock())
        guard let appointment = try? store.get(id), appointment.id == id else { throw NotFound() }
        var input = AppointmentStore.Input()
        input.with = (form["with"] ?? "").trimmingCharacters(in: .whitespaces)
        let date = (form["date"] ?? "").trimmingCharacters(in: .whitespaces)
        let clock = (form["time"] ?? "").trimmingCharacters(in: .whitespaces)
        input.at = clock.isEmpty ? date : "\(date) \(clock)"
        input.duration = Self.given(form["duration"])
        input.location = (form["location"] ?? "").trimmingCharacters(in: .whitespaces)
        input.reason = (form["reason"] ?? "").trimmingCharacters(in: .whitespaces)
        // The lead time is changed only when it was: what the page showed may be one phr wrote
        // itself (an imported alarm at the start, 0m), which typed input would not take.
        let remind = (form["remind"] ?? "").trimmingCharacters(in: .whitespaces)
        if remind != (form["remind-shown"] ?? "") { input.remind = remind }
        do {
            let changed = try store.edit(appointment.id, input)
            session.flash("Saved the appointment with \(changed.with) on \(Self.longDate(changed.start.date))\(changed.allDay ? "" : " at \(changed.start.time)").")
            return "/appointments?day=\(changed.start.date)"
        } catch {
            let kept = form.filter { ["with", "date", "time", "duration", "location", "reason", "remind"].contains($0.key) }
            session.keepForm(FormState(name: "appt-edit", values: kept, error: error, labels: Self.appointmentLabels))
            return "/appointments/\(appointment.id)/edit"
        }
    }
}
