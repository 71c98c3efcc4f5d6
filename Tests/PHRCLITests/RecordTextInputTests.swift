import Foundation
import Testing

/// Record text can come from standard input (a value given as `-`), so it never has to be on
/// the command line, which every local user can read in /proc/PID/cmdline.
@Suite struct RecordTextInputTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple"]

    @Test func aDashValueIsReadFromStandardInputInEveryRecordCommand() throws {
        let cli = try CLI(label: "stdin-text")
        defer { cli.cleanUp() }
        _ = try cli.initVault()

        let added = try cli.run(["condition", "add", "-", "--since", "2019", "--json"], Self.env, stdin: "Type 2 diabetes\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("\"name\" : \"Type 2 diabetes\""), "\(added.stdout)")
        // Text that looks like an option is still text.
        let dashed = try cli.run(["condition", "add", "--json", "-"], Self.env, stdin: "--help")
        #expect(dashed.stdout.contains("\"name\" : \"--help\""), "\(dashed.output)")
        let notes = try cli.run(["med", "add", "Metformin", "--dose", "500 mg", "--notes", "-", "--json"], Self.env,
                                stdin: "-3 days: take with food\nnot at night\n")
        #expect(notes.stdout.contains("\"notes\" : \"-3 days: take with food\\nnot at night\""), "\(notes.output)")
        let appointment = try cli.run(["appt", "add", "--with", "Dr. Lee", "--at", "2026-12-03 09:30", "--reason", "-", "--json"],
                                      Self.env, stdin: "HIV follow-up")
        #expect(appointment.stdout.contains("\"reason\" : \"HIV follow-up\""), "\(appointment.output)")
        let document = try cli.run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/lab-report-cbc-ferritin.pdf", "--note", "-", "--json"],
                                   Self.env, stdin: "results discussed with Dr. Lee")
        #expect(document.stdout.contains("\"note\" : \"results discussed with Dr. Lee\""), "\(document.output)")

        let logged = try cli.run(["log", "water", "250ml", "--note", "-", "--json"], Self.env, stdin: "after the dialysis session")
        #expect(logged.stdout.contains("after the dialysis session"), "\(logged.output)")
        // One value per command; the rule is refused, not guessed, for a second one.
        let two = try cli.run(["condition", "add", "-", "--notes", "-"], Self.env, stdin: "x")
        #expect(two.status == 64)
        #expect(two.stderr.hasPrefix("phr: error: -: only one value can be read from standard input\n"), "\(two.stderr)")
        // Outside record text, "-" keeps its meaning (standard output).
        let export = try cli.run(["export", "--out", "-"], Self.env)
        #expect(export.status == 0 && export.stdout.contains("Type 2 diabetes"))
    }

    @Test func textReadFromStandardInputIsNotInTheProcessCommandLine() throws {
        let cli = try CLI(label: "stdin-proc")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.phr)
        process.arguments = ["condition", "add", "-"]
        process.environment = cli.environment.merging(Self.env) { $1 }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // phr now waits for its standard input; what other users can see of it is argv.
        var cmdline = ""
        for _ in 0..<100 {
            cmdline = String(decoding: FileManager.default.contents(atPath: "/proc/\(process.processIdentifier)/cmdline") ?? Data(), as: UTF8.self)
            if cmdline.contains("condition") { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(cmdline.split(separator: "\0").suffix(3) == ["condition", "add", "-"])
        input.fileHandleForWriting.write(Data("Crohn's disease\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(!cmdline.contains("Crohn"))
        #expect(try cli.run(["condition", "list"], Self.env).stdout.contains("Crohn's disease"))
    }
}
