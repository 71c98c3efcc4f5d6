import Foundation
import Testing

/// Terminal escape sequences through every way into the vault (typed options, file names,
/// FHIR, phr JSON and iCalendar imports) are refused or neutralised, and never reach stdout raw.
@Suite struct ControlCharacterCommandTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple"]
    static let escape = "\u{1b}]0;owned\u{07}\u{1b}[2J"
    static let samples = "\(CLI.packageRoot)/Samples/documents"

    /// No control character but newline and tab in what the listing commands print.
    static func expectClean(_ cli: CLI, _ label: String) throws {
        for command in [["doc", "list"], ["search", "sample"], ["search", "asthma"], ["condition", "list"], ["emergency"],
                        ["profile", "list"], ["appt", "list"], ["med", "list"]] {
            let result = try cli.run(command, Self.env)
            let raw = result.stdout.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }
            #expect(raw.isEmpty, "\(label): phr \(command.joined(separator: " ")) printed \(raw.map { String($0.value, radix: 16) })")
        }
    }

    /// Bidirectional overrides in a name (typed here; imports store them the same way) are
    /// shown on a terminal as visible escapes, so "Peanut <U+202E>YGRELLA ON<U+202C>" never
    /// reads as "Peanut NO ALLERGY" (issue 37, item 17); a pipe and JSON keep the stored text,
    /// as they keep every other character.
    @Test func bidiOverridesAreShownVisiblyOnATerminal() throws {
        let cli = try CLI(label: "bidi")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        #expect(try cli.run(["allergy", "add", "Peanut \u{202E}YGRELLA ON\u{202C}"], Self.env).status == 0)
        #expect(try cli.run(["condition", "add", "Asthma \u{2067}x\u{2069}"], Self.env).status == 0)
        for command in [["allergy", "list"], ["emergency"], ["condition", "list"], ["search", "peanut"]] {
            let (status, screen) = try cli.runOnTerminal(command, Self.env, input: "")
            #expect(status == 0, "phr \(command.joined(separator: " ")): \(screen)")
            #expect(!screen.unicodeScalars.contains { TerminalBidi.controls.contains($0.value) }, "phr \(command.joined(separator: " ")): \(screen)")
            #expect(screen.contains("<U+202E>YGRELLA ON<U+202C>") || screen.contains("<U+2067>x<U+2069>"), "\(screen)")
        }
        #expect(try cli.runOnTerminal(["allergy", "list"], Self.env, input: "").screen.contains("Peanut <U+202E>YGRELLA ON<U+202C>"))
        #expect(try cli.run(["allergy", "list", "--json"], Self.env).stdout.contains("Peanut \u{202E}YGRELLA ON\u{202C}"))
    }

    enum TerminalBidi {
        static let controls: Set<UInt32> = Set(0x202A...0x202E).union(0x2066...0x2069).union([0x061C])
    }

    @Test func typedOptionsWithEscapesAreRefused() throws {
        let cli = try CLI(label: "esc-typed")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        #expect(try cli.run(["condition", "add", "Asthma"], Self.env).status == 0)
        let document = "\(Self.samples)/prescription-amoxicillin.pdf"
        let add = try cli.run(["doc", "add", document, "--json"], Self.env)
        let id = try #require(add.stdout.firstMatch(of: /"id" : "([a-z0-9]+)"/)?.1).description
        let before = cli.vaultFingerprint()
        let e = Self.escape
        let attempts: [[String]] = [
            ["doc", "add", "\(Self.samples)/lab-report-cbc-ferritin.pdf", "--title", "t\(e)"],
            ["doc", "add", "\(Self.samples)/lab-report-cbc-ferritin.pdf", "--note", "n\(e)"],
            ["doc", "add", "\(Self.samples)/lab-report-cbc-ferritin.pdf", "--provider", "p\(e)"],
            ["doc", "add", "\(Self.samples)/lab-report-cbc-ferritin.pdf", "--tag", "t\(e)"],
            ["doc", "edit", id, "--title", "t\(e)"], ["doc", "edit", id, "--note", "n\(e)"],
            ["doc", "edit", id, "--provider", "p\(e)"], ["doc", "edit", id, "--tag", "+t\(e)"],
            ["profile", "add", "Mia\(e)"], ["condition", "add", "Flu\(e)"], ["allergy", "add", "Dust\(e)"],
            ["med", "add", "Ibuprofen\(e)", "--as-needed"], ["contact", "add", "Kim\(e)", "--phone", "+49 30 1234567"],
            ["appt", "add", "--with", "Dr\(e)", "--at", "2026-12-03 09:30"], ["id", "set", "--name", "Alex\(e)"],
            ["immunization", "add", "Tetanus\(e)", "--date", "2025-01-01"],
        ]
        for command in attempts {
            let result = try cli.run(command, Self.env)
            let shown = command.joined(separator: " ").debugDescription
            // A typed option is a usage error (README, exit codes), whichever command took it.
            #expect(result.status == 64, "\(shown): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("contains control characters"), "\(shown): \(result.stderr)")
        }
        #expect(cli.vaultFingerprint() == before, "a refused command changed the vault")
        try Self.expectClean(cli, "typed")

        // A line break is not refused but folded: a title is one line of `doc list`.
        #expect(try cli.run(["doc", "edit", id, "--title", "Amoxicillin\nprescription"], Self.env).status == 0)
        let list = try cli.run(["doc", "list"], Self.env)
        #expect(list.stdout.contains("Amoxicillin prescription"), "\(list.stdout)")
        #expect(list.stdout.split(separator: "\n").count == 2, "a header and one row: \(list.stdout)")
    }

    @Test func fileNamesAndImportsCannotBringEscapesIn() throws {
        let cli = try CLI(label: "esc-import")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        #expect(try cli.run(["condition", "add", "Asthma"], Self.env).status == 0)

        // A file name becomes a title with its control characters replaced.
        let named = "\(cli.directory)/scan\(Self.escape)result.pdf"
        try FileManager.default.copyItem(atPath: "\(Self.samples)/lab-report-cbc-ferritin.pdf", toPath: named)
        let add = try cli.run(["doc", "add", named, "--type", "lab", "--json"], Self.env)
        #expect(add.status == 0, "\(add.stderr)")
        let list = try cli.run(["doc", "list", "--json"], Self.env)
        #expect(!list.stdout.contains("\\u001b"), "the stored title or file name kept an escape")

        // FHIR: a condition named with an escape sequence is refused, naming the entry.
        let bundle = """
            {"resourceType": "Bundle", "type": "collection", "entry": [
              {"resource": {"resourceType": "Condition", "clinicalStatus": {"coding": [{"code": "active"}]},
                            "code": {"text": "Evil\\u001b]52;c;cGF5bG9hZA==\\u0007 name"}}}]}
            """
        try bundle.write(toFile: "\(cli.directory)/evil.fhir.json", atomically: true, encoding: .utf8)
        let fhir = try cli.run(["import", "evil.fhir.json"], Self.env)
        #expect(fhir.status == 65, "\(fhir.stderr)")
        #expect(fhir.output.contains("contains control characters"), "refused by name, the rest imported: \(fhir.output)")

        // phr JSON: an escape hidden in a coding's display, which no command types.
        let export = try cli.run(["export", "--out", "-"], Self.env)
        #expect(export.status == 0)
        let tampered = export.stdout.replacingOccurrences(of: "\"codes\" : [\n\n", with: "\"codes\" : [\n\n")
            .replacingOccurrences(of: "\"name\" : \"Asthma\"", with: "\"name\" : \"Asthma\\u001b[2J\"")
        #expect(tampered != export.stdout)
        try tampered.write(toFile: "\(cli.directory)/evil.phr.json", atomically: true, encoding: .utf8)
        let json = try cli.run(["import", "evil.phr.json", "--profile", "me"], Self.env)
        #expect(json.status == 65, "\(json.stderr)")
        #expect(json.output.contains("contains control characters"), "refused by name, the rest imported: \(json.output)")

        // iCalendar: a SUMMARY with an escape sequence.
        let ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:evil-1@example.com\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20261203T093000Z\r\nSUMMARY:Check-up\u{1b}[2J\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try ics.write(toFile: "\(cli.directory)/evil.ics", atomically: true, encoding: .utf8)
        let calendar = try cli.run(["appt", "import", "evil.ics"], Self.env)
        #expect(calendar.status != 0, "\(calendar.stdout)")
        #expect(calendar.output.contains("control characters"), "\(calendar.output)")

        try Self.expectClean(cli, "imports")
    }

    @Test func aTerminalNeverReceivesARecordsEscapeSequences() throws {
        // Through a pseudo-terminal (script(1)): phr's own bold header passes, a file name's
        // escape (already replaced on the way in) does not.
        let cli = try CLI(label: "esc-tty")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let named = "\(cli.directory)/scan\(Self.escape).pdf"
        try FileManager.default.copyItem(atPath: "\(Self.samples)/lab-report-cbc-ferritin.pdf", toPath: named)
        #expect(try cli.run(["doc", "add", named, "--type", "lab"], Self.env).status == 0)
        let result = try cli.run(["-qec", "\(CLI.phr) doc list", "/dev/null"], Self.env.merging(["TERM": "xterm"]) { $1 },
                                 executable: "/usr/bin/script")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("\u{1b}[1mID"), "the header is bold on a terminal: \(result.stdout.debugDescription)")
        #expect(!result.stdout.contains("\u{1b}]"), "\(result.stdout.debugDescription)")
        #expect(!result.stdout.contains("\u{1b}[2J"), "\(result.stdout.debugDescription)")
    }
}
