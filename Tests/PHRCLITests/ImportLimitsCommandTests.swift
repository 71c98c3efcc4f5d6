import Foundation
import Testing

/// Extreme and absurd input through the real binary: typed dates outside 1900-2200, a partly
/// importable calendar (exit 65 with the report), nesting that used to overflow the stack, and
/// an appointment on the last accepted day that `appt export --ics` must still write.
@Suite struct ImportLimitsCommandTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple", "TZ": "America/New_York", "PHR_TEST_NOW": "2026-11-21T12:00:00Z"]
    static let outside = "is outside the years phr accepts (1900 to 2200)"

    /// Issue 37, item 3: the report printer grouped skipped entries with a search per entry, so a
    /// report of many different reasons printed in quadratic time (15 minutes for 18 MB). Four
    /// times the entries must cost about four times the time, not sixteen.
    @Test func theReportPrintsInLinearTime() throws {
        let cli = try CLI(label: "limits-report")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        func run(_ count: Int) throws -> Double {
            // Each resource of a type of its own: one group, one line, per entry.
            let entries = (0..<count).map { "{\"resource\":{\"resourceType\":\"Kind\($0)\"}}" }.joined(separator: ",")
            let path = "\(cli.directory)/bundle-\(count).json"
            try "{\"resourceType\":\"Bundle\",\"type\":\"collection\",\"entry\":[\(entries)]}".write(toFile: path, atomically: true, encoding: .utf8)
            let started = Date()
            let result = try cli.run(["import", "--dry-run", path], Self.env)
            let seconds = Date().timeIntervalSince(started)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("skipped \(count):\n") && result.stdout.contains("  entry[\(count - 1)] Kind\(count - 1): phr does not keep Kind\(count - 1) resources\n"))
            return seconds
        }
        _ = try run(1_000)
        let small = try run(25_000)
        let large = try run(100_000)
        #expect(large / small < 8, "25,000 entries: \(small) s; 100,000: \(large) s")
    }

    @Test func typedDatesOutsideTheAcceptedYearsNameTheOption() throws {
        let cli = try CLI(label: "limits-typed")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let cases: [([String], String)] = [
            (["log", "weight", "70kg", "--at", "9999-12-31 23:59"], "--at: '9999-12-31 23:59': year 9999 \(Self.outside)"),
            (["appt", "add", "--with", "Dr. X", "--at", "9999-12-31 23:30"], "--at: '9999-12-31 23:30': year 9999 \(Self.outside)"),
            (["appt", "cal", "--month", "9999-12"], "--month: '9999-12': year 9999 \(Self.outside)"),
            (["condition", "add", "Asthma", "--since", "0001-01-01"], "--since: '0001-01-01': year 0001 \(Self.outside)"),
        ]
        for (arguments, message) in cases {
            let result = try cli.run(arguments, Self.env)
            #expect([64, 65].contains(result.status), "\(arguments): \(result.status)")
            #expect(result.stderr.hasPrefix("phr: error: \(message)\n"), "\(arguments): \(result.stderr)")
        }
        // Filters say the same (ArgumentParser prints option checks as "Error: ...").
        for (arguments, message) in [(["search", "x", "--since", "9999-01-01"], "--since: '9999-01-01': year 9999 \(Self.outside)"),
                                     (["search", "x after:9999-01-01"], "after:9999-01-01: year 9999 \(Self.outside)"),
                                     (["share", "--for", "Dr. Lee", "--out", "b.pdf", "--since", "0001-01-01"], "--since: '0001-01-01': year 0001 \(Self.outside)")] {
            let result = try cli.run(arguments, Self.env)
            #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        // The last accepted day, in a zone behind UTC: stored, listed, and exported; one ending
        // in 2201 is refused, as an import of it would be.
        let late = try cli.run(["appt", "add", "--with", "Dr. Late", "--at", "2200-12-31 23:30", "--duration", "2h"], Self.env)
        #expect(late.status == 64 && late.stderr.hasPrefix(
            "phr: error: --duration: the appointment would end in 2201, after the years phr accepts (1900 to 2200)\n"), "\(late.stderr)")
        let last = try cli.run(["appt", "add", "--with", "Dr. Last", "--at", "2200-12-31 23:00", "--duration", "30m"], Self.env)
        #expect(last.status == 0, "\(last.stderr)")
        let ics = try cli.run(["appt", "export", "--ics", "-"], Self.env)
        #expect(ics.status == 0 && ics.stdout.contains("DTSTART;TZID=America/New_York:22001231T230000\r\n"), "\(ics.stderr)")
    }

    @Test func aCalendarWithOneBadEventIsPartlyImported() throws {
        let cli = try CLI(label: "limits-ics")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let path = "\(cli.directory)/google.ics"
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
            + "BEGIN:VEVENT\r\nUID:g1\r\nDTSTART:20261203T143000Z\r\nSUMMARY:Dentist\r\nLOCATION:\r\nDESCRIPTION:\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:g2\r\nDTSTART:20261204T143000Z\r\nDURATION:P99999999999999999W\r\nSUMMARY:Huge\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let result = try cli.run(["appt", "import", path], Self.env)
        #expect(result.status == 65)
        #expect(result.stdout == """
            imported \(path) (iCalendar) into profile me
              appointments   1 added
            refused as bad data 1:
              event 2 (line 10) VEVENT: DURATION: 'P99999999999999999W' is not a duration phr can read (at most 31 days)

            """)
        #expect(result.stderr == """
            phr: error: \(path): 1 entry was refused as bad data; the rest was imported
            phr: hint: the report lists each refused entry and why; fix them and import the file again (what is in stays as it is)

            """)
        let list = try cli.run(["appt", "list"], Self.env)
        #expect(list.stdout.contains("Dentist") && !list.stdout.contains("Huge"))
        let json = try cli.run(["import", path, "--json"], Self.env)
        #expect(json.status == 65)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let skipped = try #require(report["skipped"] as? [[String: Any]])
        #expect(skipped.count == 1 && skipped[0]["rejected"] as? Bool == true && skipped[0]["entry"] as? String == "event 2 (line 10)")
    }

    @Test func deeplyNestedFilesAreRefusedWithoutACrash() throws {
        let cli = try CLI(label: "limits-deep")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let ics = "\(cli.directory)/deep.ics"
        try ("BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:VEVENT\r\n", count: 100_000) + "END:VCALENDAR\r\n")
            .write(toFile: ics, atomically: true, encoding: .utf8)
        let json = "\(cli.directory)/deep.json"
        try (#"{"resourceType":"Bundle","type":"collection","entry":"# + String(repeating: "[", count: 100_000)
             + String(repeating: "]", count: 100_000) + "}").write(toFile: json, atomically: true, encoding: .utf8)
        let deepICS = try cli.run(["import", ics], Self.env)
        #expect(deepICS.status == 65)
        #expect(deepICS.stderr.hasPrefix("phr: error: \(ics): line 17: components nested more than 16 deep\n"), "\(deepICS.stderr)")
        let deepJSON = try cli.run(["import", json], Self.env)
        #expect(deepJSON.status == 65)
        #expect(deepJSON.stderr.hasPrefix("phr: error: \(json): JSON: arrays and objects nested more than 64 deep (at byte 116)\n"), "\(deepJSON.stderr)")
    }
}
