import ArgumentParser
import Foundation
import PHRService

struct ApptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appt",
        abstract: "Appointments: add, list, a month calendar, and .ics files for calendar apps.",
        discussion: """
            Times are wall-clock times where the appointment is: the zone you are in (TZ), or \
            --tz. Listings show them in that zone, naming it when it is not yours.
            """,
        subcommands: [ApptAdd.self, ApptList.self, ApptShow.self, ApptCalendar.self, ApptEdit.self, ApptRemove.self,
                      ApptExport.self, ApptImport.self]
    )
}

/// The options `appt add` and `appt edit` share.
struct AppointmentOptions: ParsableArguments {
    @Option(help: "How long, e.g. 30m or 1h (default 30m).") var duration: String?
    @Option(name: .customLong("where"), help: "The place: clinic, address, room.") var location: String?
    @Option(help: "Why: check-up, follow-up, vaccination...") var reason: String?
    @Option(help: "Anything else: what to bring, questions to ask.") var notes: String?
    @Option(name: .customLong("doc"), help: "A document of this profile (a referral, a letter), by ID.") var document: String?
    @Option(help: "Remind this long before, in .ics exports, e.g. 1h (\"\" for none).") var remind: String?
    @Option(name: .customLong("tz"), help: "The IANA time zone it is in, if not yours, e.g. Europe/Paris.") var timeZone: String?
    @Option(help: "confirmed, tentative or cancelled.") var status: String?

    func fill(_ input: inout AppointmentStore.Input) {
        input.duration = duration
        input.location = location
        input.reason = reason
        input.notes = notes
        input.document = document
        input.remind = remind
        input.timeZone = timeZone
        input.status = status
    }
}

extension Appointment {
    /// "2026-12-03 09:30", "2026-12-03 all day", with the zone when it is not the user's.
    func when(userZone: TimeZone) -> String {
        let text = allDay ? "\(start.date) all day" : start.display
        return allDay || zone.identifier == userZone.identifier ? text : "\(text) \(timeZone)"
    }

    /// "30m", "1h 30m", "1 day".
    var length: String {
        allDay ? (durationMinutes <= 1440 ? "all day" : "\(durationMinutes / 1440) days") : TimeText.duration(TimeInterval(durationMinutes * 60))
    }

    /// The reason, with the status when it is not confirmed; "—" when there is neither.
    var remark: String {
        let marks = status == .confirmed ? [] : ["(\(status.rawValue))"]
        let text = (marks + [reason].compactMap { $0 }).joined(separator: " ")
        return text.isEmpty ? "—" : text
    }
}

struct ApptAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an appointment.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "With whom: a clinician or clinic, e.g. \"Dr. Lee\".") var with: String
    @Option(help: "When: \"YYYY-MM-DD HH:MM\" (or YYYY-MM-DD for a whole day).") var at: String
    @OptionGroup var options: AppointmentOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = AppointmentStore.Input()
        input.with = with
        input.at = at
        options.fill(&input)
        let store = AppointmentStore(vault: context.vault, profile: context.profile, time: context.time)
        let appointment = try RecordContext.options { try store.add(input) }
        if output.json { return try Console.json(appointment) }
        Console.out("added appt \(appointment.id) \(appointment.when(userZone: context.time.zone)) with \(appointment.with)")
    }
}

struct ApptList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List appointments in time order.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Flag(help: "Only those not over yet.") var upcoming = false
    @Flag(help: "Only those already over.") var past = false
    @Option(help: "Only those on this day (YYYY-MM-DD).") var on: String?

    func run() throws {
        guard [upcoming, past, on != nil].filter({ $0 }).count <= 1 else {
            throw RecordError.invalidOption(option: Field("upcoming"), reason: "choose one of --upcoming, --past and --on", hint: nil)
        }
        let day = try on.map { value in try RecordContext.options { try RecordFields.date(value, field: Field("on")) } }
        let context = try RecordContext(vault, profile)
        let filter: AppointmentStore.Filter = upcoming ? .upcoming : past ? .past : day.map { .on($0) } ?? .all
        let appointments = try AppointmentStore(vault: context.vault, profile: context.profile, time: context.time).list(filter)
        if output.json { return try Console.json(appointments) }
        if appointments.isEmpty {
            return Console.note(filter == .all ? "no appointments yet; add one with 'phr appt add --with NAME --at \"YYYY-MM-DD HH:MM\"'" : "no appointments match")
        }
        Table.print(header: ["ID", "WHEN", "LENGTH", "WITH", "WHERE", "REASON"], rows: appointments.map { appointment in
            [appointment.id, appointment.when(userZone: context.time.zone), appointment.length, appointment.with,
             RecordText.or(appointment.location), appointment.remark]
        })
    }
}

struct ApptShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show an appointment.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The appointment's ID (any unique prefix).") var id: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let appointment = try AppointmentStore(vault: context.vault, profile: context.profile, time: context.time).get(id)
        if output.json { return try Console.json(appointment) }
        RecordText.fields([
            ("id", appointment.id), ("with", appointment.with), ("when", appointment.when(userZone: context.time.zone)),
            ("zone", appointment.timeZone), ("length", appointment.length), ("where", appointment.location),
            ("reason", appointment.reason), ("status", appointment.status.rawValue),
            ("reminder", appointment.remindMinutes.map { "\(TimeText.duration(TimeInterval($0 * 60))) before" }),
            ("document", appointment.documentID), ("notes", appointment.notes), ("uid", appointment.uid),
        ])
    }
}

struct ApptCalendar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cal", abstract: "Show a month as a calendar; days with appointments are marked *."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Which month (YYYY-MM; default this month).") var month: String?

    func run() throws {
        let context = try RecordContext(vault, profile)
        let today = context.time.today()
        var (year, number) = (today.year, today.month)
        if let month {
            let parts = month.split(separator: "-")
            guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let y = Int(parts[0]), let m = Int(parts[1]),
                  CalendarDate.supportedYears.contains(y), (1...12).contains(m) else {
                throw RecordError.invalidOption(option: Field("month"), reason: RecordFields.dateReason(month, otherwise: "'\(month)' is not a month; use YYYY-MM, e.g. 2026-12"), hint: nil)
            }
            (year, number) = (y, m)
        }
        let appointments = try AppointmentStore(vault: context.vault, profile: context.profile, time: context.time)
            .list(.month(year: year, month: number))
        if output.json { return try Console.json(appointments) }
        let marked = Set(appointments.filter { $0.status != .cancelled }.map(\.start.date.day))
        for line in MonthGrid.lines(year: year, month: number, marked: marked, today: today, highlight: Console.stdoutColour) {
            Console.out(line)
        }
        guard !appointments.isEmpty else { return }
        Console.out("")
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        Table.print(header: ["DAY", "TIME", "ID", "WITH", "REASON"], rows: appointments.map { appointment in
            [String(format: "%2d %@", appointment.start.date.day, weekdays[appointment.start.date.isoWeekday - 1]),
             appointment.allDay ? "all day" : appointment.start.time.description, appointment.id, appointment.with, appointment.remark]
        })
    }
}

struct ApptEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change an appointment.",
        discussion: "Only the options given change; an empty value (--notes \"\") clears a field. A new time, place or status raises the .ics SEQUENCE so calendars update."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The appointment's ID (any unique prefix).") var id: String
    @Option(help: "With whom.") var with: String?
    @Option(help: "When: \"YYYY-MM-DD HH:MM\" (or YYYY-MM-DD for a whole day).") var at: String?
    @OptionGroup var options: AppointmentOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = AppointmentStore.Input()
        input.with = with
        input.at = at
        options.fill(&input)
        let store = AppointmentStore(vault: context.vault, profile: context.profile, time: context.time)
        let appointment = try RecordContext.options { try store.edit(id, input) }
        if output.json { return try Console.json(appointment) }
        Console.out("updated appt \(appointment.id) \(appointment.when(userZone: context.time.zone)) with \(appointment.with)")
    }
}

struct ApptRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove an appointment.",
        discussion: "To keep it as cancelled, 'appt edit ID --status cancelled' instead. Asks for confirmation on a terminal unless --yes."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The appointment's ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = AppointmentStore(vault: context.vault, profile: context.profile, time: context.time)
        let appointment = try store.get(id)
        let description = "appt \(appointment.id) \(appointment.when(userZone: context.time.zone)) with \(appointment.with)"
        guard try RecordContext.confirmRemoval(description, id: appointment.id, yes: yes) else { return }
        let removed = try store.remove(appointment.id)
        Console.out("removed appt \(removed.id) \(removed.when(userZone: context.time.zone)) with \(removed.with)")
    }
}

struct ApptExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write appointments to an iCalendar (.ics) file for calendar apps.",
        discussion: "Each appointment keeps its UID, so importing the file again updates instead of duplicating. The file is written with mode 0600."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Option(help: "The .ics file to write, or - for standard output.") var ics: String
    @Flag(help: "Only appointments not over yet.") var upcoming = false
    @Option(help: "Alarm this long before appointments without a reminder of their own, e.g. 1h, or none (default: the lead times of 'phr remind add appt').")
    var alarm: String?
    @Flag(help: "Replace the file if it exists.") var force = false

    func run() throws {
        try vault.refuseOutput(ics, option: "--ics")
        let alarmMinutes = try alarm.map { value -> [Int] in
            let typed = value.trimmingCharacters(in: .whitespaces).lowercased()
            if typed == "none" || typed.isEmpty { return [] }
            if typed == "0" { return [0] }
            return [try RecordContext.options { try RecordFields.minutes(value, field: Field("alarm"), maximum: 4 * 7 * 1440) }]
        }
        let context = try RecordContext(vault, profile)
        let appointments = try AppointmentStore(vault: context.vault, profile: context.profile, time: context.time)
            .list(upcoming ? .upcoming : .all)
        let defaults = try alarmMinutes
            ?? ReminderStore(vault: context.vault, profile: context.profile, time: context.time).appointmentLeadMinutes()
        let text = ICalendarExport.document(appointments, generator: "phr \(PHR.version)", calendarName: "phr: \(context.profile.name)",
                                            defaultAlarmMinutes: defaults)
        if ics == "-" {
            Console.writeOut(Data(text.utf8))
            return
        }
        try ICalendarExport.write(text, to: ics, force: force)
        Console.note("wrote \(appointments.count) appointment\(appointments.count == 1 ? "" : "s") to \(ics)")
    }
}

struct ApptImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Add the appointments of an iCalendar (.ics) file, e.g. a clinic's invitation.",
        discussion: "Importing the same file again adds nothing; an invitation with a higher SEQUENCE (rescheduled, cancelled) updates the appointment."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The .ics file.") var file: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let input = RawArguments.paths([file])[0]
        let report = try RecordImport.runICalendar(input: input, vault: context.vault, profile: context.profile, time: context.time)
        if output.json { try Console.json(report) } else { ImportReportPrinter.print(report, file: input.display) }
        if report.rejectedCount > 0 {
            throw InteropError.partlyImported(path: input.display, rejected: report.rejectedCount, dryRun: false)
        }
    }
}
