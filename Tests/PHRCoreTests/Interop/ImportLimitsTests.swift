import Foundation
import Testing
@testable import PHRCore

/// What every way in (typed, FHIR, iCalendar, phr JSON) does with extreme and absurd input:
/// dates outside 1900-2200, numbers that overflow, nesting that would exhaust the stack, fields
/// over the limits typed input has, empty optional fields and CR line endings. A bad entry is
/// refused with its reason and the rest is imported; nothing traps.
@Suite struct ImportLimitsTests {
    typealias F = RecordFixtures
    static let time = F.time("2026-11-21T12:00:00Z", "Europe/Berlin")

    static func write(_ text: String, _ directory: String, _ name: String) throws -> String {
        let path = "\(directory)/\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func ics(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body.replacingOccurrences(of: "\n", with: "\r\n") + "END:VCALENDAR\r\n"
    }

    static func bundle(_ entries: [String]) -> String {
        "{\"resourceType\": \"Bundle\", \"type\": \"collection\", \"entry\": [" + entries.map { "{\"resource\": \($0)}" }.joined(separator: ",") + "]}"
    }

    static func rejected(_ report: ImportReport) -> [String: String] {
        Dictionary(report.skipped.filter(\.rejected).map { ($0.entry, $0.reason.description) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: Dates

    @Test func everyDateParserRefusesYearsOutside1900To2200() throws {
        for day in ["9999-12-31", "0001-01-01", "1899-12-31", "2201-01-01"] {
            #expect(CalendarDate(day) == nil && PartialDate(day) == nil && PartialDate(String(day.prefix(4))) == nil, "\(day)")
            #expect(LocalDateTime("\(day) 23:59") == nil)
            #expect(Timestamp.parse("\(day)T23:59:00Z") == nil)
            let fractional = FHIRElements.DateTime(text: "\(day)T23:00:00.125-05:00", date: PartialDate("2000")!, hasTime: true)
            #expect(FHIRElements.instant(fractional) == nil, "instants read by Foundation are bounded too")
            let year = day.prefix(4)
            #expect(throws: RecordError.invalidField(field: Field("date"), reason: "'\(day)': year \(year) is outside the years phr accepts (1900 to 2200)")) {
                try RecordFields.date(day, field: Field("date"))
            }
        }
        #expect(CalendarDate("1900-01-01") != nil && CalendarDate("2200-12-31") != nil && PartialDate("2200") != nil)
        #expect(Timestamp.parse("2200-12-31T23:59:59-14:00") != nil, "the last accepted day, in any zone")
        #expect(FHIRElements.instant(FHIRElements.DateTime(text: "2200-12-31T23:00:00.125-05:00", date: PartialDate("2000")!, hasTime: true)) != nil)

        // Arithmetic on and beyond the edges gives an answer, never a trap.
        #expect(CalendarDate("2200-12-31")!.plus(1).description == "2201-01-01")
        #expect(CalendarDate(dayNumber: 3_000_000).year > 9999)
        #expect(Timestamp.string(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00Z")
        let beyond = Date(timeIntervalSince1970: 253_402_300_799 + 2 * 86400)
        #expect(LocalDateTime(beyond, in: TimeZone(identifier: "America/New_York")!).date.year == 10000)
    }

    /// A lab result or vaccination dated after today (anywhere on Earth) is refused with its
    /// reason, from every importer; the rest is kept, and the trend's latest value stays the
    /// newest real one (issue 37, item 16). Tomorrow in UTC+14 is still today somewhere.
    @Test func futureResultsAndVaccinationsAreRefusedFromEveryImporter() throws {
        let (vault, profile, directory) = try F.vault("limits-future")
        defer { TestSupport.remove(directory) }
        let ferritin = #"{"coding": [{"system": "http://loinc.org", "code": "2276-4"}], "text": "Ferritin"}"#
        let fhir = try Self.write(Self.bundle([
            #"{"resourceType": "Observation", "id": "o1", "status": "final", "code": \#(ferritin), "effectiveDateTime": "2026-11-20", "valueQuantity": {"value": 41, "unit": "ng/mL"}}"#,
            #"{"resourceType": "Observation", "id": "o2", "status": "final", "code": \#(ferritin), "effectiveDateTime": "2150-01-01T08:00:00Z", "valueQuantity": {"value": 999, "unit": "ng/mL"}}"#,
            #"{"resourceType": "Observation", "id": "o3", "status": "final", "code": \#(ferritin), "effectiveDateTime": "2026-11-22", "valueQuantity": {"value": 43, "unit": "ng/mL"}}"#,
            #"{"resourceType": "Immunization", "id": "i1", "status": "completed", "vaccineCode": {"text": "Tetanus"}, "occurrenceDateTime": "2031-05"}"#,
            #"{"resourceType": "Immunization", "id": "i2", "status": "completed", "vaccineCode": {"text": "Influenza"}, "occurrenceDateTime": "2026-10-01"}"#,
        ]), directory, "future.json")
        let report = try RecordImport.run(path: fhir, vault: vault, profileName: nil, time: Self.time)
        #expect(Self.rejected(report) == [
            "entry[1]": "effective: dated 2150-01-01T08:00:00Z, in the future",
            "entry[3]": "date: dated 2031-05, in the future",
        ])
        #expect(report.added == ["observations": 2, "immunizations": 1])
        let kept = try ObservationStore(vault: vault, profile: profile).list()
        #expect(Set(kept.compactMap(\.valueNumber)) == [41, 43], "the 2150 value is not the latest ferritin")

        // phr's own JSON with a result moved into the future is refused the same way.
        let exported = "\(directory)/export.json"
        try VaultExport.write(try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "test"), to: exported, force: false)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exported))) as? [String: Any])
        var observations = json["observations"] as! [[String: Any]]
        observations[0]["effective"] = "2199-12-31"
        json["observations"] = observations
        let edited = "\(directory)/edited.json"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: edited))
        let (fresh, _, freshDirectory) = try F.vault("limits-future-fresh")
        defer { TestSupport.remove(freshDirectory) }
        let fromJSON = try RecordImport.run(path: edited, vault: fresh, profileName: nil, time: Self.time)
        #expect(Self.rejected(fromJSON) == ["observations[0]": "effective: dated 2199-12-31, in the future"])
        #expect(fromJSON.added["observations"] == 1)
    }

    @Test func extremeDatesInEachImporterAreRefusedAndTheRestIsImported() throws {
        let (vault, profile, directory) = try F.vault("limits-dates")
        defer { TestSupport.remove(directory) }

        // iCalendar: a zone of its own at -05:00, events at the end of 9999, in year 1, and on
        // the last accepted day (kept).
        let calendar = try Self.write(Self.ics("""
            BEGIN:VTIMEZONE
            TZID:Far West
            BEGIN:STANDARD
            DTSTART:16010101T000000
            TZOFFSETFROM:-0500
            TZOFFSETTO:-0500
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:end-of-time
            DTSTART;TZID=Far West:99991231T230000
            SUMMARY:Never
            END:VEVENT
            BEGIN:VEVENT
            UID:year-one
            DTSTART;VALUE=DATE:00010101
            SUMMARY:Never either
            END:VEVENT
            BEGIN:VEVENT
            UID:last-day
            DTSTART;TZID=Far West:22001231T100000
            DURATION:PT30M
            SUMMARY:Dr. Last
            END:VEVENT

            """), directory, "dates.ics")
        let fromICS = try RecordImport.runICalendar(path: calendar, vault: vault, profile: profile, time: Self.time)
        #expect(Self.rejected(fromICS) == [
            "event 1 (line 12)": "DTSTART: '99991231T230000': year 9999 is outside the years phr accepts (1900 to 2200)",
            "event 2 (line 17)": "DTSTART: '00010101': year 0001 is outside the years phr accepts (1900 to 2200)",
        ])
        #expect(fromICS.added == ["appointments": 1])
        let last = try #require(try AppointmentStore(vault: vault, profile: profile, time: Self.time).list().first)
        #expect(last.startInstant == F.instant("2200-12-31T15:00:00Z"))
        // Exporting it (a VTIMEZONE reaching into 2201) works.
        #expect(ICalendarExport.document([last], generator: "test").contains("DTSTART;TZID=Europe/Berlin:22001231T160000"))

        // FHIR: an appointment at the end of 9999 in a negative offset (refused: a start is what an
        // appointment is), an onset in year 1 (left out: the condition is kept without it).
        let fhir = try Self.write(Self.bundle([
            #"{"resourceType": "Appointment", "id": "a1", "status": "booked", "start": "9999-12-31T23:00:00-05:00"}"#,
            #"{"resourceType": "Condition", "id": "c1", "code": {"text": "Old"}, "onsetDateTime": "0001-01-01"}"#,
            #"{"resourceType": "Condition", "id": "c2", "code": {"text": "Asthma"}, "onsetDateTime": "2015-03"}"#,
            #"{"resourceType": "Appointment", "id": "a2", "status": "booked", "start": "2200-12-31T23:00:00+14:00"}"#,
        ]), directory, "dates.json")
        let fromFHIR = try RecordImport.run(path: fhir, vault: vault, profileName: nil, time: Self.time)
        #expect(Self.rejected(fromFHIR) == [
            "entry[0]": "start: '9999-12-31T23:00:00-05:00': year 9999 is outside the years phr accepts (1900 to 2200)",
        ])
        #expect(fromFHIR.repaired.map { "\($0.entry): \($0.reason.description)" } == [
            "entry[1]: onsetDateTime: '0001-01-01': year 0001 is outside the years phr accepts (1900 to 2200); left out",
        ])
        #expect(fromFHIR.added == ["conditions": 2, "appointments": 1])

        // phr JSON: phr's own export with dates edited out of range.
        let exported = "\(directory)/export.json"
        try VaultExport.write(try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "test"), to: exported, force: false)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exported))) as? [String: Any])
        var appointments = json["appointments"] as! [[String: Any]]
        appointments[0]["start"] = "9999-12-31T23:59"
        json["appointments"] = appointments
        var conditions = json["conditions"] as! [[String: Any]]
        conditions[0]["since"] = "0001"
        conditions[0]["created_at"] = "0001-01-01T00:00:00Z"
        json["conditions"] = conditions
        let edited = "\(directory)/edited.json"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: edited))
        let (fresh, _, freshDirectory) = try F.vault("limits-dates-fresh")
        defer { TestSupport.remove(freshDirectory) }
        let fromJSON = try RecordImport.run(path: edited, vault: fresh, profileName: nil, time: Self.time)
        #expect(Self.rejected(fromJSON) == [
            "appointments[0]": "start: '9999-12-31T23:59': year 9999 is outside the years phr accepts (1900 to 2200)",
            "conditions[0]": "since: '0001': year 0001 is outside the years phr accepts (1900 to 2200)",
        ])
        #expect(fromJSON.added["appointments"] == appointments.count - 1)

        // Typed: the same words, naming the option.
        var input = AppointmentStore.Input()
        input.with = "Dr. Late"
        input.at = "9999-12-31 23:30"
        #expect(throws: RecordError.invalidField(field: Field("at"), reason: "'9999-12-31 23:30': year 9999 is outside the years phr accepts (1900 to 2200)")) {
            try AppointmentStore(vault: vault, profile: profile, time: Self.time).add(input)
        }
        #expect(throws: RecordError.invalidOption(option: Field("at"), reason: "'9999-12-31 23:59': year 9999 is outside the years phr accepts (1900 to 2200)", hint: nil)) {
            try DoseLog.parseInstant("9999-12-31 23:59", time: Self.time)
        }
    }

    /// A vault written before the bound may hold an appointment at the end of 9999: listing and
    /// `appt export --ics` must not trap on it.
    @Test func anAppointmentStoredOutOfRangeNoLongerTrapsTheExport() throws {
        let (vault, profile, directory) = try F.vault("limits-stored")
        defer { TestSupport.remove(directory) }
        let time = F.time("2026-11-21T12:00:00Z", "America/New_York")
        let store = AppointmentStore(vault: vault, profile: profile, time: time)
        var input = AppointmentStore.Input()
        input.with = "Dr. Old"
        input.at = "2026-12-03 09:30"
        let added = try store.add(input)
        try vault.database.write { db in
            try db.execute(sql: "UPDATE appointment SET start_local = '9999-12-31T23:30' WHERE id = ?", arguments: [added.id])
        }
        let listed = try store.list()
        #expect(listed.count == 1)
        #expect(ICalendarExport.document(listed, generator: "test").contains("BEGIN:VEVENT"))
    }

    // MARK: Nesting

    @Test func nestingDeeperThanTheLimitIsAClearErrorNotACrash() throws {
        let (vault, profile, directory) = try F.vault("limits-depth")
        defer { TestSupport.remove(directory) }
        let deepICS = try Self.write("BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:VEVENT\r\n", count: 100_000)
                                     + String(repeating: "END:VEVENT\r\n", count: 100_000) + "END:VCALENDAR\r\n", directory, "deep.ics")
        #expect(throws: InteropError.malformed(path: deepICS, location: "line 17", reason: "components nested more than 16 deep")) {
            try RecordImport.runICalendar(path: deepICS, vault: vault, profile: profile, time: Self.time)
        }
        let deepArray = try Self.write(#"{"resourceType": "Bundle", "type": "collection", "entry": "# + String(repeating: "[", count: 100_000)
                                       + String(repeating: "]", count: 100_000) + "}", directory, "deep-array.json")
        #expect(throws: InteropError.malformed(path: deepArray, location: "JSON", reason: "arrays and objects nested more than 64 deep (at byte 121)")) {
            try RecordImport.run(path: deepArray, vault: vault, profileName: nil, time: Self.time)
        }
        let deepObject = try Self.write(#"{"format": "phr-export", "version": 1, "x": "# + String(repeating: #"{"a": "#, count: 100_000)
                                        + "1" + String(repeating: "}", count: 100_001), directory, "deep-object.json")
        #expect(throws: InteropError.self) { try RecordImport.run(path: deepObject, vault: vault, profileName: nil, time: Self.time) }
        // The drug-information APIs' answers go through the same limit.
        #expect(throws: DecodingError.self) { try JSONValue.parse(Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)) }
        #expect(try JSONValue.parse(Data("[[[1]]]".utf8)) == .array([.array([.array([.integer(1)])])]))
        // Brackets inside strings do not count, and ordinary FHIR depth is fine.
        let brackets = try Self.write(Self.bundle([
            #"{"resourceType": "Condition", "id": "c", "code": {"text": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ \"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"}}"#,
        ]), directory, "brackets.json")
        #expect(try RecordImport.run(path: brackets, vault: vault, profileName: nil, time: Self.time).added == ["conditions": 1])
    }

    // MARK: Numbers

    @Test func hugeNumbersInEachImporterAreRefusedNotTrapped() throws {
        let (vault, profile, directory) = try F.vault("limits-numbers")
        defer { TestSupport.remove(directory) }
        func event(_ uid: String, _ lines: String) -> String {
            "BEGIN:VEVENT\nUID:\(uid)\nDTSTART:20261203T093000Z\nSUMMARY:Dr. \(uid)\n\(lines)\nEND:VEVENT\n"
        }
        let calendar = try Self.write(Self.ics(
            event("overflow", "DURATION:P99999999999999999W") + event("years", "DURATION:P9999999W") + event("month", "DURATION:P32D")
                + event("negative", "DURATION:-PT1H") + event("backwards", "DTEND:20261203T083000Z")
                + event("sequence", "SEQUENCE:99999999999999999999")
                + event("alarm", "BEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:-P5W\nEND:VALARM")
                + event("alarm2", "BEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:-P99999999W\nEND:VALARM")
                + event("fine", "DURATION:P31D")), directory, "numbers.ics")
        let fromICS = try RecordImport.runICalendar(path: calendar, vault: vault, profile: profile, time: Self.time)
        #expect(Self.rejected(fromICS) == [
            "event 1 (line 4)": "DURATION: 'P99999999999999999W' is not a duration phr can read (at most 31 days)",
            "event 2 (line 10)": "DURATION: 'P9999999W' is not a duration phr can read (at most 31 days)",
            "event 3 (line 16)": "DURATION: 'P32D' is longer than 31 days, the longest appointment phr keeps",
            "event 4 (line 22)": "DURATION: '-PT1H' is negative: the event would end before it starts",
            "event 5 (line 28)": "DTEND: is before DTSTART",
            "event 6 (line 34)": "SEQUENCE: '99999999999999999999' is not a whole number from 0 to 2147483647",
        ])
        #expect(fromICS.added == ["appointments": 3])
        #expect(fromICS.notes == ["event 7 (line 40): its alarm, more than four weeks before the start, was not kept as a reminder",
                                  "event 8 (line 49): its alarm TRIGGER '-P99999999W' is not a duration phr can read; no reminder was kept"])
        let kept = try AppointmentStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(kept.map(\.durationMinutes).sorted() == [30, 30, 44640] && kept.allSatisfy { $0.remindMinutes == nil })

        let fhir = try Self.write(Self.bundle([
            #"{"resourceType": "Appointment", "id": "a1", "status": "booked", "start": "2026-12-03T09:30:00Z", "minutesDuration": 1e300}"#,
            #"{"resourceType": "Appointment", "id": "a2", "status": "booked", "start": "2026-12-03T09:30:00Z", "end": "2026-12-03T09:00:00Z"}"#,
            #"{"resourceType": "MedicationRequest", "id": "m1", "status": "active", "medicationCodeableConcept": {"text": "A"}, "dispenseRequest": {"numberOfRepeatsAllowed": 1e300}}"#,
            #"{"resourceType": "MedicationRequest", "id": "m2", "status": "active", "medicationCodeableConcept": {"text": "B"}, "dosageInstruction": [{"timing": {"repeat": {"frequency": 1e300, "period": 1, "periodUnit": "h"}}}]}"#,
            #"{"resourceType": "MedicationRequest", "id": "m3", "status": "active", "medicationCodeableConcept": {"text": "C"}, "dosageInstruction": [{"timing": {"repeat": {"frequency": 1, "period": 1e300, "periodUnit": "h"}}}]}"#,
            #"{"resourceType": "Immunization", "id": "i1", "status": "completed", "vaccineCode": {"text": "Tdap"}, "occurrenceDateTime": "2025-09-01", "protocolApplied": [{"doseNumberPositiveInt": 1e300}]}"#,
            #"{"resourceType": "Observation", "id": "o1", "status": "final", "code": {"text": "Weight"}, "valueQuantity": {"value": 1e300, "unit": "kg"}}"#,
            #"{"resourceType": "Observation", "id": "o2", "status": "final", "code": {"text": "Weight"}, "valueQuantity": {"value": 72, "unit": "kg"}}"#,
        ]), directory, "numbers.json")
        let fromFHIR = try RecordImport.run(path: fhir, vault: vault, profileName: nil, time: Self.time)
        #expect(Self.rejected(fromFHIR) == [
            "entry[0]": "minutesDuration: expected a whole number from 1 to 44640, got 1e+300",
            "entry[2]": "dispenseRequest.numberOfRepeatsAllowed: expected a whole number from 0 to 99, got 1e+300",
            "entry[3]": "dosageInstruction[0].timing.repeat.frequency: expected a whole number from 1 to 1000, got 1e+300",
            "entry[4]": "dosageInstruction[0].timing.repeat.period: expected a number above 0 and at most 1000000",
            "entry[5]": "protocolApplied[0].doseNumberPositiveInt: expected a whole number from 1 to 20, got 1e+300",
            "entry[6]": "value_number: is not a number phr can keep",
        ])
        // An end before the start costs the appointment its end, not the appointment.
        #expect(fromFHIR.repaired.map { "\($0.entry): \($0.reason.description)" } == ["entry[1]: end: '2026-12-03T09:00:00Z' is before start; left out"])
        #expect(fromFHIR.added == ["appointments": 1, "observations": 1])

        // phr JSON: counts at Int.max.
        let exported = "\(directory)/export.json"
        try VaultExport.write(try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "test"), to: exported, force: false)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exported))) as? [String: Any])
        var appointments = json["appointments"] as! [[String: Any]]
        #expect(appointments.count == 4)
        appointments[0]["remind_minutes"] = Int.max
        appointments[1]["sequence"] = Int.max
        json["appointments"] = appointments
        let edited = "\(directory)/edited.json"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: edited))
        let (fresh, _, freshDirectory) = try F.vault("limits-numbers-fresh")
        defer { TestSupport.remove(freshDirectory) }
        let fromJSON = try RecordImport.run(path: edited, vault: fresh, profileName: nil, time: Self.time)
        #expect(Self.rejected(fromJSON) == [
            "appointments[0]": "remind_minutes: use a number from 0 to 40320",
            "appointments[1]": "sequence: use a number from 0 to 2147483647",
        ])
        #expect(fromJSON.added["observations"] == 1)
    }

    // MARK: Limits, empty fields, line endings

    @Test func importsApplyTheLimitsTypedInputHas() throws {
        let (vault, profile, directory) = try F.vault("limits-fields")
        defer { TestSupport.remove(directory) }
        let conditions = ConditionStore(vault: vault, profile: profile, time: Self.time)
        let tooLong = String(repeating: "x", count: RecordFields.maximumNameLength + 1)
        let longest = String(repeating: "y", count: RecordFields.maximumNameLength)
        var input = ConditionStore.Input()
        input.name = tooLong
        #expect(throws: RecordError.invalidField(field: Field.argument("name"), reason: "at most 1000 characters")) { try conditions.add(input) }
        input.name = longest
        _ = try conditions.add(input)

        let huge = String(repeating: "z", count: 2_000_000)
        let fhir = try Self.write(Self.bundle([
            "{\"resourceType\": \"Condition\", \"id\": \"c1\", \"code\": {\"text\": \"\(huge)\"}}",
            "{\"resourceType\": \"Condition\", \"id\": \"c2\", \"code\": {\"text\": \"\(tooLong)\"}}",
            "{\"resourceType\": \"Condition\", \"id\": \"c3\", \"code\": {\"text\": \"Fine\"}, \"note\": [{\"text\": \"\(huge)\"}]}",
            "{\"resourceType\": \"Condition\", \"id\": \"c4\", \"code\": {\"text\": \"Asthma\"}, \"onsetDateTime\": \"2015\", \"abatementDateTime\": \"2010\"}",
        ]), directory, "long.json")
        let report = try RecordImport.run(path: fhir, vault: vault, profileName: nil, time: Self.time)
        #expect(Self.rejected(report) == [
            "entry[0]": "name: at most 1000 characters", "entry[1]": "name: at most 1000 characters",
            "entry[2]": "notes: at most 20000 characters",
        ])
        #expect(report.added == ["conditions": 1], "an abatement before the onset is dropped, as before")

        // A time zone offset of +9999 would move an appointment by four days.
        let calendar = try Self.write(Self.ics("""
            BEGIN:VTIMEZONE
            TZID:Nowhere
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+0000
            TZOFFSETTO:+9999
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:moved
            DTSTART;TZID=Nowhere:20261203T093000
            SUMMARY:Dr. Moved
            END:VEVENT

            """), directory, "offset.ics")
        let offset = try RecordImport.runICalendar(path: calendar, vault: vault, profile: profile, time: Self.time)
        #expect(Self.rejected(offset) == ["event 1 (line 12)": "DTSTART;TZID: 'Nowhere': TZOFFSETTO '+9999' is not a UTC offset (-1800 to +1800)"])
    }

    @Test func emptyOptionalPropertiesAreAbsentAndOneBadEventSpoilsNoOther() throws {
        let (vault, profile, directory) = try F.vault("limits-empty")
        defer { TestSupport.remove(directory) }
        let calendar = try Self.write(Self.ics("""
            BEGIN:VEVENT
            UID:google-1
            DTSTART:20261203T093000Z
            DTEND:20261203T100000Z
            SUMMARY:Dentist
            LOCATION:
            DESCRIPTION:
            END:VEVENT
            BEGIN:VEVENT
            UID:
            DTSTART:20261204T093000Z
            SUMMARY:No UID
            END:VEVENT
            BEGIN:VEVENT
            UID:google-2
            DTSTART:20261205T093000Z
            SUMMARY:
            X-PHR-REASON:
            END:VEVENT

            """), directory, "google.ics")
        let report = try RecordImport.runICalendar(path: calendar, vault: vault, profile: profile, time: Self.time)
        #expect(report.added == ["appointments": 2])
        #expect(Self.rejected(report) == ["event 2 (line 12)": "UID: missing; every event has one (RFC 5545 3.8.4.7)"])
        let kept = try AppointmentStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(kept.map(\.with) == ["Dentist", "Appointment"])
        #expect(kept.allSatisfy { $0.location == nil && $0.notes == nil && $0.reason == nil })
    }

    @Test func lineEndingsAreLFAndWhatFHIRGaveComesBackFromPhrsExport() throws {
        let (vault, profile, directory) = try F.vault("limits-crlf")
        defer { TestSupport.remove(directory) }
        let name712 = String(repeating: "Chronic kidney disease stage 3 ", count: 23).prefix(712)
        let fhir = try Self.write(Self.bundle([
            #"{"resourceType": "Patient", "id": "p", "name": [{"text": "Alex\r\nExample"}]}"#,
            #"{"resourceType": "Condition", "id": "c1", "code": {"text": "Type 2 diabetes\r\nmellitus"}, "note": [{"text": "first line\rsecond line\r\n"}]}"#,
            "{\"resourceType\": \"Condition\", \"id\": \"c2\", \"code\": {\"text\": \"\(name712)\"}}",
            #"{"resourceType": "AllergyIntolerance", "id": "a1", "code": {"text": "Penicillin"}, "reaction": [{"manifestation": [{"text": "hives\r\nrash"}]}]}"#,
        ]), directory, "crlf.json")
        let first = try RecordImport.run(path: fhir, vault: vault, profileName: nil, time: Self.time)
        #expect(first.rejectedCount == 0 && first.added == ["medical_id": 1, "conditions": 2, "allergies": 1])
        let stored = try ConditionStore(vault: vault, profile: profile, time: Self.time).list()
        let diabetes = try #require(stored.first { $0.name.hasPrefix("Type 2") })
        // A name is one line (its line break a space); notes keep their lines.
        #expect(diabetes.name == "Type 2 diabetes mellitus" && diabetes.notes == "first line\nsecond line")
        #expect(stored.contains { $0.name.count == 712 })
        #expect(try MedicalIDStore(vault: vault, profile: profile, time: Self.time).get()?.name == "Alex Example")
        #expect(try AllergyStore(vault: vault, profile: profile, time: Self.time).list().first?.reaction == "hives rash")

        // Typed input normalises the same way.
        var input = ConditionStore.Input()
        input.name = "Typed\r\nname"
        #expect(try ConditionStore(vault: vault, profile: profile, time: Self.time).add(input).name == "Typed name")

        let exported = "\(directory)/export.json"
        try VaultExport.write(try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "test"), to: exported, force: false)
        let (fresh, freshProfile, freshDirectory) = try F.vault("limits-crlf-fresh")
        defer { TestSupport.remove(freshDirectory) }
        let again = try RecordImport.run(path: exported, vault: fresh, profileName: nil, time: Self.time)
        #expect(again.rejectedCount == 0)
        let before = try ConditionStore(vault: vault, profile: profile, time: Self.time).list()
        let after = try ConditionStore(vault: fresh, profile: freshProfile, time: Self.time).list()
        #expect(after.count == 3 && after.map(\.name).sorted() == before.map(\.name).sorted())
        #expect(after.map(\.notes) == before.map(\.notes))
    }

    // MARK: The corpus

    /// Every FHIR bundle of the corpus through import, phr's export and import into a fresh
    /// vault: nothing refused, nothing lost.
    @Test(.corpus)
    func everyCorpusBundleSurvivesImportExportImport() throws {
        for bundle in CorpusData.fhirBundles {
            let (vault, profile, directory) = try F.vault("limits-corpus")
            defer { TestSupport.remove(directory) }
            let first = try RecordImport.run(path: bundle, vault: vault, profileName: nil, time: Self.time)
            #expect(first.rejectedCount == 0, "\(bundle): \(first.skipped.filter(\.rejected))")
            let exported = "\(directory)/export.json"
            let export = try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "test")
            try VaultExport.write(export, to: exported, force: false)
            let (fresh, freshProfile, freshDirectory) = try F.vault("limits-corpus-fresh")
            defer { TestSupport.remove(freshDirectory) }
            let second = try RecordImport.run(path: exported, vault: fresh, profileName: nil, time: Self.time)
            #expect(second.rejectedCount == 0, "\(bundle): \(second.skipped.filter(\.rejected))")
            let again = try VaultExport.build(vault: fresh, profile: freshProfile, time: Self.time, generator: "test")
            #expect(try again.encoded() == export.encoded(), "\(bundle): the second vault holds exactly what the first did")
            #expect(second.added.values.reduce(0, +) == first.added.values.reduce(0, +), "\(bundle)")
        }
    }
}
