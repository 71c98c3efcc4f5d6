import Foundation
import GRDB

/// Appointments from an iCalendar file, typically a clinic's invitation, idempotent on UID.
///
/// - An event whose UID is in the profile already is updated only when its SEQUENCE is higher
///   (a rescheduled or cancelled invitation); otherwise it is left as it is.
/// - METHOD:CANCEL or STATUS:CANCELLED marks the appointment cancelled.
/// - Times: UTC, or TZID (an IANA name, else the file's VTIMEZONE rules), or floating (read in
///   the user's zone); a date without time is a whole-day appointment.
/// - With whom: X-PHR-WITH (phr's own exports), else the ORGANIZER's name, else the SUMMARY; the
///   SUMMARY then becomes the reason. DESCRIPTION becomes the notes, the first VALARM's
///   TRIGGER the reminder.
/// - Repeating events (RRULE) are skipped: phr keeps single visits.
/// - An event with bad data (no UID, an end before its start, longer than 31 days, a date
///   outside 1900-2200, a field over its limit) is refused and reported; the others are
///   imported. Empty optional properties (`LOCATION:`, as Google writes them) are absent.
struct ICalendarImport {
    let text: String
    let path: String
    let profileID: Int64
    let time: TimeContext

    func run(_ db: Database, report: inout ImportReport) throws {
        let roots: [ICalendarParser.Component]
        do {
            roots = try ICalendarParser.parse(text)
        } catch let error as ICalendarParser.SyntaxError {
            throw InteropError.malformed(path: path, location: "line \(error.line)", reason: error.reason)
        }
        guard let calendar = roots.first(where: { $0.name == "VCALENDAR" }) else {
            throw InteropError.unrecognized(path: path, reason: "no VCALENDAR in this iCalendar file")
        }
        let method = calendar.first("METHOD")?.value.uppercased()
        let zones = ICalendarTimeZones.Definitions(calendar)
        var eventNumber = 0
        for component in calendar.components {
            switch component.name {
            case "VEVENT":
                eventNumber += 1
                let location = "event \(eventNumber) (line \(component.line))"
                do {
                    try take(component, location: location, method: method, zones: zones, db, &report)
                } catch let error as FHIRFieldError {
                    report.reject(location, type: "VEVENT", "\(error.field): \(error.reason)")
                } catch RecordError.invalidField(let field, let reason) {
                    report.reject(location, type: "VEVENT", "\(field.name): \(reason)")
                }
            case "VTIMEZONE":
                continue
            default:
                report.skip("line \(component.line)", type: component.name, "not an event")
            }
        }
    }

    private func take(_ event: ICalendarParser.Component, location: String, method: String?, zones: ICalendarTimeZones.Definitions,
                      _ db: Database, _ report: inout ImportReport) throws {
        guard let uid = event.first("UID")?.text.trimmingCharacters(in: .whitespaces), !uid.isEmpty else {
            throw FHIRFieldError(field: "UID", reason: "missing; every event has one (RFC 5545 3.8.4.7)")
        }
        guard uid.count <= 255 else { throw FHIRFieldError(field: "UID", reason: "longer than 255 characters") }
        if event.first("RRULE") != nil || event.first("RDATE") != nil {
            report.skip(location, type: "VEVENT", "repeats (RRULE); phr keeps single visits, add them one by one")
            return
        }
        guard let startProperty = event.first("DTSTART") else { throw FHIRFieldError(field: "DTSTART", reason: "missing") }
        let (startInstant, allDay, zone) = try moment(startProperty, zones: zones, field: "DTSTART")
        var minutes = allDay ? 1440 : AppointmentStore.defaultDurationMinutes
        let longest = RecordValidation.maximumAppointmentMinutes
        if let endProperty = event.first("DTEND") {
            let (end, _, _) = try moment(endProperty, zones: zones, field: "DTEND")
            guard end >= startInstant else { throw FHIRFieldError(field: "DTEND", reason: "is before DTSTART") }
            guard end.timeIntervalSince(startInstant) <= TimeInterval(longest * 60) else {
                throw FHIRFieldError(field: "DTEND", reason: "the event lasts longer than 31 days, the longest appointment phr keeps")
            }
            if end > startInstant { minutes = Int(end.timeIntervalSince(startInstant) / 60) }
        } else if let durationText = event.first("DURATION")?.value {
            let shown = durationText.prefix(40)
            guard let seconds = ICalendarText.parseDuration(durationText) else {
                throw FHIRFieldError(field: "DURATION", reason: "'\(shown)' is not a duration phr can read (at most 31 days)")
            }
            guard seconds >= 0 else { throw FHIRFieldError(field: "DURATION", reason: "'\(shown)' is negative: the event would end before it starts") }
            guard seconds <= longest * 60 else {
                throw FHIRFieldError(field: "DURATION", reason: "'\(shown)' is longer than 31 days, the longest appointment phr keeps")
            }
            if seconds >= 60 { minutes = seconds / 60 }
        }
        minutes = max(minutes, 1)
        /// A property's text, or nil when it is absent or empty (`LOCATION:` is legal and common).
        func text(_ name: String) -> String? {
            guard let value = event.first(name)?.text, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            return value
        }
        let summary = text("SUMMARY")?.trimmingCharacters(in: .whitespacesAndNewlines)
        let organizer = event.first("ORGANIZER")?.parameters["CN"]?.trimmingCharacters(in: .whitespaces)
        var with = text("X-PHR-WITH")
        var reason = text("X-PHR-REASON")
        if with == nil {
            if let organizer, !organizer.isEmpty {
                with = organizer
                reason = summary.flatMap { $0.isEmpty || $0 == organizer ? nil : $0 }
            } else {
                with = summary
            }
        }
        let cancelled = method == "CANCEL" || event.first("STATUS")?.value.uppercased() == "CANCELLED"
        let status: Appointment.Status = cancelled ? .cancelled
            : event.first("STATUS")?.value.uppercased() == "TENTATIVE" ? .tentative : .confirmed
        var remind: Int?
        if let alarm = event.components.first(where: { $0.name == "VALARM" }), let trigger = alarm.first("TRIGGER"),
           trigger.parameters["VALUE"] == nil, trigger.parameters["RELATED"]?.uppercased() != "END" {
            if let seconds = ICalendarText.parseDuration(trigger.value) {
                if seconds > 0 {
                    // An alarm after the start is no reminder of it.
                } else if -seconds / 60 <= RecordValidation.maximumRemindMinutes {
                    remind = -seconds / 60
                } else {
                    report.notes.append("\(location): its alarm, more than four weeks before the start, was not kept as a reminder")
                }
            } else {
                report.notes.append("\(location): its alarm TRIGGER '\(trigger.value.prefix(40))' is not a duration phr can read; no reminder was kept")
            }
        }
        var sequence = 0
        if let property = event.first("SEQUENCE") {
            let value = property.value.trimmingCharacters(in: .whitespaces)
            guard let number = Int(value), (0...RecordValidation.maximumSequence).contains(number) else {
                throw FHIRFieldError(field: "SEQUENCE", reason: "'\(value.prefix(20))' is not a whole number from 0 to \(RecordValidation.maximumSequence)")
            }
            sequence = number
        }
        let now = Timestamp.string(time.now)
        let start = allDay ? LocalDateTime(date: CalendarDate(startInstant, in: zone), time: LocalTime(hour: 0, minute: 0)!)
            : LocalDateTime(startInstant, in: zone)
        var appointment = Appointment(
            id: "", uid: uid, with: with ?? "Appointment", start: start,
            timeZone: zone.identifier, durationMinutes: minutes, allDay: allDay, location: text("LOCATION"), reason: reason,
            notes: text("DESCRIPTION"), documentID: nil, status: status, remindMinutes: remind, sequence: sequence, source: nil,
            createdAt: now, updatedAt: now)
        do {
            try RecordValidation.check(&appointment)
        } catch RecordError.invalidField(let field, let reason) {
            let property = ["with": "SUMMARY", "location": "LOCATION", "reason": "SUMMARY", "notes": "DESCRIPTION",
                            "start": "DTSTART", "duration_minutes": "DTEND"][field.name] ?? field.name
            throw FHIRFieldError(field: property, reason: reason.description)
        }

        if let existingID = try RecordRows.existing(db, table: AppointmentStore.table, profileID: profileID, uid: uid, sourceKey: nil) {
            let existing = try Appointment.find(db, key: existingID)
            guard appointment.sequence > existing.sequence || (cancelled && existing.status != .cancelled) else {
                report.count(.unchanged, "appointments")
                return
            }
            if cancelled {
                // A cancellation carries little else; keep what the vault knows.
                appointment = existing
                appointment.status = .cancelled
                appointment.sequence = max(existing.sequence, sequence)
            } else {
                appointment.id = existing.id
                appointment.documentID = existing.documentID
                appointment.createdAt = existing.createdAt
            }
            appointment.updatedAt = now
            try AppointmentStore.update(db, appointment, profileID: profileID)
            report.count(.updated, "appointments")
            return
        }
        if cancelled && method == "CANCEL" {
            report.skip(location, type: "VEVENT", "cancels an appointment that is not in the vault")
            return
        }
        appointment.id = try RecordID.generate(db, table: AppointmentStore.table)
        try AppointmentStore.insert(db, appointment, profileID: profileID)
        report.count(.added, "appointments")
    }

    /// The instant of a DATE or DATE-TIME property, whether it is a whole day, and the zone to
    /// keep the appointment in.
    private func moment(_ property: ICalendarParser.Property, zones: ICalendarTimeZones.Definitions,
                        field: String) throws -> (Date, allDay: Bool, zone: TimeZone) {
        let value = property.value.trimmingCharacters(in: .whitespaces)
        if property.parameters["VALUE"]?.uppercased() == "DATE" || (value.count == 8 && value.allSatisfy(\.isNumber)) {
            guard let day = Self.date(value) else {
                throw FHIRFieldError(field: field, reason: CalendarDate.dateReason(String(value.prefix(40)), otherwise: "'\(value.prefix(40))' is not a date (YYYYMMDD)"))
            }
            let local = LocalDateTime(date: day, time: LocalTime(hour: 0, minute: 0)!)
            return (local.instant(in: time.zone), true, time.zone)
        }
        guard let local = Self.localDateTime(value) else {
            throw FHIRFieldError(field: field, reason: CalendarDate.dateReason(String(value.prefix(40)), otherwise: "'\(value.prefix(40))' is not a date and time (YYYYMMDDTHHMMSS)"))
        }
        if value.uppercased().hasSuffix("Z") {
            return (local.instant(in: TimeZone(identifier: "UTC")!), false, time.zone)
        }
        if let tzid = property.parameters["TZID"] {
            if let zone = Self.ianaZone(tzid) { return (local.instant(in: zone), false, zone) }
            if let offset = zones.offset(zone: tzid, at: local) {
                return (local.instant(in: TimeZone(identifier: "UTC")!).addingTimeInterval(TimeInterval(-offset)), false, time.zone)
            }
            if let problem = zones.invalid[tzid] { throw FHIRFieldError(field: "\(field);TZID", reason: "'\(tzid.prefix(80))': \(problem)") }
            throw FHIRFieldError(field: "\(field);TZID", reason: "'\(tzid.prefix(80))' is neither a known time zone nor defined in the file")
        }
        return (local.instant(in: time.zone), false, time.zone)
    }

    /// An IANA zone named by a TZID, also in the "/mozilla.org/20050126_1/Europe/Berlin" style.
    static func ianaZone(_ tzid: String) -> TimeZone? {
        let trimmed = tzid.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        if trimmed.contains("/"), let zone = TimeZone(identifier: trimmed) { return zone }
        if ["UTC", "GMT"].contains(trimmed) { return TimeZone(identifier: "UTC") }
        let parts = trimmed.split(separator: "/")
        if parts.count > 2, let zone = TimeZone(identifier: parts.suffix(2).joined(separator: "/")) { return zone }
        return nil
    }

    /// A DATE in `CalendarDate.supportedYears`; with `anyYear`, any real day of years 1 to 9999,
    /// for the onsets of VTIMEZONE rules, which Outlook anchors in 1601.
    static func date(_ text: String, anyYear: Bool = false) -> CalendarDate? {
        guard text.count == 8, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let (year, month, day) = (Int(text.prefix(4))!, Int(text.dropFirst(4).prefix(2))!, Int(text.suffix(2))!)
        guard anyYear else { return CalendarDate(year: year, month: month, day: day) }
        guard year >= 1, (1...12).contains(month), (1...CalendarDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        return CalendarDate(computedYear: year, month: month, day: day)
    }

    /// "20261203T093000" (or with Z) to minute precision.
    static func localDateTime(_ text: String, anyYear: Bool = false) -> LocalDateTime? {
        var value = text.trimmingCharacters(in: .whitespaces).uppercased()
        if value.hasSuffix("Z") { value.removeLast() }
        let parts = value.split(separator: "T")
        guard parts.count == 2, let day = date(String(parts[0]), anyYear: anyYear), parts[1].count == 6,
              parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
              let time = LocalTime(hour: Int(parts[1].prefix(2))!, minute: Int(parts[1].dropFirst(2).prefix(2))!) else { return nil }
        if Int(parts[1].suffix(2))! > 60 { return nil }
        return LocalDateTime(date: day, time: time)
    }
}
