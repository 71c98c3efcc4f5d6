import Foundation
import Testing
@testable import PHRCore

/// .ics export (RFC 5545) read back by Python's icalendar, and import of a clinic's invitation.
@Suite struct ICalendarTests {
    typealias F = RecordFixtures
    static let invitation = "\(TestSupport.packageRoot)/Samples/records/clinic-invitation.ics"

    static func appointment(_ with: String, _ start: String, zone: String, minutes: Int = 30, allDay: Bool = false,
                            location: String? = nil, reason: String? = nil, notes: String? = nil, status: Appointment.Status = .confirmed,
                            remind: Int? = nil, uid: String) -> Appointment {
        Appointment(id: "ap\(uid.prefix(4))", uid: uid, with: with, start: LocalDateTime(start)!, timeZone: zone, durationMinutes: minutes,
                    allDay: allDay, location: location, reason: reason, notes: notes, documentID: nil, status: status,
                    remindMinutes: remind, sequence: 0, source: nil, createdAt: "2026-11-01T09:00:00Z", updatedAt: "2026-11-02T10:30:00Z")
    }

    @Test func anEventIsWrittenExactlyEscapedAndFolded() {
        let event = Self.appointment("Dr. Lee", "2026-12-03T09:30", zone: "Europe/Berlin",
                                     location: "Praxis Lee; Hauptstraße 1, 10115 Berlin, Hinterhaus, 2. Stock links, bitte klingeln",
                                     reason: "check-up", notes: "Bring: card\\list\nFasting", remind: 60, uid: "a1b2c3d4-0000-4000-8000-000000000001")
        let text = ICalendarExport.event(event, defaultAlarmMinutes: [])
        #expect(text == [
            "BEGIN:VEVENT",
            "UID:a1b2c3d4-0000-4000-8000-000000000001",
            "DTSTAMP:20261102T103000Z",
            "CREATED:20261101T090000Z",
            "LAST-MODIFIED:20261102T103000Z",
            "SEQUENCE:0",
            "DTSTART;TZID=Europe/Berlin:20261203T093000",
            "DTEND;TZID=Europe/Berlin:20261203T100000",
            "SUMMARY:Dr. Lee: check-up",
            "LOCATION:Praxis Lee\\; Hauptstraße 1\\, 10115 Berlin\\, Hinterhaus\\, 2. Stock",
            "  links\\, bitte klingeln",
            "DESCRIPTION:Bring: card\\\\list\\nFasting",
            "STATUS:CONFIRMED",
            "TRANSP:OPAQUE",
            "X-PHR-WITH:Dr. Lee",
            "X-PHR-REASON:check-up",
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "DESCRIPTION:Dr. Lee: check-up",
            "TRIGGER:-PT1H",
            "END:VALARM",
            "END:VEVENT",
        ].map { $0 + "\r\n" }.joined())
        // Every physical line is at most 75 octets; "ß" (2 octets) is never split.
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75) }
        #expect(ICalendarText.fold(String(repeating: "é", count: 50)) == String(repeating: "é", count: 37) + "\r\n " + String(repeating: "é", count: 13) + "\r\n")
    }

    @Test func theTimeZoneIsDescribedForTheYearsOfTheEvents() {
        let component = ICalendarTimeZones.component(for: TimeZone(identifier: "America/New_York")!, years: 2026...2026)
        #expect(component.contains("TZID:America/New_York\r\n"))
        #expect(component.contains("BEGIN:STANDARD\r\nDTSTART:20261101T020000\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\n"))
        #expect(component.contains("BEGIN:DAYLIGHT\r\nDTSTART:20260308T020000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\n"))
        let tokyo = ICalendarTimeZones.component(for: TimeZone(identifier: "Asia/Tokyo")!, years: 2026...2026)
        #expect(tokyo.contains("BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0900\r\nTZOFFSETTO:+0900\r\n"))
    }

    @Test func pythonIcalendarReadsBackTheSameEvents() throws {
        let directory = try TestSupport.temporaryDirectory("ics")
        defer { TestSupport.remove(directory) }
        let appointments = [
            Self.appointment("Dr. Lee", "2026-12-03T09:30", zone: "Europe/Berlin", location: "Room 2, floor 1; east", reason: "check-up",
                             notes: "line one\nline two", remind: 90, uid: "uid-berlin@phr"),
            // The night New York falls back: 01:30 is its first occurrence (EDT).
            Self.appointment("Night clinic", "2026-11-01T01:30", zone: "America/New_York", minutes: 60, uid: "uid-ny@phr"),
            // The day Berlin springs forward.
            Self.appointment("Dr. Früh", "2026-03-29T08:00", zone: "Europe/Berlin", minutes: 45, status: .tentative, uid: "uid-dst@phr"),
            Self.appointment("Video call", "2026-06-01T15:00", zone: "UTC", uid: "uid-utc@phr"),
            Self.appointment("Vaccination day", "2026-05-01T00:00", zone: "Europe/Berlin", minutes: 1440, allDay: true, uid: "uid-day@phr"),
            Self.appointment("Dr. Gone", "2026-07-01T10:00", zone: "Asia/Tokyo", status: .cancelled, remind: 30, uid: "uid-cancelled@phr"),
        ]
        let path = "\(directory)/phr.ics"
        try ICalendarExport.write(ICalendarExport.document(appointments, generator: "phr test", defaultAlarmMinutes: [15]), to: path, force: false)
        let result = try Python.run("""
            import icalendar, json, sys, datetime
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            events = []
            for event in calendar.walk("VEVENT"):
                def when(name):
                    value = event[name].dt
                    if isinstance(value, datetime.datetime):
                        return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
                    return value.isoformat()
                events.append({
                    "uid": str(event["UID"]), "summary": str(event["SUMMARY"]), "start": when("DTSTART"), "end": when("DTEND"),
                    "location": str(event.get("LOCATION", "")), "description": str(event.get("DESCRIPTION", "")),
                    "status": str(event["STATUS"]), "sequence": int(event["SEQUENCE"]),
                    "alarms": [int(alarm["TRIGGER"].dt.total_seconds()) for alarm in event.walk("VALARM")],
                })
            print(json.dumps(events, sort_keys=True))
            """, arguments: [path])
        #expect(result.status == 0, "\(result.stderr)")
        struct Event: Decodable, Equatable {
            let uid, summary, start, end, location, description, status: String
            let sequence: Int
            let alarms: [Int]
        }
        let events = try JSONDecoder().decode([Event].self, from: Data(result.stdout.utf8))
        #expect(events == [
            Event(uid: "uid-berlin@phr", summary: "Dr. Lee: check-up", start: "2026-12-03T08:30:00Z", end: "2026-12-03T09:00:00Z",
                  location: "Room 2, floor 1; east", description: "line one\nline two", status: "CONFIRMED", sequence: 0, alarms: [-5400]),
            Event(uid: "uid-ny@phr", summary: "Night clinic", start: "2026-11-01T05:30:00Z", end: "2026-11-01T06:30:00Z",
                  location: "", description: "", status: "CONFIRMED", sequence: 0, alarms: [-900]),
            Event(uid: "uid-dst@phr", summary: "Dr. Früh", start: "2026-03-29T06:00:00Z", end: "2026-03-29T06:45:00Z",
                  location: "", description: "", status: "TENTATIVE", sequence: 0, alarms: [-900]),
            Event(uid: "uid-utc@phr", summary: "Video call", start: "2026-06-01T15:00:00Z", end: "2026-06-01T15:30:00Z",
                  location: "", description: "", status: "CONFIRMED", sequence: 0, alarms: [-900]),
            Event(uid: "uid-day@phr", summary: "Vaccination day", start: "2026-05-01", end: "2026-05-02",
                  location: "", description: "", status: "CONFIRMED", sequence: 0, alarms: [-900]),
            Event(uid: "uid-cancelled@phr", summary: "Dr. Gone", start: "2026-07-01T01:00:00Z", end: "2026-07-01T01:30:00Z",
                  location: "", description: "", status: "CANCELLED", sequence: 0, alarms: []),
        ])
        // The same data gives the same file.
        #expect(ICalendarExport.document(appointments, generator: "phr test", defaultAlarmMinutes: [15])
            == String(decoding: FileManager.default.contents(atPath: path)!, as: UTF8.self))
    }

    @Test func aClinicInvitationIsImportedOnceAndUpdatedWhenRescheduled() throws {
        let (vault, profile, directory) = try F.vault("ics")
        defer { TestSupport.remove(directory) }
        // The user is in New York: the Berlin appointment is kept at its instant, in the user's zone.
        let time = F.time("2026-11-21T12:00:00Z", "America/New_York")
        let report = try RecordImport.runICalendar(path: Self.invitation, vault: vault, profile: profile, time: time)
        #expect(report.added == ["appointments": 1])
        let store = AppointmentStore(vault: vault, profile: profile, time: time)
        let imported = try #require(try store.list().first)
        #expect(imported.with == "Praxis Dr. Anna Beispiel (SAMPLE)")
        #expect(imported.reason == "Hautkrebs-Screening")
        #expect(imported.location == "Praxis Dr. Beispiel, Musterstraße 12, 10115 Berlin")
        #expect(imported.notes == "Bitte bringen Sie Ihre Versichertenkarte, Ihren Impfpass und eine Liste Ihrer Medikamente mit.\nAbsagen bitte bis 24 Stunden vorher: 030 1234567.")
        #expect(imported.startInstant == F.instant("2026-12-03T08:30:00Z"), "W. Europe Standard Time in December is UTC+1, from the file's VTIMEZONE")
        #expect(imported.timeZone == "America/New_York" && imported.start.description == "2026-12-03T03:30")
        #expect(imported.durationMinutes == 30 && imported.remindMinutes == 60 && imported.status == .confirmed)
        #expect(imported.uid.hasPrefix("040000008200E00074C5B7101A82E008"))

        let again = try RecordImport.runICalendar(path: Self.invitation, vault: vault, profile: profile, time: time)
        #expect(again.added.isEmpty && again.updated.isEmpty && again.unchanged == ["appointments": 1])

        let original = try String(contentsOfFile: Self.invitation, encoding: .utf8)
        let rescheduled = original.replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:1")
            .replacingOccurrences(of: "20261203T093000", with: "20261204T110000").replacingOccurrences(of: "20261203T100000", with: "20261204T114500")
        try rescheduled.write(toFile: "\(directory)/rescheduled.ics", atomically: true, encoding: .utf8)
        #expect(try RecordImport.runICalendar(path: "\(directory)/rescheduled.ics", vault: vault, profile: profile, time: time).updated == ["appointments": 1])
        let moved = try store.get(imported.id)
        #expect(moved.startInstant == F.instant("2026-12-04T10:00:00Z") && moved.durationMinutes == 45 && moved.sequence == 1)

        let cancellation = rescheduled.replacingOccurrences(of: "METHOD:REQUEST", with: "METHOD:CANCEL")
            .replacingOccurrences(of: "STATUS:CONFIRMED", with: "STATUS:CANCELLED").replacingOccurrences(of: "SEQUENCE:1", with: "SEQUENCE:2")
        try cancellation.write(toFile: "\(directory)/cancel.ics", atomically: true, encoding: .utf8)
        #expect(try RecordImport.runICalendar(path: "\(directory)/cancel.ics", vault: vault, profile: profile, time: time).updated == ["appointments": 1])
        #expect(try store.get(imported.id).status == .cancelled)
        #expect(try store.list().count == 1)
    }

    @Test func phrsOwnExportImportsBackFieldForField() throws {
        let (vault, profile, directory) = try F.vault("ics")
        defer { TestSupport.remove(directory) }
        let time = F.time("2026-11-21T12:00:00Z", "Europe/Berlin")
        let other = try vault.database.write { try Profiles.create($0, name: "copy", relation: .other) }
        var input = AppointmentStore.Input()
        input.with = "Dr. Lee, MD"
        input.at = "2026-12-03 09:30"
        input.reason = "follow-up: blood test"
        input.location = "Room 2"
        input.notes = "fasting; bring results"
        input.remind = "1d"
        input.duration = "1h15m"
        let original = try AppointmentStore(vault: vault, profile: profile, time: time).add(input)
        let path = "\(directory)/mine.ics"
        try ICalendarExport.write(ICalendarExport.document([original], generator: "phr test"), to: path, force: false)
        #expect(throws: InteropError.exists(path: path)) { try ICalendarExport.write("", to: path, force: false) }
        _ = try RecordImport.runICalendar(path: path, vault: vault, profile: other, time: time)
        let copy = try #require(try AppointmentStore(vault: vault, profile: other, time: time).list().first)
        #expect(copy.uid == original.uid)
        #expect(copy.with == original.with && copy.reason == original.reason && copy.location == original.location)
        #expect(copy.notes == original.notes && copy.remindMinutes == 1440 && copy.durationMinutes == 75)
        #expect(copy.start == original.start && copy.timeZone == original.timeZone)
    }

    @Test func malformedAndRepeatingEvents() throws {
        let (vault, profile, directory) = try F.vault("ics")
        defer { TestSupport.remove(directory) }
        let time = F.time("2026-11-21T12:00:00Z", "Europe/Berlin")
        let broken = "\(directory)/broken.ics"
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261203T0930\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let refused = try RecordImport.runICalendar(path: broken, vault: vault, profile: profile, time: time)
        #expect(refused.skipped == [ImportReport.Skip(entry: "event 1 (line 3)", type: "VEVENT",
                                                      reason: "DTSTART: '20261203T0930' is not a date and time (YYYYMMDDTHHMMSS)", rejected: true)])
        #expect(refused.rejectedCount == 1 && refused.added.isEmpty)
        let unclosed = "\(directory)/unclosed.ics"
        try "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n".write(toFile: unclosed, atomically: true, encoding: .utf8)
        #expect(throws: InteropError.malformed(path: unclosed, location: "line 2", reason: "BEGIN:VEVENT is never closed")) {
            try RecordImport.runICalendar(path: unclosed, vault: vault, profile: profile, time: time)
        }
        let weekly = "\(directory)/weekly.ics"
        try """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:physio@clinic\r
            DTSTART:20261203T093000Z\r
            RRULE:FREQ=WEEKLY;COUNT=6\r
            SUMMARY:Physio\r
            END:VEVENT\r
            BEGIN:VTODO\r
            UID:todo\r
            END:VTODO\r
            END:VCALENDAR\r

            """.write(toFile: weekly, atomically: true, encoding: .utf8)
        let report = try RecordImport.runICalendar(path: weekly, vault: vault, profile: profile, time: time)
        #expect(report.added.isEmpty)
        #expect(report.skipped.map(\.reason) == ["repeats (RRULE); phr keeps single visits, add them one by one", "not an event"])
    }
}
