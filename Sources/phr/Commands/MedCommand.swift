import ArgumentParser
import Foundation
import PHRService

struct MedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "med",
        abstract: "Medications: what you take and when, a dose log that stops double doses, and what is due.",
        discussion: """
            Schedules are wall-clock times in the time zone you are in (TZ), so 08:00 stays 08:00 \
            when clocks change or you travel; --tz keeps them in one zone instead. --every is \
            elapsed time since the last dose. Each dose records the zone it was taken in.
            """,
        subcommands: [MedAdd.self, MedList.self, MedShow.self, MedEdit.self, MedStop.self, MedResume.self, MedTake.self,
                      MedUndo.self, MedDue.self, MedRemove.self,
                      // Lookups in public drug databases (MedInfoCommands.swift).
                      MedInfo.self, MedAlternatives.self, MedCheck.self, MedRecalls.self, MedResolve.self]
    )
}

/// The options `med add` and `med edit` share.
struct MedicationOptions: ParsableArguments {
    @Option(help: "How much per dose, as on the label, e.g. \"500 mg\" or \"2 puffs\".") var dose: String?
    @Option(help: "tablet, capsule, liquid, inhaler, injection...") var form: String?
    @Option(help: "Times of day, e.g. 08:00,20:00 (in the zone you are in).") var schedule: String?
    @Option(help: "Every so long after the last dose, e.g. 8h.") var every: String?
    @Flag(name: .customLong("as-needed"), help: "Taken when needed, not on a schedule.") var asNeeded = false
    @Flag(name: .customLong("no-schedule"), help: "No schedule at all (nothing falls due).") var noSchedule = false
    @Option(name: .customLong("tz"), help: "Keep the schedule in this IANA time zone when travelling, e.g. Europe/Berlin (\"\" to follow you again).")
    var timeZone: String?
    @Option(name: .customLong("min-interval"), help: "Refuse a dose sooner than this after the last one, e.g. 4h.") var minInterval: String?
    @Option(name: .customLong("max-per-day"), help: "Refuse a dose over this many in any 24 hours.") var maxPerDay: String?
    @Option(help: "First day (YYYY-MM-DD; default today).") var start: String?
    @Option(help: "Last day of the course (YYYY-MM-DD).") var end: String?
    @Option(help: "Who prescribed it.") var prescriber: String?
    @Option(help: "Where it is dispensed.") var pharmacy: String?
    @Option(help: "Refills left.") var refills: String?
    @Option(name: .customLong("doc"), help: "A document of this profile (the prescription), by ID.") var document: String?
    @Option(help: "How to take it, e.g. \"with food\".") var instructions: String?
    @Option(help: "Anything else.") var notes: String?

    func input(name: String?) -> MedicationStore.Input {
        var input = MedicationStore.Input()
        input.name = name
        input.dose = dose
        input.form = form
        input.times = schedule
        input.every = every
        input.asNeeded = asNeeded
        input.noSchedule = noSchedule
        input.timeZone = timeZone
        input.minInterval = minInterval
        input.maxPerDay = maxPerDay
        input.start = start
        input.end = end
        input.prescriber = prescriber
        input.pharmacy = pharmacy
        input.refills = refills
        input.document = document
        input.instructions = instructions
        input.notes = notes
        return input
    }
}

extension Medication {
    /// "Metformin 500 mg tablet, 08:00 and 20:00".
    var summaryLine: String { "\(displayName), \(RecordText.schedule(self))" }
}

struct MedAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a medication.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Its name, e.g. Metformin.") var name: String
    @OptionGroup var options: MedicationOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = MedicationStore(vault: context.vault, profile: context.profile, time: context.time)
        let medication = try RecordContext.options { try store.add(options.input(name: name)) }
        if output.json { return try Console.json(medication) }
        Console.out("added med \(medication.id) \(medication.summaryLine)")
    }
}

struct MedList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List current medications (--all: stopped ones too).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Flag(help: "Include stopped and ended medications.") var all = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let medications = try MedicationStore(vault: context.vault, profile: context.profile, time: context.time).list(all: all)
        if output.json { return try Console.json(medications) }
        if medications.isEmpty {
            return Console.note(all ? "no medications yet; add one with 'phr med add NAME'" : "no current medications; 'phr med list --all' shows stopped ones")
        }
        let today = context.time.today()
        Table.print(header: ["ID", "NAME", "DOSE", "SCHEDULE", "STATUS"], rows: medications.map { medication in
            [medication.id, medication.name, RecordText.or(medication.dose), RecordText.schedule(medication), medication.state(today: today)]
        })
    }
}

struct MedShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a medication: schedule, last doses and 30-day adherence.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The medication: its ID (any unique prefix), or its name or the start of it.") var id: String
    @Option(help: "How many recent doses to show.") var doses = 10

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = MedicationStore(vault: context.vault, profile: context.profile, time: context.time)
        let medication = try store.get(id)
        let log = try store.doses(of: medication)
        let adherence = Adherence.compute(medication, log: log, time: context.time)
        let next = DoseDue.due(medication, log: log, time: context.time, within: 31 * 86400).first
        let recent = Array(log.suffix(max(0, doses)).reversed())
        if output.json {
            struct Shown: Encodable {
                let medication: Medication
                let doses: [Dose]
                let adherence: Adherence
                let next: DueDose?
            }
            return try Console.json(Shown(medication: medication, doses: recent, adherence: adherence, next: next))
        }
        let today = context.time.today()
        var fields: [(String, String?)] = [
            ("id", medication.id), ("name", medication.name), ("dose", medication.dose), ("form", medication.form),
            ("schedule", RecordText.schedule(medication)),
            ("guard", Self.guardText(medication)),
            ("status", medication.state(today: today)),
            ("started", medication.start?.description), ("ends", medication.end?.description),
            ("instructions", medication.instructions), ("prescriber", medication.prescriber), ("pharmacy", medication.pharmacy),
            ("refills", medication.refills.map(String.init)), ("document", medication.documentID), ("notes", medication.notes),
            ("codes", RecordText.codes(medication.codes)),
        ]
        if let next {
            fields.append(("next dose", (next.state == .overdue ? "overdue since " : "") + TimeText.short(next.instant, context.time)))
        }
        fields.append(("adherence", Self.adherenceText(adherence)))
        RecordText.fields(fields)
        Console.out("")
        guard !recent.isEmpty else { return Console.out("no doses logged yet; log one with 'phr med take \(medication.id)'") }
        Console.out(Console.bold("last doses"))
        let scheduled: Bool
        if case .times = medication.schedule { scheduled = true } else { scheduled = false }
        Table.print(header: ["DOSE", "WHEN", "STATUS", "FOR", "NOTE"], rows: recent.map { dose in
            [dose.id, TimeText.short(dose.instant, context.time), dose.status.rawValue,
             dose.scheduledFor.map { $0.time.description } ?? (scheduled && dose.status == .taken ? "extra" : "—"),
             RecordText.or([dose.forced.map { "forced: " + $0.joined(separator: ", ") }, dose.note].compactMap { $0 }
                 .joined(separator: "; ").nilIfEmpty)]
        })
    }

    static func guardText(_ medication: Medication) -> String? {
        var parts: [String] = []
        if let minutes = medication.minIntervalMinutes {
            parts.append("at least \(TimeText.duration(TimeInterval(minutes * 60))) apart")
        } else if let implied = medication.effectiveMinInterval {
            parts.append("at least \(TimeText.duration(implied)) apart (half the interval)")
        }
        if let count = medication.maxPerDay { parts.append("at most \(count) in 24 hours") }
        if case .times = medication.schedule { parts.append("one dose per scheduled time") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    static func adherenceText(_ adherence: Adherence) -> String {
        guard let percent = adherence.percent else {
            return "\(adherence.unscheduled) dose\(adherence.unscheduled == 1 ? "" : "s") taken in the last \(adherence.days) days"
        }
        var text = "\(percent)% over \(adherence.days) days: \(adherence.taken) of \(adherence.scheduled) scheduled doses taken"
        if adherence.skipped > 0 { text += ", \(adherence.skipped) skipped" }
        if adherence.missed > 0 { text += ", \(adherence.missed) missed" }
        if adherence.unscheduled > 0 { text += ", \(adherence.unscheduled) extra" }
        return text
    }
}

struct MedEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a medication.",
        discussion: "Only the options given change; an empty value (--notes \"\") clears a field."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The medication: its ID (any unique prefix), or its name or the start of it.") var id: String
    @Option(help: "A new name.") var name: String?
    @OptionGroup var options: MedicationOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = MedicationStore(vault: context.vault, profile: context.profile, time: context.time)
        let medication = try RecordContext.options { try store.edit(id, options.input(name: name)) }
        if output.json { return try Console.json(medication) }
        Console.out("updated med \(medication.id) \(medication.summaryLine)")
    }
}

struct MedStop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Stop a medication: no doses are due from that day on.",
        discussion: "It stays in 'med list --all' with its dose log; 'med resume' takes it up again."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The medication: its ID (any unique prefix), or its name or the start of it.") var id: String
    @Option(help: "The first day without it (YYYY-MM-DD; default today; a later day schedules the stop).") var on: String?

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = MedicationStore(vault: context.vault, profile: context.profile, time: context.time)
        let medication = try RecordContext.options { try store.stop(id, on: on) }
        if output.json { return try Console.json(medication) }
        Console.out("\(medication.stoppedOn.map { $0 > context.time.today() ? "stopping" : "stopped" } ?? "stopped") med \(medication.id) \(medication.displayName) on \(medication.stoppedOn.map(\.description) ?? "")")
    }
}

struct MedResume: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Take a stopped medication up again.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The medication: its ID (any unique prefix), or its name or the start of it.") var id: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let medication = try MedicationStore(vault: context.vault, profile: context.profile, time: context.time).resume(id)
        if output.json { return try Console.json(medication) }
        Console.out("resumed med \(medication.id) \(medication.summaryLine)")
    }
}

struct MedTake: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "take", abstract: "Log a dose taken (or, with --skip, a scheduled dose skipped).",
        discussion: """
            The dose guard refuses a dose inside the minimum interval, over the daily maximum (any \
            24 hours), or for a scheduled time already taken, and says when the last dose was and \
            when the next is allowed. --force records it anyway, flagged in the log. A dose counts \
            for the scheduled time nearest to when it was taken.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The medication: its ID (any unique prefix), or its name or the start of it.") var id: String
    @Option(help: "When: HH:MM (today, or yesterday if that is still ahead), \"YYYY-MM-DD HH:MM\", or ISO 8601 (default now).")
    var at: String?
    @Flag(help: "Record the scheduled dose as skipped.") var skip = false
    @Flag(help: "Record the dose even if the dose guard refuses it (it is flagged).") var force = false
    @Option(help: "A note on this dose.") var note: String?

    func run() throws {
        if skip && force {
            throw RecordError.invalidOption(option: Field("force"), reason: "a skipped dose passes the guard anyway; leave out --force", hint: nil)
        }
        let context = try RecordContext(vault, profile)
        let instant = try at.map { try DoseLog.parseInstant($0, time: context.time) }
        let log = DoseLog(vault: context.vault, profile: context.profile, time: context.time)
        let entry = try RecordContext.options {
            skip ? try log.skip(id, at: instant, note: note) : try log.take(id, at: instant, force: force, note: note)
        }
        if output.json {
            struct Logged: Encodable {
                let medication_id: String
                let dose: Dose
                let next: DueDose?
            }
            return try Console.json(Logged(medication_id: entry.medication.id, dose: entry.dose, next: entry.next))
        }
        let name = entry.medication.displayName
        let slot = entry.dose.scheduledFor.map { "the \($0.time) dose" }
        if entry.dose.status == .skipped {
            Console.out("logged \(entry.dose.id): skipped \(slot ?? "the dose") of \(name)")
        } else {
            let when = TimeText.sentence(entry.dose.instant, context.time)
            Console.out("logged \(entry.dose.id): took \(name) \(when)\(slot.map { " (\($0))" } ?? "")")
        }
        if let refusal = entry.overridden {
            Console.warning("recorded despite the dose guard (\(refusal.rules.map(\.rawValue).joined(separator: ", "))); the dose is flagged in the log")
        }
        if entry.replacedSkip { Console.note("it replaces the skip logged for that time") }
        if let next = entry.next {
            Console.note(next.state == .overdue ? "the dose of \(TimeText.sentence(next.instant, context.time)) is overdue"
                                                : "next dose \(TimeText.sentence(next.instant, context.time))")
        }
    }
}

struct MedUndo: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Remove a dose-log entry logged by mistake.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The dose's ID, as 'med take' or 'med show' print it.") var dose: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let (medication, removed) = try DoseLog(vault: context.vault, profile: context.profile, time: context.time).undo(dose)
        if output.json { return try Console.json(removed) }
        Console.out("removed dose \(removed.id) of med \(medication.id) (\(removed.status.rawValue) \(TimeText.sentence(removed.instant, context.time)))")
    }
}

struct MedDue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "due", abstract: "List doses due soon, and those overdue now.",
        discussion: """
            A scheduled dose not taken is overdue until halfway to the next scheduled time, then \
            it counts as missed. An --every dose is due one interval after the last dose.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "How far ahead to look, e.g. 24h, 3d.") var within = "24h"

    func run() throws {
        let horizon = try RecordContext.options { try RecordFields.minutes(within, field: Field("within"), maximum: 31 * 1440) }
        let context = try RecordContext(vault, profile)
        let store = MedicationStore(vault: context.vault, profile: context.profile, time: context.time)
        let due = DoseDue.due(try store.withLogs(), time: context.time, within: TimeInterval(horizon * 60))
        if output.json { return try Console.json(due) }
        if due.isEmpty { return Console.note("nothing due in the next \(TimeText.duration(TimeInterval(horizon * 60)))") }
        Table.print(header: ["WHEN", "ID", "MEDICATION", "DOSE", "STATUS"], rows: due.map { dose in
            let gap = TimeInterval(abs(dose.inSeconds))
            let status = gap < 60 ? "due now" : dose.state == .overdue ? "overdue by \(TimeText.duration(gap))" : "in \(TimeText.duration(gap))"
            return [TimeText.short(dose.instant, context.time), dose.medicationID, dose.medication, RecordText.or(dose.dose), status]
        })
    }
}

struct MedRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove a medication and its dose log.",
        discussion: "To keep its history, 'med stop' it instead. Asks for confirmation on a terminal unless --yes."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The medication: its ID (any unique prefix), or its name or the start of it.") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = MedicationStore(vault: context.vault, profile: context.profile, time: context.time)
        let medication = try store.get(id)
        guard try RecordContext.confirmRemoval("med \(medication.id) \(medication.displayName) and its dose log", id: medication.id, yes: yes) else { return }
        let removed = try store.remove(medication.id)
        Console.out("removed med \(removed.id) \(removed.displayName)")
    }
}
