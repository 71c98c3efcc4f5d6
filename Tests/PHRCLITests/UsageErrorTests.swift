import Foundation
import Testing

/// Every failure speaks with one voice: `phr: error: …` then `phr: hint: …`, and a bad command
/// line exits 64 with the usage line after. Checked for every command and subcommand, found
/// from phr's own help so a new command cannot be left out.
@Suite struct UsageErrorTests {
    /// The subcommand names a help text lists.
    static func subcommands(_ help: String) -> [String] {
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
            return String(name)
        }.filter { $0 != "help" && $0 != "See" }
    }

    @Test func everyCommandGroupsBadUsageSaysPhrErrorAndExits64() throws {
        let cli = try CLI(label: "usage")
        defer { cli.cleanUp() }
        let groups = Self.subcommands(try cli.run(["--help"]).stdout)
        #expect(groups.count >= 29, "\(groups)")
        var commands: [[String]] = []
        for group in groups {
            commands.append([group])
            for sub in Self.subcommands(try cli.run([group, "--help"]).stdout) { commands.append([group, sub]) }
        }
        #expect(commands.count > 80)
        for command in commands {
            let result = try cli.run(command + ["--no-such-option"])
            let path = command.joined(separator: " ")
            #expect(result.status == 64, "phr \(path): \(result.stderr)")
            #expect(result.stdout.isEmpty, "phr \(path)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            // A command with a required argument names that first; either way, in phr's voice.
            let first = lines.first ?? ""
            #expect(first == "phr: error: unknown option '--no-such-option'" || first.hasPrefix("phr: error: missing expected argument '"),
                    "phr \(path): \(result.stderr)")
            #expect(lines.dropFirst().first?.hasPrefix("phr: hint: ") == true, "phr \(path): \(result.stderr)")
            #expect(lines.contains { $0.hasPrefix("Usage: phr \(path)") }, "phr \(path): \(result.stderr)")
            #expect(!result.stderr.contains("Error:"), "phr \(path): ArgumentParser's own voice: \(result.stderr)")
        }
    }

    @Test func validationErrorsAndMissingArgumentsSpeakTheSameWay() throws {
        let cli = try CLI(label: "usage")
        defer { cli.cleanUp() }
        let missing = try cli.run(["med", "add"])
        #expect(missing.status == 64)
        #expect(missing.stderr == """
            phr: error: missing expected argument '<name>'
            phr: hint: <name>: Its name, e.g. Metformin.
            Usage: phr med add [<options>] <name>

            """)
        let invalid = try cli.run(["doc", "list", "--type", "scan"])
        #expect(invalid.status == 64)
        #expect(invalid.stderr.hasPrefix("phr: error: --type: 'scan' is not a document type; use one of "))
        #expect(invalid.stderr.contains("\nphr: hint: see 'phr doc list --help' for the options\nUsage: phr doc list "))
        let unknown = try cli.run(["frobnicate"])
        #expect(unknown.status == 64 && unknown.stderr.hasPrefix("phr: error: unexpected argument 'frobnicate'\n"))
        // Help and the version are not errors.
        let help = try cli.run(["doc", "--help"])
        #expect(help.status == 0 && help.stdout.contains("SUBCOMMANDS:") && help.stderr.isEmpty)
        #expect(try cli.run(["--version"]).status == 0)
    }

    /// `doc rm` and `med rm` without a terminal fail the same way; an unreadable
    /// --pdf-password-file is a missing file (66), not a wrong passphrase (77).
    @Test func removalsWithoutATerminalAndPasswordFilesFailAlike() throws {
        let cli = try CLI(label: "usage")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let env = ["PHR_PASSPHRASE": "correct horse battery staple"]
        let add = try cli.run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/insurance-card.pdf"], env)
        let document = String(add.stdout.split(separator: " ")[1])
        let med = try cli.run(["med", "add", "Ibuprofen", "--as-needed"], env)
        #expect(med.status == 0, "\(med.stderr)")
        let medID = try #require(med.stdout.split(separator: " ").dropFirst(2).first.map(String.init))
        let doc = try cli.run(["doc", "rm", document], env)
        let medication = try cli.run(["med", "rm", medID], env)
        for (result, id) in [(doc, document), (medication, medID)] {
            #expect(result.status == 64)
            #expect(result.stderr == "phr: error: --yes: removing \(id) needs --yes when there is no terminal to confirm on\nphr: hint: run it on a terminal to be asked, or add --yes\n")
        }
        let password = try cli.run(["doc", "add", "--pdf-password-file", "\(cli.directory)/nope", "\(CLI.packageRoot)/Samples/documents/vaccination-record.pdf"], env)
        #expect(password.status == 66)
        #expect(password.stderr.hasPrefix("phr: error: --pdf-password-file \(cli.directory)/nope: no such file or directory\n"))
    }

    @Test func calendarsHonourNoColor() throws {
        let cli = try CLI(label: "usage")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let env = ["PHR_PASSPHRASE": "correct horse battery staple", "PHR_TEST_NOW": "2026-12-10T10:00:00Z", "TZ": "UTC"]
        #expect(try cli.run(["appt", "add", "--with", "Dr. Lee", "--at", "2026-12-15 09:00"], env).status == 0)
        // On a terminal (script(1) gives one), the calendar marks days in reverse video...
        let script = { (extra: String) throws -> String in
            try cli.run(["-qec", "\(extra) \(CLI.phr) appt cal --month 2026-12", "/dev/null"],
                        env.merging(["PHR_VAULT": cli.vault]) { $1 }, executable: "/usr/bin/script").stdout
        }
        #expect(try script("").contains("\u{1b}[7m"))
        // ...and never with NO_COLOR set.
        let plain = try script("NO_COLOR=1")
        #expect(plain.contains("15") && !plain.contains("\u{1b}["), "\(plain.debugDescription)")
    }
}
