import Foundation
import Glibc
import Testing

/// A path given as input that is not a regular file (a FIFO without a writer, a device that
/// never ends) is refused at once, by name, wherever phr opens one: `doc add` did so already,
/// `import` and `appt import` hung in open(2) on a FIFO (issue 37, item 8).
@Suite struct InputFileCommandTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple"]
    static let hint = "phr: hint: give the path of a file; to read from a pipe, save it to a file first\n"

    /// Renames `from` to the path whose bytes are `to`.
    static func rename(_ from: String, to: [UInt8]) -> Bool {
        (to.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { Glibc.rename(from, $0.baseAddress!) } == 0
    }

    /// Issue 37, item 13: names that are not UTF-8 (Latin-1 "café", 0xE9) broke `phr import`
    /// ("no such file") and silently dropped Takeout files (counted as links). They open as the
    /// bytes they are, and messages show them escaped.
    @Test func namesThatAreNotUTF8AreImported() throws {
        let cli = try CLI(label: "input-latin1")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let env = Self.env.merging(["TZ": "Europe/Berlin", "PHR_TEST_NOW": "2026-11-21T12:00:00Z"]) { $1 }
        let base = Array(cli.directory.utf8)
        // A FHIR bundle and a calendar, each named "café".
        let bundle = "\(cli.directory)/bundle.json"
        try #"{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"Condition","code":{"text":"Asthma"}}}]}"#
            .write(toFile: bundle, atomically: true, encoding: .utf8)
        let latinBundle = base + Array("/caf".utf8) + [0xE9] + Array(".json".utf8)
        try #require(Self.rename(bundle, to: latinBundle))
        let imported = DocumentAddHardeningTests.runRaw(cli, [Array("import".utf8), latinBundle], extra: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported \(cli.directory)/caf\\xE9.json (FHIR R4 Bundle (collection)) into profile me\n"), "\(imported.stdout)")
        let calendar = "\(cli.directory)/visit.ics"
        try "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\nBEGIN:VEVENT\nUID:latin-1\nDTSTART:20261203T093000Z\nSUMMARY:Dr. Lee\nEND:VEVENT\nEND:VCALENDAR\n"
            .write(toFile: calendar, atomically: true, encoding: .utf8)
        let latinCalendar = base + Array("/rendez-vous-caf".utf8) + [0xE9] + Array(".ics".utf8)
        try #require(Self.rename(calendar, to: latinCalendar))
        let scheduled = DocumentAddHardeningTests.runRaw(cli, [Array("appt".utf8), Array("import".utf8), latinCalendar], extra: env)
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        #expect(scheduled.stdout.contains("appointments   1 added"), "\(scheduled.stdout)")

        // A Takeout folder whose own name, and one session file's, are Latin-1: every night is kept.
        let expected = try GoogleFitImportCommandTests.generate(cli, into: "fit", days: 3)
        let sessions = "\(cli.directory)/fit/Takeout/Fit/All Sessions"
        let night = try #require(try FileManager.default.contentsOfDirectory(atPath: sessions).sorted().first { $0.hasSuffix("_SLEEP.json") })
        try #require(Self.rename("\(sessions)/\(night)", to: Array("\(sessions)/".utf8) + Array(night.dropLast(5).utf8) + [0xE9] + Array(".json".utf8)))
        let folder = base + Array("/fit/Takeout-".utf8) + [0xE9]
        try #require(Self.rename("\(cli.directory)/fit/Takeout", to: folder))
        let fit = DocumentAddHardeningTests.runRaw(cli, [Array("import".utf8), folder], extra: env)
        #expect(fit.status == 0, "\(fit.stderr)")
        #expect(!fit.stdout.contains("link"), "nothing is taken for a link or a special file: \(fit.stdout)")
        try GoogleFitImportCommandTests.expectTotals(cli, expected)
    }

    @Test func importsRefuseWhatIsNotAFile() throws {
        let cli = try CLI(label: "input-files")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let fifo = "\(cli.directory)/export.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let cases: [([String], String, String)] = [
            (["import", fifo], fifo, "a FIFO"),
            (["import", fifo, "--dry-run"], fifo, "a FIFO"),
            (["appt", "import", fifo], fifo, "a FIFO"),
            (["import", "/dev/zero"], "/dev/zero", "a character device"),
            (["appt", "import", "/dev/null"], "/dev/null", "a character device"),
        ]
        for (arguments, path, what) in cases {
            let started = Date()
            let result = try cli.run(arguments, Self.env, timeout: 30)
            #expect(Date().timeIntervalSince(started) < 10, "\(arguments) took too long")
            #expect(result.status == 66, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "phr: error: \(path): not a regular file (\(what))\n" + Self.hint, "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try cli.run(["check"], Self.env).status == 0)
    }
}
