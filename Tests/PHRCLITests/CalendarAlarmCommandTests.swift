import Foundation
import Testing

/// `phr appt export --ics` gives appointments VALARMs, so a phone's calendar reminds too: by
/// default at the lead times of the appointment reminder rules, or as `--alarm` says; each file
/// is read back by Python's icalendar (Debian's python3-icalendar).
@Suite struct CalendarAlarmCommandTests {
    static let passphrase = "correct horse battery staple"
    static let env = ["PHR_PASSPHRASE": passphrase, "TZ": "Europe/Berlin", "PHR_TEST_NOW": "2026-11-20T09:00:00Z"]

    /// Each event's summary and its alarms' triggers in seconds (negative: before the start),
    /// as python3-icalendar reads the file.
    static func alarms(_ path: String) throws -> [String: [Int]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import icalendar, json, sys
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            out = {}
            for event in calendar.walk("VEVENT"):
                alarms = []
                for alarm in event.walk("VALARM"):
                    assert str(alarm["ACTION"]) == "DISPLAY" and str(alarm["DESCRIPTION"]), "a DISPLAY alarm needs a description"
                    alarms.append(int(alarm["TRIGGER"].dt.total_seconds()))
                out[str(event["SUMMARY"])] = alarms
            print(json.dumps(out))
            """, path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3-icalendar could not read \(path)")
        return try JSONDecoder().decode([String: [Int]].self, from: data)
    }

    @Test func exportedAppointmentsCarryTheAlarmsOfTheReminderSettings() throws {
        let cli = try CLI(label: "alarm")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["appt", "add", "--with", "Dr. Lee", "--at", "2026-12-03 09:30"], Self.env).status == 0)
        #expect(try cli.run(["appt", "add", "--with", "Dr. Own", "--at", "2026-12-04 10:00", "--remind", "30m"], Self.env).status == 0)
        let ics = "\(cli.directory)/a.ics"

        // No appointment reminder rule and no --alarm: only the appointment's own reminder.
        #expect(try cli.run(["appt", "export", "--ics", ics], Self.env).status == 0)
        #expect(try Self.alarms(ics) == ["Dr. Lee": [], "Dr. Own": [-1800]])

        // The rules' lead times become alarms, longest first; a paused rule does not count.
        #expect(try cli.run(["remind", "add", "appt", "--before", "24h"], Self.env).status == 0)
        #expect(try cli.run(["remind", "add", "appt", "--before", "1h"], Self.env).status == 0)
        let paused = try cli.run(["remind", "add", "appt", "--before", "2h", "--json"], Self.env)
        let pausedID = try #require((try JSONSerialization.jsonObject(with: Data(paused.stdout.utf8)) as? [String: Any])?["id"] as? String)
        #expect(try cli.run(["remind", "pause", pausedID], Self.env).status == 0)
        #expect(try cli.run(["appt", "export", "--ics", ics, "--force"], Self.env).status == 0)
        #expect(try Self.alarms(ics) == ["Dr. Lee": [-86400, -3600], "Dr. Own": [-1800]])
        let text = try String(contentsOfFile: ics, encoding: .utf8)
        #expect(text.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Dr. Lee\r\nTRIGGER:-P1D\r\nEND:VALARM\r\n"))

        // --alarm replaces the rules' lead times; --alarm none writes no default alarm.
        #expect(try cli.run(["appt", "export", "--ics", ics, "--force", "--alarm", "1h30m"], Self.env).status == 0)
        #expect(try Self.alarms(ics) == ["Dr. Lee": [-5400], "Dr. Own": [-1800]])
        #expect(try cli.run(["appt", "export", "--ics", ics, "--force", "--alarm", "none"], Self.env).status == 0)
        #expect(try Self.alarms(ics) == ["Dr. Lee": [], "Dr. Own": [-1800]])
        let bad = try cli.run(["appt", "export", "--ics", ics, "--force", "--alarm", "soon"], Self.env)
        #expect(bad.status == 64 && bad.stderr.hasPrefix("phr: error: --alarm: "))
    }
}
