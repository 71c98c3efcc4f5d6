import Foundation
import GRDB

/// Adding, listing, pausing and removing the reminder rules of one profile.
///
/// A profile has at most one water reminder (adding another changes it), one medication
/// reminder per medication (or one for all), and one appointment reminder per lead time.
public struct ReminderStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let table = Reminder.databaseTableName
    static let kind = "reminder"
    public static let defaultWindow = (LocalTime(hour: 8, minute: 0)!, LocalTime(hour: 22, minute: 0)!)
    public static let defaultBeforeMinutes = 24 * 60

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `phr remind add` takes.
    public struct Input: Sendable {
        public var kind: String
        /// water: rare, default or all.
        public var mode: String?
        /// water: "08:00-22:00".
        public var window: String?
        /// med: a medication ID (prefix); nil for every scheduled medication.
        public var medication: String?
        /// appt: "24h", "90m".
        public var before: String?

        public init(kind: String) { self.kind = kind }
    }

    /// What `add` did: added a rule, changed the existing water rule, or found it already there.
    public enum Outcome: String, Codable, Sendable {
        case added, updated, unchanged
    }

    @discardableResult
    public func add(_ input: Input) throws -> (Reminder, Outcome) {
        let kind = try Self.kind(input.kind)
        let stamp = Timestamp.string(time.now)
        var reminder = Reminder(id: "", uid: "", kind: kind, mode: nil, windowStart: nil, windowEnd: nil, medicationID: nil,
                                medicationUID: nil, beforeMinutes: nil, paused: false, createdAt: stamp, updatedAt: stamp)
        let misplaced: [(Field, String?, Reminder.Kind)] = [(Field.mode, input.mode, .water), (Field.window, input.window, .water),
                                                            (Field.before, input.before, .appt)]
        for (option, value, owner) in misplaced where value != nil && owner != kind {
            throw RecordError.invalidOption(option: option, reason: "only for \(owner.rawValue) reminders", hint: nil)
        }
        if input.medication != nil && kind != .med {
            throw RecordError.invalidOption(option: Field.argument("med"), reason: "only medication reminders name a medication", hint: nil)
        }
        switch kind {
        case .water:
            reminder.mode = try input.mode.map {
                Reminder.WaterMode(rawValue: try RecordFields.choice($0, field: Field.mode, allowed: Reminder.WaterMode.allCases.map(\.rawValue)))!
            } ?? .default
            (reminder.windowStart, reminder.windowEnd) = try input.window.map { try Self.window($0, field: Field.window) } ?? Self.defaultWindow
        case .med:
            break
        case .appt:
            reminder.beforeMinutes = try input.before.map { text in
                text.trimmingCharacters(in: .whitespaces) == "0" ? 0 : try RecordFields.minutes(text, field: Field.before, maximum: 44640)
            } ?? Self.defaultBeforeMinutes
        }
        return try vault.database.write { db in
            if let prefix = input.medication {
                let medication = try MedicationStore(vault: vault, profile: profile, time: time).resolve(db, prefix)
                guard medication.schedule.isScheduled else {
                    throw RecordError.notApplicable(reason: "med \(medication.id) has no schedule, so nothing falls due to remind of",
                                                    hint: "give it one with '\(Action.scheduleMedication(medication.id))' or \(Field.every) 8h")
                }
                reminder.medicationID = medication.id
                reminder.medicationUID = medication.uid
            }
            let existing = try Self.all(db, profileID: profile.id).first { other in
                switch kind {
                case .water: return other.kind == .water
                case .med: return other.kind == .med && other.medicationID == reminder.medicationID
                case .appt: return other.kind == .appt && other.beforeMinutes == reminder.beforeMinutes
                }
            }
            if var existing {
                guard kind == .water, existing.mode != reminder.mode || existing.windowStart != reminder.windowStart
                        || existing.windowEnd != reminder.windowEnd || existing.paused else { return (existing, .unchanged) }
                (existing.mode, existing.windowStart, existing.windowEnd, existing.paused) = (reminder.mode, reminder.windowStart, reminder.windowEnd, false)
                existing.updatedAt = stamp
                try Reminder.updateRow(db, existing, profileID: profile.id)
                return (existing, .updated)
            }
            (reminder.id, reminder.uid) = try RecordRows.newIdentity(db, table: Self.table)
            try Reminder.insertRow(db, reminder, profileID: profile.id)
            return (reminder, .added)
        }
    }

    public func list() throws -> [Reminder] {
        try vault.database.read { db in try Self.all(db, profileID: profile.id) }
    }

    /// The lead times of the active appointment reminder rules, longest first: the alarms an
    /// .ics export gives appointments that have no reminder of their own.
    public func appointmentLeadMinutes() throws -> [Int] {
        let leads = try list().filter { $0.kind == .appt && !$0.paused }.compactMap(\.beforeMinutes)
        return Array(Set(leads)).sorted(by: >)
    }

    /// Pauses (or resumes) a reminder without forgetting it.
    @discardableResult
    public func setPaused(_ prefix: String, _ paused: Bool) throws -> Reminder {
        try vault.database.write { db in
            var reminder = try resolve(db, prefix)
            reminder.paused = paused
            reminder.updatedAt = Timestamp.string(time.now)
            try Reminder.updateRow(db, reminder, profileID: profile.id)
            return reminder
        }
    }

    @discardableResult
    public func remove(_ prefix: String) throws -> Reminder {
        try vault.database.write { db in
            let reminder = try resolve(db, prefix)
            try db.execute(sql: "DELETE FROM reminder WHERE id = ?", arguments: [reminder.id])
            return reminder
        }
    }

    func resolve(_ db: Database, _ prefix: String) throws -> Reminder {
        let id = try RecordID.resolve(db, table: Self.table, kind: "reminder", prefix: prefix, profileID: profile.id)
        return try Self.all(db, profileID: profile.id).first { $0.id == id }!
    }

    /// A profile's reminders, oldest first, with the uid of the medication each names.
    static func all(_ db: Database, profileID: Int64) throws -> [Reminder] {
        try Reminder.fetchAll(db, sql: """
            SELECT r.*, m.uid AS medication_uid FROM reminder r LEFT JOIN medication m ON m.id = r.medication_id
            WHERE r.profile_id = ? ORDER BY r.created_at, r.rowid
            """, arguments: [profileID])
    }

    static func kind(_ text: String) throws -> Reminder.Kind {
        let synonyms: [String: Reminder.Kind] = ["medication": .med, "medications": .med, "meds": .med, "appointment": .appt,
                                                  "appointments": .appt, "appts": .appt, "drink": .water, "hydration": .water]
        let typed = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard let kind = Reminder.Kind(rawValue: typed) ?? synonyms[typed] else {
            throw RecordError.invalidOption(option: Field.argument("kind"), reason: "'\(text)' is not a reminder kind; use water, med or appt", hint: nil)
        }
        return kind
    }

    /// "08:00-22:00" (also with an en dash).
    static func window(_ text: String, field: Field) throws -> (LocalTime, LocalTime) {
        let parts = text.replacingOccurrences(of: "–", with: "-").split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = LocalTime(String(parts[0])), let end = LocalTime(String(parts[1])) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is not a window; use HH:MM-HH:MM, e.g. 08:00-22:00")
        }
        return (start, end)
    }
}
