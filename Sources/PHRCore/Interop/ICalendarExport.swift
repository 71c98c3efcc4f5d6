import Foundation

/// Appointments as an iCalendar file (RFC 5545) that calendar apps import.
///
/// - UID: the appointment's uid, the same in every export, so re-importing updates rather than
///   duplicates; SEQUENCE rises with each change of time, place or status.
/// - DTSTAMP and LAST-MODIFIED: when the appointment last changed (the file has no METHOD, so
///   DTSTAMP is the revision time, 3.8.7.2); the same data gives the same file.
/// - DTSTART/DTEND with TZID and a VTIMEZONE for each zone, or in UTC ("Z") for UTC
///   appointments and for times in the repeated hour when clocks fall back; whole-day
///   appointments as DATE values.
/// - SUMMARY "with: reason"; X-PHR-WITH and X-PHR-REASON keep the two fields for phr's own import.
/// - VALARM (DISPLAY): the appointment's own reminder when it has one, else one per lead time in
///   `defaultAlarmMinutes` (what `phr appt export` takes from `--alarm` or the appointment
///   reminder rules), so a phone's calendar reminds as `phr remind` would.
public enum ICalendarExport {
    public static func document(_ appointments: [Appointment], generator: String, calendarName: String? = nil,
                                defaultAlarmMinutes: [Int] = []) -> String {
        var out = ICalendarText.line("BEGIN", "VCALENDAR")
        out += ICalendarText.line("VERSION", "2.0")
        out += ICalendarText.line("PRODID", "-//phr//\(ICalendarText.escape(generator))//EN")
        out += ICalendarText.line("CALSCALE", "GREGORIAN")
        if let calendarName { out += ICalendarText.line("X-WR-CALNAME", ICalendarText.escape(calendarName)) }
        var zones: [String: ClosedRange<Int>] = [:]
        for appointment in appointments where !appointment.allDay && !ICalendarTimeZones.isUTC(appointment.zone) {
            let year = appointment.start.date.year
            let range = zones[appointment.timeZone].map { min($0.lowerBound, year)...max($0.upperBound, year) } ?? year...year
            zones[appointment.timeZone] = range
        }
        for id in zones.keys.sorted() {
            out += ICalendarTimeZones.component(for: TimeZone(identifier: id)!, years: zones[id]!)
        }
        for appointment in appointments {
            out += event(appointment, defaultAlarmMinutes: defaultAlarmMinutes)
        }
        out += ICalendarText.line("END", "VCALENDAR")
        return out
    }

    static func event(_ appointment: Appointment, defaultAlarmMinutes: [Int]) -> String {
        let stamp = ICalendarText.utc(Timestamp.parse(appointment.updatedAt) ?? Date(timeIntervalSince1970: 0))
        var out = ICalendarText.line("BEGIN", "VEVENT")
        out += ICalendarText.line("UID", appointment.uid)
        out += ICalendarText.line("DTSTAMP", stamp)
        if let created = Timestamp.parse(appointment.createdAt) { out += ICalendarText.line("CREATED", ICalendarText.utc(created)) }
        out += ICalendarText.line("LAST-MODIFIED", stamp)
        out += ICalendarText.line("SEQUENCE", String(appointment.sequence))
        if appointment.allDay {
            let days = max(1, (appointment.durationMinutes + 1439) / 1440)
            out += ICalendarText.line("DTSTART", [("VALUE", "DATE")], ICalendarText.date(appointment.start.date))
            out += ICalendarText.line("DTEND", [("VALUE", "DATE")], ICalendarText.date(appointment.start.date.adding(days: days)))
        } else if ICalendarTimeZones.isUTC(appointment.zone) || isAmbiguous(appointment.startInstant, appointment.zone)
                    || isAmbiguous(appointment.endInstant, appointment.zone) {
            // A wall-clock time that happens twice (the hour clocks fall back) is written in UTC:
            // readers disagree on which occurrence a TZID time means, none on a UTC one.
            out += ICalendarText.line("DTSTART", ICalendarText.utc(appointment.startInstant))
            out += ICalendarText.line("DTEND", ICalendarText.utc(appointment.endInstant))
        } else {
            let tzid = [("TZID", appointment.timeZone)]
            out += ICalendarText.line("DTSTART", tzid, ICalendarText.dateTime(appointment.start))
            out += ICalendarText.line("DTEND", tzid, ICalendarText.dateTime(LocalDateTime(appointment.endInstant, in: appointment.zone)))
        }
        out += ICalendarText.line("SUMMARY", ICalendarText.escape(appointment.summary))
        if let location = appointment.location { out += ICalendarText.line("LOCATION", ICalendarText.escape(location)) }
        if let notes = appointment.notes { out += ICalendarText.line("DESCRIPTION", ICalendarText.escape(notes)) }
        out += ICalendarText.line("STATUS", appointment.status.rawValue.uppercased())
        out += ICalendarText.line("TRANSP", "OPAQUE")
        out += ICalendarText.line("X-PHR-WITH", ICalendarText.escape(appointment.with))
        if let reason = appointment.reason { out += ICalendarText.line("X-PHR-REASON", ICalendarText.escape(reason)) }
        let alarms = appointment.status == .cancelled ? [] : appointment.remindMinutes.map { [$0] } ?? Array(Set(defaultAlarmMinutes)).sorted(by: >)
        for minutes in alarms {
            out += ICalendarText.line("BEGIN", "VALARM")
            out += ICalendarText.line("ACTION", "DISPLAY")
            out += ICalendarText.line("DESCRIPTION", ICalendarText.escape(appointment.summary))
            out += ICalendarText.line("TRIGGER", ICalendarText.duration(minutes: -minutes))
            out += ICalendarText.line("END", "VALARM")
        }
        out += ICalendarText.line("END", "VEVENT")
        return out
    }

    static func isAmbiguous(_ instant: Date, _ zone: TimeZone) -> Bool {
        let wall = LocalDateTime(instant, in: zone)
        return LocalDateTime(instant.addingTimeInterval(-3600), in: zone) == wall || LocalDateTime(instant.addingTimeInterval(3600), in: zone) == wall
    }

    /// Writes the file (mode 0600), refusing to replace one unless `force`.
    public static func write(_ text: String, to path: String, force: Bool) throws {
        if FileSystem.exists(path) && !force { throw InteropError.exists(path: path) }
        try OutputFile.write(Array(text.utf8), to: path, replace: force, exists: { InteropError.exists(path: $0) })
    }
}
