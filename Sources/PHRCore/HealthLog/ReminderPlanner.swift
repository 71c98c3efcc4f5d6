import Foundation

/// A reminder to show now.
public struct DueReminder: Codable, Sendable, Equatable {
    /// Names the occurrence, so it is shown once: "water:<reminder>:2026-03-10T11:30",
    /// "med:<medication>:2026-03-10T08:00", "appt:<appointment>:<start UTC>:<minutes before>".
    public var key: String
    public var kind: Reminder.Kind
    /// The rule it comes from; nil for an appointment's own `--remind`.
    public var reminderID: String?
    /// The medication or appointment.
    public var recordID: String?
    /// When it fell due, with the user's offset: "2026-03-10T11:30:00+01:00".
    public var at: String
    public var title: String
    public var message: String
    /// Water reminders carry a hydration tip and its source.
    public var tip: HydrationTips.Tip?

    enum CodingKeys: String, CodingKey {
        case key, kind
        case reminderID = "reminder_id"
        case recordID = "record_id"
        case at, title, message, tip
    }
}

/// Which reminders are due now: pure, from the rules, the records and the clock.
///
/// - **Water**: the latest reminder time of the window that has passed, while it is current
///   (until the next reminder time or the window's end). Older ones that were missed (the
///   computer was off) are not shown late: only the current one is. None is shown once
///   today's water goal is met, or when water was logged since the reminder time.
/// - **Medications**: every dose of the medications a rule names (or of every scheduled one)
///   that is due or overdue now (DoseDue): a `times` dose until its window ends, an `--every`
///   dose once its interval has passed.
/// - **Appointments**: each upcoming, not cancelled appointment, at each lead time of the
///   appointment rules and its own `--remind`; when several are due at once (the computer was
///   off), only the nearest is shown, the others are marked as passed.
public enum ReminderPlanner {
    /// The key of each kind of occurrence, so a reminder is shown once however it was found
    /// (here, or from the plan the timer keeps for while the vault is locked).
    static func waterKey(_ reminderID: String, _ label: LocalDateTime) -> String { "water:\(reminderID):\(label)" }
    static func medicationKey(_ medicationID: String, _ dose: DueDose, _ zone: TimeZone) -> String {
        "med:\(medicationID):\(dose.scheduledFor ?? TimeText.iso(dose.instant, in: zone))"
    }
    static func appointmentKey(_ appointmentID: String, start: Date, lead: Int) -> String {
        "appt:\(appointmentID):\(Timestamp.string(start)):\(lead)"
    }

    public struct Context {
        public var time: TimeContext
        public var reminders: [Reminder]
        public var medications: [(Medication, [Dose])]
        public var appointments: [Appointment]
        /// Today's water against its goal.
        public var water: LogStore.DayProgress?
        /// When water was last logged.
        public var lastWater: Date?
        public var format: HealthFormat
        /// How the front end names the next step in a reminder's message.
        public var spelling: any MessageSpelling

        public init(time: TimeContext, reminders: [Reminder], medications: [(Medication, [Dose])], appointments: [Appointment],
                    water: LogStore.DayProgress?, lastWater: Date?, format: HealthFormat, spelling: any MessageSpelling) {
            self.time = time
            self.spelling = spelling
            self.reminders = reminders
            self.medications = medications
            self.appointments = appointments
            self.water = water
            self.lastWater = lastWater
            self.format = format
        }
    }

    /// The reminders to show, soonest first, and those that fell due but are superseded by a
    /// later one (recorded as handled, never shown).
    public static func plan(_ context: Context) -> (show: [DueReminder], superseded: [DueReminder]) {
        var show: [DueReminder] = []
        var superseded: [DueReminder] = []
        let active = context.reminders.filter { !$0.paused }
        for reminder in active where reminder.kind == .water {
            if let due = water(reminder, context) { show.append(due) }
        }
        let medicationRules = active.filter { $0.kind == .med }
        if !medicationRules.isEmpty {
            var seen = Set<String>()
            for rule in medicationRules {
                for (medication, log) in context.medications where rule.medicationID == nil || rule.medicationID == medication.id {
                    for due in self.medication(medication, log: log, rule: rule, time: context.time, spelling: context.spelling) where seen.insert(due.key).inserted {
                        show.append(due)
                    }
                }
            }
        }
        let leads = Set(active.compactMap { $0.kind == .appt ? $0.beforeMinutes : nil })
        let ruleByLead = Dictionary(active.compactMap { rule in rule.beforeMinutes.map { ($0, rule.id) } }, uniquingKeysWith: { a, _ in a })
        for appointment in context.appointments {
            let (shown, passed) = self.appointment(appointment, leads: leads, ruleByLead: ruleByLead, time: context.time)
            show += shown
            superseded += passed
        }
        show.sort { ($0.at, $0.kind.rawValue, $0.title, $0.key) < ($1.at, $1.kind.rawValue, $1.title, $1.key) }
        return (show, superseded)
    }

    // MARK: Water

    static func water(_ reminder: Reminder, _ context: Context) -> DueReminder? {
        guard let mode = reminder.mode, let start = reminder.windowStart, let end = reminder.windowEnd else { return nil }
        let time = context.time
        let now = time.now
        let today = time.today()
        // The window that opened yesterday may still be open (it runs past midnight).
        var current: (label: LocalDateTime, instant: Date, until: Date)?
        for windowDay in [today.adding(days: -1), today] {
            let labels = WaterReminderSchedule.occurrences(mode: mode, start: start, end: end, windowDay: windowDay)
            let closes = WaterReminderSchedule.windowEnd(start: start, end: end, windowDay: windowDay).instant(in: time.zone)
            for (index, label) in labels.enumerated() {
                let instant = label.instant(in: time.zone)
                let until = index + 1 < labels.count ? labels[index + 1].instant(in: time.zone) : closes
                if instant <= now && now < until { current = (label, instant, until) }
            }
        }
        guard let current else { return nil }
        if let progress = context.water, progress.met { return nil }
        if let last = context.lastWater, last >= current.instant { return nil }
        var message = "time for a glass of water"
        if let progress = context.water {
            let goal = progress.goal
            if goal.period == .day {
                message += ": \(context.format.amount(progress.total, .water)) of \(context.format.amount(goal.value, .water)) so far today"
            } else if let week = progress.weekTotal {
                message += ": \(context.format.amount(week, .water)) of \(context.format.amount(goal.value, .water)) so far this week"
            }
        }
        return DueReminder(key: waterKey(reminder.id, current.label), kind: .water, reminderID: reminder.id, recordID: nil,
                           at: TimeText.iso(current.instant, in: time.zone), title: "Water", message: message,
                           tip: HydrationTips.tip(for: current.label))
    }

    // MARK: Medications

    static func medication(_ medication: Medication, log: [Dose], rule: Reminder, time: TimeContext,
                           spelling: any MessageSpelling) -> [DueReminder] {
        DoseDue.due(medication, log: log, time: time, within: 0).filter { $0.inSeconds <= 0 }.map { dose in
            let when: String
            if let label = dose.scheduledFor.flatMap(LocalDateTime.init) {
                when = "the \(label.time) dose"
            } else {
                when = "the dose"
            }
            let late = -dose.inSeconds >= 60 ? ", due \(TimeText.sentence(dose.instant, time))" : ""
            return DueReminder(key: medicationKey(medication.id, dose, time.zone), kind: .med, reminderID: rule.id, recordID: medication.id,
                               at: TimeText.iso(dose.instant, in: time.zone), title: medication.displayName,
                               message: Message("\(when)\(late); log it with '\(Action.takeDose(medication.id, skip: false))'").rendered(spelling),
                               tip: nil)
        }
    }

    // MARK: Appointments

    static func appointment(_ appointment: Appointment, leads: Set<Int>, ruleByLead: [Int: String],
                            time: TimeContext) -> (show: [DueReminder], superseded: [DueReminder]) {
        guard appointment.status != .cancelled else { return ([], []) }
        let start = appointment.startInstant
        guard start > time.now else { return ([], []) }
        var all = leads
        if let own = appointment.remindMinutes { all.insert(own) }
        let due = all.filter { start.addingTimeInterval(-Double($0) * 60) <= time.now }.sorted()
        let reminders = due.map { lead -> DueReminder in
            var message = TimeText.sentence(start, time)
            message += " (in \(TimeText.duration(start.timeIntervalSince(time.now))))"
            if let location = appointment.location { message += ", \(location)" }
            if let reason = appointment.reason { message += ": \(reason)" }
            return DueReminder(key: appointmentKey(appointment.id, start: start, lead: lead), kind: .appt,
                               reminderID: ruleByLead[lead], recordID: appointment.id,
                               at: TimeText.iso(start.addingTimeInterval(-Double(lead) * 60), in: time.zone),
                               title: appointment.with, message: message, tip: nil)
        }
        guard let nearest = reminders.first else { return ([], []) }
        return ([nearest], Array(reminders.dropFirst()))
    }
}
