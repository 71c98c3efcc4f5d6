import Foundation
import GRDB

/// `phr remind due`: works out what is due (ReminderPlanner) and records each occurrence as
/// shown, in one transaction, so running it again (by hand, or every few minutes from a timer)
/// never shows the same reminder twice.
public struct ReminderRunner {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext
    /// How the front end names the next step in a reminder's message.
    public let spelling: any MessageSpelling

    /// How long shown occurrences are remembered: longer than any reminder stays current (an
    /// appointment's lead time is at most 31 days).
    public static let memoryDays = 40

    public init(vault: Vault, profile: Profile, time: TimeContext, spelling: any MessageSpelling) {
        self.vault = vault
        self.profile = profile
        self.time = time
        self.spelling = spelling
    }

    /// The reminders due now that were not shown before; with `record`, they are remembered as
    /// shown (`--peek` looks without recording), and with `queue` also queued for every
    /// reminder channel in the same transaction (ReminderDelivery sends them).
    public func due(record: Bool = true, queue: Bool = false) throws -> [DueReminder] {
        if !record { return try vault.database.read { db in try pending(db).show } }
        return try vault.database.write { db in
            let (show, superseded) = try pending(db)
            let stamp = Timestamp.string(time.now)
            for reminder in show + superseded {
                try db.execute(sql: "INSERT OR IGNORE INTO reminder_sent (profile_id, key, due_at, sent_at) VALUES (?, ?, ?, ?)",
                               arguments: [profile.id, reminder.key, Timestamp.string(Timestamp.parse(reminder.at) ?? time.now), stamp])
            }
            try db.execute(sql: "DELETE FROM reminder_sent WHERE profile_id = ? AND due_at < ?",
                           arguments: [profile.id, Timestamp.string(time.now.addingTimeInterval(-Double(Self.memoryDays) * 86400))])
            if queue { try ReminderDelivery.queue(db, show, profileID: profile.id, now: time.now) }
            return show
        }
    }

    private func pending(_ db: Database) throws -> (show: [DueReminder], superseded: [DueReminder]) {
        let reminders = try ReminderStore.all(db, profileID: profile.id)
        let active = reminders.filter { !$0.paused }
        var medications: [(Medication, [Dose])] = []
        if active.contains(where: { $0.kind == .med }) {
            let today = time.today()
            medications = try MedicationStore.all(db, profileID: profile.id).filter { $0.isCurrent(today: today) }.map {
                ($0, try Dose.all(db, medicationID: $0.id))
            }
        }
        let appointments = try AppointmentStore.allByStart(db, profileID: profile.id).filter { $0.endInstant > time.now }
        var water: LogStore.DayProgress?
        var lastWater: Date?
        if active.contains(where: { $0.kind == .water }) {
            water = try LogStore(vault: vault, profile: profile, time: time).progressInTransaction(db, .water, on: time.today())
            lastWater = try LogStore.latest(db, metric: .water, profileID: profile.id)?.instant
        }
        let settings = try HealthSettingsStore.fetch(db, profileID: profile.id)
        let plan = ReminderPlanner.plan(ReminderPlanner.Context(time: time, reminders: reminders, medications: medications,
                                                                appointments: appointments, water: water, lastWater: lastWater,
                                                                format: HealthFormat(settings), spelling: spelling))
        let sent = Set(try String.fetchAll(db, sql: "SELECT key FROM reminder_sent WHERE profile_id = ?", arguments: [profile.id]))
        return (plan.show.filter { !sent.contains($0.key) }, plan.superseded.filter { !sent.contains($0.key) })
    }
}
