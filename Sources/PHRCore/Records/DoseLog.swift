import Foundation
import GRDB

/// Logging doses taken or skipped, through the dose guard, and taking a wrong entry back.
public struct DoseLog {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What a `take` or `skip` recorded.
    public struct Entry: Sendable {
        public var medication: Medication
        public var dose: Dose
        /// The guard's objections `--force` overrode.
        public var overridden: DoseRefusal?
        /// A skip of the same scheduled dose that this dose replaced.
        public var replacedSkip: Bool
        /// The next dose due after this one (which may be an earlier one still overdue), if the
        /// medication is scheduled.
        public var next: DueDose?
    }

    /// A dose of `medication` taken at `instant` (now if nil). Refused by the guard unless `force`.
    public func take(_ medicationPrefix: String, at instant: Date? = nil, force: Bool = false, note: String? = nil) throws -> Entry {
        let at = try checkedInstant(instant)
        let note = try RecordFields.optionalText(note, field: Field.note, limit: RecordFields.maximumTextLength, multiline: true)
        return try vault.database.write { db in
            let medication = try MedicationStore(vault: vault, profile: profile, time: time).resolve(db, medicationPrefix)
            var log = try Dose.all(db, medicationID: medication.id)
            let slot = DoseSlots(medication: medication, userZone: time.zone).owner(of: at)
            var replacedSkip = false
            if let slot, let skipped = log.first(where: { $0.scheduledFor == slot.label && $0.status == .skipped }) {
                // Taken after all: the dose replaces the skip, so the slot is logged once.
                try db.execute(sql: "DELETE FROM dose WHERE id = ?", arguments: [skipped.id])
                log.removeAll { $0.id == skipped.id }
                replacedSkip = true
            }
            let refusal = DoseGuard.check(medication, at: at, slot: slot, log: log, time: time)
            if let refusal, !force { throw RecordError.doseRefused(refusal) }
            let slotTaken = refusal?.rules.contains(.alreadyTaken) ?? false
            let dose = try newDose(db, status: .taken, at: at, slot: slotTaken ? nil : slot,
                                   forced: refusal.map { $0.rules.map(\.rawValue) }, note: note)
            try dose.insert(db, medicationID: medication.id)
            return Entry(medication: medication, dose: dose, overridden: refusal, replacedSkip: replacedSkip,
                         next: nextDue(medication, log: log + [dose]))
        }
    }

    /// Records that the scheduled dose nearest `instant` (now if nil) was skipped.
    public func skip(_ medicationPrefix: String, at instant: Date? = nil, note: String? = nil) throws -> Entry {
        let at = try checkedInstant(instant)
        let note = try RecordFields.optionalText(note, field: Field.note, limit: RecordFields.maximumTextLength, multiline: true)
        return try vault.database.write { db in
            let medication = try MedicationStore(vault: vault, profile: profile, time: time).resolve(db, medicationPrefix)
            let log = try Dose.all(db, medicationID: medication.id)
            var slot: DoseSlot?
            switch medication.schedule {
            case .times:
                guard let owner = DoseSlots(medication: medication, userZone: time.zone).owner(of: at) else {
                    throw RecordError.notApplicable(reason: "med \(medication.id) has no dose scheduled near \(TimeText.short(at, time))",
                                                    hint: nil)
                }
                if let logged = log.first(where: { $0.scheduledFor == owner.label }) {
                    throw RecordError.notApplicable(
                        reason: "the \(owner.label.time) dose of med \(medication.id) was already \(logged.status.rawValue) \(TimeText.sentence(logged.instant, time))",
                        hint: "'\(Action.undoDose)' removes a wrong entry; '\(Action.showMedication(medication.id))' lists them")
                }
                slot = owner
            case .interval:
                slot = nil
            case .asNeeded, .unscheduled:
                throw RecordError.notApplicable(reason: "med \(medication.id) has no schedule, so there is no dose to skip",
                                                hint: "skipping applies to medications with \(Field.schedule) or \(Field.every)")
            }
            let dose = try newDose(db, status: .skipped, at: at, slot: slot, forced: nil, note: note)
            try dose.insert(db, medicationID: medication.id)
            return Entry(medication: medication, dose: dose, overridden: nil, replacedSkip: false,
                         next: nextDue(medication, log: log + [dose]))
        }
    }

    /// Removes a dose-log entry logged by mistake.
    public func undo(_ dosePrefix: String) throws -> (Medication, Dose) {
        try vault.database.write { db in
            let typed = dosePrefix.lowercased()
            let rows = try Row.fetchAll(db, sql: """
                SELECT d.*, d.medication_id AS medication FROM dose d JOIN medication m ON m.id = d.medication_id
                WHERE m.profile_id = ? AND substr(d.id, 1, ?) = ? ORDER BY d.id LIMIT 6
                """, arguments: [profile.id, typed.count, typed])
            let row: Row
            if rows.count == 1 {
                row = rows[0]
            } else if let exact = rows.first(where: { $0["id"] == typed }) {
                row = exact
            } else if rows.isEmpty || typed.isEmpty {
                throw RecordError.notFound(kind: "dose", id: dosePrefix)
            } else {
                throw RecordError.ambiguous(kind: "dose", prefix: dosePrefix, matches: rows.map { $0["id"] })
            }
            let dose = try Dose(row: row)
            let medication = try Medication.find(db, key: row["medication"] as String)
            try db.execute(sql: "DELETE FROM dose WHERE id = ?", arguments: [dose.id])
            return (medication, dose)
        }
    }

    /// `--at` may be up to five minutes ahead (clock skew between devices), never more.
    /// How far ahead of now a dose may be logged (a clock a little fast, a dose taken early).
    public static let earlyMinutes: Double = 5

    private func checkedInstant(_ instant: Date?) throws -> Date {
        let at = instant ?? time.now
        guard at <= time.now.addingTimeInterval(Self.earlyMinutes * 60) else {
            throw RecordError.invalidOption(option: Field.at, reason: "\(TimeText.short(at, time)) is in the future", hint: "log doses when they are taken")
        }
        // Minute precision, as on the schedule.
        return Date(timeIntervalSince1970: (at.timeIntervalSince1970 / 60).rounded(.down) * 60)
    }

    private func newDose(_ db: Database, status: Dose.Status, at: Date, slot: DoseSlot?, forced: [String]?, note: String?) throws -> Dose {
        Dose(id: try RecordID.generate(db, table: "dose"), uid: UUID().uuidString.lowercased(), status: status,
             at: Timestamp.string(at), timeZone: time.zone.identifier, scheduledFor: slot?.label, forced: forced, note: note,
             createdAt: Timestamp.string(time.now))
    }

    private func nextDue(_ medication: Medication, log: [Dose]) -> DueDose? {
        DoseDue.due(medication, log: log, time: time, within: 31 * 86400).first
    }
}

extension DoseLog {
    /// Parses `--at`: "HH:MM" (the latest such time: today, or yesterday if still ahead),
    /// "YYYY-MM-DD HH:MM" in the user's zone, or ISO 8601 with an offset.
    public static func parseInstant(_ text: String, time: TimeContext) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let clock = LocalTime(trimmed) {
            let today = LocalDateTime(date: time.today(), time: clock).instant(in: time.zone)
            return today > time.now.addingTimeInterval(300)
                ? LocalDateTime(date: time.today().adding(days: -1), time: clock).instant(in: time.zone) : today
        }
        if let local = LocalDateTime(trimmed) { return local.instant(in: time.zone) }
        if let instant = Timestamp.parse(trimmed) { return instant }
        throw RecordError.invalidOption(option: Field.at, reason: RecordFields.dateReason(
            trimmed, otherwise: "'\(text)' is not a time; use HH:MM, \"YYYY-MM-DD HH:MM\" or an ISO 8601 time"),
                                        hint: nil)
    }
}
