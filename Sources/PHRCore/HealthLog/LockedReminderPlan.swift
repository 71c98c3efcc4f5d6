import Foundation
import GRDB

/// What the reminder timer can still do while the vault is locked (issue 35, item 3): the next
/// `days` days of reminder times, kept outside the vault where the timer reads them without keys.
/// Each entry holds only a time, a kind (medication, water, appointment) and the occurrence's
/// key: no medication, no person, no place. While the vault is locked, `phr remind due --notify
/// --if-unlocked` shows what falls due from it on the desktop, in the generic words notifications
/// use anyway; once the vault is open again, what was shown is recorded as shown in the vault
/// (never shown twice) and the plan is made anew.
public struct LockedReminderPlan: Codable, Sendable, Equatable {
    public struct Entry: Codable, Sendable, Equatable {
        /// The occurrence, as ReminderPlanner names it ("med:<medication>:<slot>").
        public var key: String
        public var kind: Reminder.Kind
        /// When it falls due, and the last moment it is still shown (with the user's offset).
        public var at: String
        public var until: String

        /// The reminder to show for it: its kind and time only (the desktop's generic words).
        public var reminder: DueReminder {
            DueReminder(key: key, kind: kind, reminderID: nil, recordID: nil, at: at, title: "", message: "", tip: nil)
        }
    }

    public var version: Int
    public var madeAt: String
    /// The end of the planned stretch: after it, nothing is reminded while the vault is locked.
    public var until: String
    public var reminders: [Entry]
    /// Keys shown from this plan while the vault was locked.
    public var shown: [String]
    /// The day a "reminders run out" notice was last given.
    public var warnedOn: String?

    enum CodingKeys: String, CodingKey {
        case version
        case madeAt = "made_at"
        case until, reminders, shown
        case warnedOn = "warned_on"
    }

    /// How far ahead a plan reaches, and how long before its end the user is told.
    public static let days = 14
    public static let warnDays = 7
    /// How long after its time a medication dose is still shown from the plan.
    public static let doseShownSeconds: TimeInterval = 2 * 3600

    // MARK: Making one

    /// The plan for the next `days` days from the profile's reminder rules and records, without
    /// what the vault already records as shown.
    public static func make(vault: Vault, profile: Profile, time: TimeContext) throws -> LockedReminderPlan {
        let horizon = time.now.addingTimeInterval(Double(days) * 86_400)
        return try vault.database.read { db in
            let rules = try ReminderStore.all(db, profileID: profile.id).filter { !$0.paused }
            var entries: [Entry] = []
            func add(_ key: String, _ kind: Reminder.Kind, _ at: Date, _ until: Date) {
                guard until > time.now, at <= horizon else { return }
                entries.append(Entry(key: key, kind: kind, at: TimeText.iso(at, in: time.zone), until: TimeText.iso(until, in: time.zone)))
            }
            // Medication doses, of the medications the rules name (or every scheduled one).
            let medicationRules = rules.filter { $0.kind == .med }
            if !medicationRules.isEmpty {
                let today = time.today()
                var seen = Set<String>()
                for medication in try MedicationStore.all(db, profileID: profile.id).filter({ $0.isCurrent(today: today) })
                where medicationRules.contains(where: { $0.medicationID == nil || $0.medicationID == medication.id }) {
                    let log = try Dose.all(db, medicationID: medication.id)
                    for dose in DoseDue.due(medication, log: log, time: time, within: horizon.timeIntervalSince(time.now)) {
                        let key = ReminderPlanner.medicationKey(medication.id, dose, time.zone)
                        if seen.insert(key).inserted { add(key, .med, dose.instant, dose.instant.addingTimeInterval(doseShownSeconds)) }
                    }
                }
            }
            // Water: each reminder time of each window, current until the next.
            for rule in rules where rule.kind == .water {
                guard let mode = rule.mode, let start = rule.windowStart, let end = rule.windowEnd else { continue }
                for offset in -1...days {
                    let windowDay = time.today().adding(days: offset)
                    let labels = WaterReminderSchedule.occurrences(mode: mode, start: start, end: end, windowDay: windowDay)
                    let closes = WaterReminderSchedule.windowEnd(start: start, end: end, windowDay: windowDay).instant(in: time.zone)
                    for (index, label) in labels.enumerated() {
                        let until = index + 1 < labels.count ? labels[index + 1].instant(in: time.zone) : closes
                        add(ReminderPlanner.waterKey(rule.id, label), .water, label.instant(in: time.zone), until)
                    }
                }
            }
            // Appointments: each lead time of the rules and the appointment's own, until it starts.
            let leads = Set(rules.compactMap { $0.kind == .appt ? $0.beforeMinutes : nil })
            for appointment in try AppointmentStore.allByStart(db, profileID: profile.id)
            where appointment.status != .cancelled && appointment.startInstant > time.now {
                var all = leads
                if let own = appointment.remindMinutes { all.insert(own) }
                for lead in all {
                    let start = appointment.startInstant
                    add(ReminderPlanner.appointmentKey(appointment.id, start: start, lead: lead), .appt, start.addingTimeInterval(-Double(lead) * 60), start)
                }
            }
            let sent = Set(try String.fetchAll(db, sql: "SELECT key FROM reminder_sent WHERE profile_id = ?", arguments: [profile.id]))
            entries = entries.filter { !sent.contains($0.key) }.sorted { ($0.at, $0.key) < ($1.at, $1.key) }
            return LockedReminderPlan(version: 1, madeAt: TimeText.iso(time.now, in: time.zone), until: TimeText.iso(horizon, in: time.zone),
                                      reminders: entries, shown: [], warnedOn: nil)
        }
    }

    /// Records in the vault, as shown, what this plan showed while the vault was locked, so the
    /// open vault does not show it again.
    public func recordShown(in vault: Vault, profile: Profile, time: TimeContext) throws {
        let shownKeys = Set(shown)
        let entries = reminders.filter { shownKeys.contains($0.key) }
        guard !entries.isEmpty else { return }
        try vault.database.write { db in
            for entry in entries {
                try db.execute(sql: "INSERT OR IGNORE INTO reminder_sent (profile_id, key, due_at, sent_at) VALUES (?, ?, ?, ?)",
                               arguments: [profile.id, entry.key, Timestamp.string(Timestamp.parse(entry.at) ?? time.now), Timestamp.string(time.now)])
            }
        }
    }

    // MARK: Using one while locked

    /// The entries due at `now` and not shown yet: fallen due and still current.
    public func due(at now: Date) -> [Entry] {
        let shownKeys = Set(shown)
        return reminders.filter { entry in
            guard !shownKeys.contains(entry.key), let at = Timestamp.parse(entry.at), let until = Timestamp.parse(entry.until) else { return false }
            return at <= now && now < until
        }
    }

    /// Whether the plan ends within `warnDays` of `now` (or has ended).
    public func runsOutSoon(at now: Date) -> Bool {
        guard let end = Timestamp.parse(until) else { return true }
        return end.timeIntervalSince(now) < Double(Self.warnDays) * 86_400
    }

    // MARK: Where it is kept

    /// `$XDG_STATE_HOME/phr` (else `~/.local/state/phr`), where plans are kept.
    public static func directory(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/phr" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/phr"
    }

    /// The plan file of a vault and a profile as the timer names it (`--profile`, or none for
    /// the default). The name holds a hash of the profile's name, not the name.
    public static func path(vaultID: String, profileSelector: String?, environment: [String: String]) -> String {
        let selector = (try? SHA256Hasher.hash(Array((profileSelector ?? "").utf8)).hex.prefix(16)).map(String.init) ?? "default"
        return "\(directory(environment: environment))/reminders-\(vaultID)-\(selector).json"
    }

    /// The plan at `path`, or nil when there is none (or it cannot be read).
    public static func load(_ path: String) -> LockedReminderPlan? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(LockedReminderPlan.self, from: data)
    }

    /// Writes the plan to `path` (0600, in a 0700 folder), replacing the old one at once.
    public func write(to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try FileDescriptor.replacePrivately(Array(try encoder.encode(self)), at: path)
    }

    /// Removes every plan of the vault `vaultID` (when the timer is uninstalled).
    public static func removeAll(vaultID: String, environment: [String: String]) {
        let folder = directory(environment: environment)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix("reminders-\(vaultID)-") {
            unlink(folder + "/" + name)
        }
    }
}
