import Foundation
import GRDB

/// Adding, listing, editing and removing the appointments of one profile. Calendar files are
/// in Interop/ (`ICalendarExport`, `ICalendarImport`).
public struct AppointmentStore: ProfileRecordStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let kind = "appt"
    /// Without --duration an appointment lasts half an hour (a whole day when it has no time).
    public static let defaultDurationMinutes = 30

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `appt add` and `appt edit` take, as typed; for edit nil keeps and "" clears a field.
    public struct Input: Sendable {
        public var with: String?
        /// "2026-12-03 09:30", or "2026-12-03" for a whole day.
        public var at: String?
        public var duration: String?
        public var location: String?
        public var reason: String?
        public var notes: String?
        public var document: String?
        public var remind: String?
        /// The zone the appointment is in, if not the user's.
        public var timeZone: String?
        public var status: String?
        public init() {}
    }

    public enum Filter: Sendable, Equatable {
        case all
        /// Not over yet (an appointment in progress is still upcoming).
        case upcoming
        case past
        /// On this day where the appointment is.
        case on(CalendarDate)
        /// In this month where the appointment is.
        case month(year: Int, month: Int)
    }

    // MARK: Reading

    public func list(_ filter: Filter = .all) throws -> [Appointment] {
        try vault.database.read { db in
            try Self.allByStart(db, profileID: profile.id)
        }.filter { appointment in
            switch filter {
            case .all: return true
            case .upcoming: return appointment.endInstant > time.now
            case .past: return appointment.endInstant <= time.now
            case .on(let day): return appointment.start.date == day
            case .month(let year, let month): return appointment.start.date.year == year && appointment.start.date.month == month
            }
        }
    }

    public func get(_ prefix: String) throws -> Appointment {
        try record(prefix)
    }

    /// Every appointment of the profile, earliest start first.
    static func allByStart(_ db: Database, profileID: Int64) throws -> [Appointment] {
        try RecordRows.all(db, Appointment.self, profileID: profileID, orderBy: [Column("start_utc")])
    }

    // MARK: Changing

    @discardableResult
    public func add(_ input: Input) throws -> Appointment {
        let with = try RecordFields.text(input.with ?? "", field: Field.`with`, limit: RecordFields.maximumNameLength)
        guard let at = input.at else { throw RecordError.invalidField(field: Field.at, reason: "the date and time are needed, e.g. \"2026-12-03 09:30\"") }
        let zone = try input.timeZone.map { try RecordFields.timeZone($0, field: Field.tz) } ?? time.zone
        let (start, allDay) = try Self.parseStart(at, zone: zone)
        let now = Timestamp.string(time.now)
        var appointment = Appointment(id: "", uid: "", with: with, start: start, timeZone: zone.identifier,
                                      durationMinutes: allDay ? 1440 : Self.defaultDurationMinutes, allDay: allDay, location: nil,
                                      reason: nil, notes: nil, documentID: nil, status: .confirmed, remindMinutes: nil, sequence: 0,
                                      source: nil, createdAt: now, updatedAt: now)
        return try vault.database.write { db in
            // The ID is still empty here, so applying the options does not raise the sequence.
            try apply(input, to: &appointment, db)
            (appointment.id, appointment.uid) = try RecordRows.newIdentity(db, table: Self.table)
            try Self.insert(db, appointment, profileID: profile.id)
            return appointment
        }
    }

    /// The fields `input` names; a change of time, length, place or status raises the sequence.
    private func apply(_ input: Input, to appointment: inout Appointment, _ db: Database) throws {
        let before = (appointment.start, appointment.timeZone, appointment.durationMinutes, appointment.location, appointment.status)
        if let with = input.with { appointment.with = try RecordFields.text(with, field: Field.`with`, limit: RecordFields.maximumNameLength) }
        if let zone = input.timeZone {
            let newZone = try RecordFields.timeZone(zone, field: Field.tz)
            // Same wall-clock time in the new zone (the clinic's time was entered in the wrong zone).
            appointment.timeZone = newZone.identifier
            appointment.start = LocalDateTime(appointment.start.instant(in: newZone), in: newZone)
        }
        if let at = input.at {
            let (start, allDay) = try Self.parseStart(at, zone: appointment.zone)
            if allDay != appointment.allDay && input.duration == nil {
                appointment.durationMinutes = allDay ? 1440 : Self.defaultDurationMinutes
            }
            appointment.start = start
            appointment.allDay = allDay
        }
        if let text = input.duration {
            appointment.durationMinutes = try RecordFields.minutes(text, field: Field.duration, maximum: 44640)
        }
        appointment.location = try FieldChange.apply(input.location, to: appointment.location, field: Field.`where`)
        appointment.reason = try FieldChange.apply(input.reason, to: appointment.reason, field: Field.reason)
        appointment.notes = try FieldChange.apply(input.notes, to: appointment.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true)
        if let prefix = input.document {
            appointment.documentID = prefix.isEmpty ? nil : try RecordRows.document(db, prefix: prefix, profileID: profile.id)
        }
        if let text = input.remind {
            appointment.remindMinutes = text.isEmpty || text == "none" ? nil : try RecordFields.minutes(text, field: Field.remind, maximum: 4 * 7 * 1440)
        }
        if let text = input.status {
            appointment.status = Appointment.Status(rawValue: try RecordFields.choice(
                text, field: Field.status, allowed: Appointment.Status.allCases.map(\.rawValue)))!
        }
        try RecordValidation.times(appointment, startField: input.timeZone != nil && input.at == nil ? Field.tz : Field.at,
                                   endField: input.duration != nil ? Field.duration : Field.at)
        let after = (appointment.start, appointment.timeZone, appointment.durationMinutes, appointment.location, appointment.status)
        if !appointment.id.isEmpty && (before.0 != after.0 || before.1 != after.1 || before.2 != after.2 || before.3 != after.3
            || before.4 != after.4) {
            appointment.sequence += 1
        }
    }

    @discardableResult
    public func edit(_ prefix: String, _ input: Input) throws -> Appointment {
        try vault.database.write { db in
            var appointment = try resolve(db, prefix)
            try apply(input, to: &appointment, db)
            appointment.updatedAt = Timestamp.string(time.now)
            try Self.update(db, appointment, profileID: profile.id)
            return appointment
        }
    }

    @discardableResult
    public func remove(_ prefix: String) throws -> Appointment {
        try removeRecord(prefix)
    }

    /// "2026-12-03 09:30" (a time the clocks skip moves forward by the gap) or "2026-12-03" (a
    /// whole day).
    static func parseStart(_ text: String, zone: TimeZone) throws -> (LocalDateTime, allDay: Bool) {
        if let local = LocalDateTime(text) {
            return (LocalDateTime(local.instant(in: zone), in: zone), false)
        }
        if let day = CalendarDate(text.trimmingCharacters(in: .whitespaces)) {
            return (LocalDateTime(date: day, time: LocalTime(hour: 0, minute: 0)!), true)
        }
        throw RecordError.invalidField(field: Field.at, reason: RecordFields.dateReason(
            text.trimmingCharacters(in: .whitespaces), otherwise: "'\(text)' is not a date and time; use \"YYYY-MM-DD HH:MM\", e.g. \"2026-12-03 09:30\""))
    }

    // MARK: Rows and search

    static func index(_ db: Database, _ appointment: Appointment, profileID: Int64) throws {
        let body = [appointment.reason, appointment.location, appointment.notes, appointment.status == .cancelled ? "cancelled" : nil]
            .compactMap { $0 }.joined(separator: "\n")
        try SearchIndex.replace(db, kind: kind, recordID: appointment.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: appointment.with, tags: ["appointment"], body: body, type: appointment.status.rawValue,
                              date: appointment.start.date.description),
        ])
    }
}

extension Appointment: RowBacked {}
