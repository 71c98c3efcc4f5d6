import Foundation
import Testing

/// Commands interrupted where they are most fragile (debug builds pause at named points with
/// `PHR_TEST_PAUSE`, see `TestPause`), and what the vault and the disk look like afterwards:
/// no plaintext left beside an export, no lost document, and every leftover found by `phr check`
/// and removed by `phr check --repair`.
@Suite struct InterruptionTests {
    static let passphrase = "correct horse battery staple"
    static let samples = "\(CLI.packageRoot)/Samples/documents"
    static var env: [String: String] { ["PHR_PASSPHRASE": passphrase] }

    /// A phr process started in the background.
    final class Running {
        let process = Process()
        let stderr = Pipe()
        let stdout = Pipe()

        /// Starts `phr arguments` in the background; its stdout goes to `stdout` when
        /// `capturingOutput` (read it only after the process ends, or it may fill the pipe).
        init(_ cli: CLI, _ arguments: [String], _ extra: [String: String], capturingOutput: Bool = false) throws {
            process.executableURL = URL(fileURLWithPath: CLI.phr)
            process.arguments = arguments
            var environment = cli.environment
            for (key, value) in extra { environment[key] = value }
            process.environment = environment
            process.currentDirectoryURL = URL(fileURLWithPath: cli.directory)
            process.standardOutput = capturingOutput ? stdout : FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            process.standardError = stderr
            try process.run()
        }

        /// Reads stderr until the pause line; returns what was read.
        func waitForPause(seconds: Double = 60) -> String {
            var text = ""
            let handle = stderr.fileHandleForReading
            let deadline = Date().addingTimeInterval(seconds)
            while !text.contains("phr-test: paused at"), Date() < deadline {
                let data = handle.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }

        /// Sends `signal` and waits for the process to end; returns how it ended.
        @discardableResult
        func stop(with signal: Int32) -> Int32 {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// A batch interrupted after its first document was committed has already said so on
    /// stdout (not a pipe's worth of lines lost with the process): a script knows what went in.
    @Test func anInterruptedBatchHasReportedWhatItCommitted() throws {
        let cli = try CLI(label: "add-interrupted")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        // Killed right after the first file's line. The second file, far shorter, is often done
        // first on the other worker: its line waits for the first one's.
        let running = try Running(cli, ["doc", "add", "\(CLI.packageRoot)/Samples/lab-reports/lab-report-multi-page.pdf",
                                        "\(Self.samples)/referral-letter-el.pdf"],
                                  Self.env.merging(["PHR_TEST_PAUSE": "reported"]) { $1 }, capturingOutput: true)
        let paused = running.waitForPause()
        #expect(paused.contains("phr-test: paused at reported"), "\(paused)")
        running.stop(with: SIGKILL)
        let text = String(decoding: running.stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(text)")
        let first = try #require(lines.first)
        #expect(first.hasPrefix("added ") && first.contains(" lab \"") && first.contains("3 pages"), "\(text)")
        let id = String(first.dropFirst("added ".count).prefix(6))
        let list = try cli.run(["doc", "list", "--json"], Self.env)
        #expect(list.stdout.contains("\"id\" : \"\(id)\""), "\(list.stdout)")
    }

    /// Every entry of `directory`, hidden ones included.
    static func entries(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    static func addSample(_ cli: CLI, _ name: String = "lab-report-cbc-ferritin.pdf") throws -> String {
        let add = try cli.run(["doc", "add", "\(samples)/\(name)", "--json"], env)
        #expect(add.status == 0, "\(add.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(add.stdout.utf8)) as? [[String: Any]])
        return try #require((results.first?["document"] as? [String: Any])?["id"] as? String)
    }

    /// The exporting commands, each writing into `directory`.
    static func exports(_ document: String, into directory: String) -> [(name: String, arguments: [String])] {
        [
            ("doc export", ["doc", "export", document, "--out", "\(directory)/document.pdf"]),
            ("share", ["share", "--for", "Dr. Test", "--out", "\(directory)/bundle.pdf", "--doc", document]),
            ("share --fhir", ["share", "--for", "Dr. Test", "--out", "\(directory)/bundle2.pdf", "--fhir", "\(directory)/ips.json"]),
            ("report", ["report", "--days", "30", "--out", "\(directory)/report.pdf"]),
            ("emergency --pdf", ["emergency", "--pdf", "\(directory)/card.pdf"]),
            ("export", ["export", "--out", "\(directory)/records.json"]),
            ("appt export", ["appt", "export", "--ics", "\(directory)/appointments.ics"]),
            ("backup", ["backup", "--out", "\(directory)/vault.phrbak"]),
        ]
    }

    @Test func interruptedExportsLeaveNoFileBehind() throws {
        let cli = try CLI(label: "interrupt")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let document = try Self.addSample(cli)
        #expect(try cli.run(["appt", "add", "--with", "Dr. Test", "--at", "2030-01-02 10:00"], Self.env).status == 0)
        let directory = "\(cli.directory)/out"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, arguments) in Self.exports(document, into: directory) {
            for signal in [SIGINT, SIGTERM, SIGKILL] {
                let running = try Running(cli, arguments, Self.env.merging(["PHR_TEST_PAUSE": "output"]) { $1 })
                let said = running.waitForPause()
                #expect(said.contains("paused at output"), "\(name): \(said)")
                running.stop(with: signal)
                #expect(Self.entries(directory).isEmpty, "\(name), signal \(signal): \(Self.entries(directory))")
            }
        }
    }

    /// Where unnamed files cannot be made: a signal removes the named temporary at once; after
    /// SIGKILL the next phr command (any) removes it.
    @Test func namedTemporariesAreRemovedBySignalsOrByTheNextCommand() throws {
        let cli = try CLI(label: "interrupt")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let document = try Self.addSample(cli)
        let directory = "\(cli.directory)/out"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let named = Self.env.merging(["PHR_TEST_NAMED_TEMPORARIES": "1"]) { $1 }
        for (name, arguments) in Self.exports(document, into: directory) {
            for signal in [SIGINT, SIGTERM] {
                let running = try Running(cli, arguments, named.merging(["PHR_TEST_PAUSE": "output"]) { $1 })
                #expect(running.waitForPause().contains("paused at output"), "\(name)")
                let left = Self.entries(directory)
                #expect(left.count == 1 && left[0].hasPrefix(".") && left[0].hasSuffix(".tmp"), "\(name): the partial file is hidden: \(left)")
                running.stop(with: signal)
                #expect(Self.entries(directory).isEmpty, "\(name), signal \(signal): \(Self.entries(directory))")
            }
            let running = try Running(cli, arguments, named.merging(["PHR_TEST_PAUSE": "output"]) { $1 })
            #expect(running.waitForPause().contains("paused at output"), "\(name)")
            running.stop(with: SIGKILL)
            #expect(Self.entries(directory).count == 1, "\(name): SIGKILL leaves the temporary")
            #expect(try cli.run(["--version"]).status == 0)
            #expect(Self.entries(directory).isEmpty, "\(name): the next phr command removed \(Self.entries(directory))")
        }
        // A finished export is never touched.
        #expect(try cli.run(["doc", "export", document, "--out", "\(directory)/kept.pdf"], named).status == 0)
        #expect(try cli.run(["--version"]).status == 0)
        #expect(Self.entries(directory) == ["kept.pdf"])
    }

    /// The race the hostile test found: `doc rm` waiting for the blob lock (a backup holds it)
    /// while `doc add` of the same file registers the blob again. The removal must not delete
    /// the new document's original.
    @Test func removingAndAddingTheSameContentNeverLosesTheOriginal() throws {
        let cli = try CLI(label: "race")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let file = "\(Self.samples)/prescription-amoxicillin.pdf"
        let first = try Self.addSample(cli, "prescription-amoxicillin.pdf")
        // Hold blobs/ as a running backup does.
        let lock = open("\(cli.vault)/blobs", O_RDONLY)
        #expect(flock(lock, LOCK_SH) == 0)
        // The removal has committed and not yet touched blobs/ when the same file is added
        // again; it goes on only once that add has registered the blob.
        let go = "\(cli.directory)/go"
        let remove = try Running(cli, ["doc", "rm", first, "--yes"],
                                 Self.env.merging(["PHR_TEST_PAUSE": "removal-committed", "PHR_TEST_PAUSE_UNTIL": go]) { $1 })
        let paused = remove.waitForPause()
        #expect(paused.contains("paused at removal-committed"), "\(paused)")
        let add = try cli.run(["doc", "add", file, "--json"], Self.env)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        // The backup still holds blobs/ when the removal goes on to remove the blob file.
        remove.process.waitUntilExit()
        close(lock)
        #expect(remove.process.terminationStatus == 0)
        let said = paused + String(decoding: remove.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("its encrypted original stays in blobs/"), "doc rm says the original was left for later: \(said)")
        let second = try #require(((try JSONSerialization.jsonObject(with: Data(add.stdout.utf8)) as? [[String: Any]])?.first?["document"] as? [String: Any])?["id"] as? String)
        #expect(second != first)
        let exported = "\(cli.directory)/exported.pdf"
        let export = try cli.run(["doc", "export", second, "--out", exported], Self.env)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(CLI.sha256(exported) == CLI.sha256(file))
        let check = try cli.run(["check", "--repair"], Self.env)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(try cli.run(["doc", "export", second, "--out", "\(exported)2"], Self.env).status == 0, "repair kept the original")
    }

    /// A stack of interrupted commands, then `phr check` finds what they left and
    /// `phr check --repair` removes it, never touching what a record uses.
    @Test func checkRepairRemovesWhatInterruptedCommandsLeft() throws {
        let cli = try CLI(label: "leftovers")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let kept = try Self.addSample(cli, "insurance-card.pdf")
        let removed = try Self.addSample(cli, "vaccination-record.pdf")
        #expect(try cli.run(["backup", "--out", "\(cli.directory)/good.phrbak"], Self.env).status == 0)
        // A large file, so that its encrypted write is under way in blobs/tmp/.
        let large = "\(cli.directory)/large.pdf"
        var bytes = Array("%PDF-1.4\n".utf8)
        var generator = SystemRandomNumberGenerator()
        bytes += (0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(FileManager.default.createFile(atPath: large, contents: Data(bytes)))

        let interrupted: [([String], String)] = [
            (["doc", "add", "\(Self.samples)/discharge-summary.pdf"], "blob-stored"),
            (["doc", "add", large], "blob-part"),
            (["doc", "rm", removed, "--yes"], "removal-committed"),
            (["backup", "--out", "\(cli.directory)/killed.phrbak"], "output"),
            (["restore", "\(cli.directory)/good.phrbak", "--vault", "\(cli.directory)/restored"], "staged"),
            (["init", "--vault", "\(cli.directory)/second"], "staged"),
        ]
        let passphraseFile = try cli.passphraseFile(Self.passphrase)
        for (arguments, point) in interrupted {
            let running = try Running(cli, arguments, Self.env.merging(["PHR_TEST_PAUSE": point, "PHR_PASSPHRASE_FILE": passphraseFile]) { $1 })
            #expect(running.waitForPause().contains("paused at \(point)"), "\(arguments)")
            running.stop(with: SIGKILL)
        }
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/killed.phrbak"))
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/restored"))
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/second"))
        let staging = Self.entries(cli.directory).filter { $0.hasPrefix(".phr-") }
        #expect(staging.count == 2, "\(staging)")

        let check = try cli.run(["check", "--json"], Self.env)
        #expect(check.status == 0, "leftovers are warnings, not damage: \(check.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let leftovers = try #require(report["leftovers"] as? [String: Any])
        #expect((leftovers["orphan_blobs"] as? [String])?.count == 2, "the stored discharge summary and the removed vaccination record: \(leftovers)")
        #expect(leftovers["unfinished_blob_writes"] as? Int == 1)
        #expect((leftovers["staging_directories"] as? [String])?.count == 2)
        #expect(check.stderr.contains("'phr check --repair' removes them"))

        // Not while another phr process writes.
        let lock = open("\(cli.vault)/blobs", O_RDONLY)
        #expect(flock(lock, LOCK_SH) == 0)
        let busy = try cli.run(["check", "--repair"], Self.env)
        #expect(busy.status == 0)
        #expect(busy.stderr.contains("another phr process is writing"))
        close(lock)
        #expect(Self.entries(cli.directory).filter { $0.hasPrefix(".phr-") }.count == 2, "nothing removed while busy")

        let repair = try cli.run(["check", "--repair"], Self.env)
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stderr.contains("removed"))
        #expect(Self.entries(cli.directory).filter { $0.hasPrefix(".phr-") }.isEmpty)
        #expect(Self.entries("\(cli.vault)/blobs/tmp").isEmpty)
        let after = try cli.run(["check"], Self.env)
        #expect(after.status == 0 && after.stderr.isEmpty, "\(after.stderr)")
        #expect(try cli.run(["doc", "export", kept, "--out", "\(cli.directory)/kept.pdf"], Self.env).status == 0)
        #expect(try cli.run(["doc", "show", removed], Self.env).status == 66, "the removal was committed")
    }

    /// The crash-safety rounds for `doc rm`, `backup` and `restore`: killed at random moments,
    /// and in every other round at a named point in the middle of their work (the removal
    /// committed but its blob not removed, the backup's first bytes written, the restore staged
    /// but not renamed), each leaves a vault that passes `phr check` with the command either done
    /// or not done.
    @Test func killedRemovalsBackupsAndRestoresLeaveAWholeVault() throws {
        let cli = try CLI(label: "killed")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        var documents: [String] = []
        for name in ["prescription-amoxicillin.pdf", "insurance-card.pdf", "lab-report-cbc-ferritin.pdf", "discharge-summary.pdf",
                     "vaccination-record.pdf", "referral-letter-el.pdf", "imaging-report-chest-xray.pdf"] {
            documents.append(try Self.addSample(cli, name))
        }
        #expect(try cli.run(["backup", "--out", "\(cli.directory)/base.phrbak"], Self.env).status == 0)
        var generator = SystemRandomNumberGenerator()
        var pausedKills = 0
        var randomKills = 0
        for round in 0..<6 {
            let delay = Double.random(in: 0.005...0.1, using: &generator)
            let commands: [(arguments: [String], point: String)] = [
                (["doc", "rm", documents[round], "--yes"], "removal-committed"),
                (["backup", "--out", "\(cli.directory)/round\(round).phrbak"], "output"),
                (["restore", "\(cli.directory)/base.phrbak", "--vault", "\(cli.directory)/restored\(round)"], "staged"),
            ]
            let atPoint = round % 2 == 0
            for (arguments, point) in commands {
                let running = try Running(cli, arguments, atPoint ? Self.env.merging(["PHR_TEST_PAUSE": point]) { $1 } : Self.env)
                if atPoint {
                    let said = running.waitForPause()
                    #expect(said.contains("paused at \(point)"), "round \(round) \(arguments[0]): \(said)")
                } else {
                    // The random moment is the point of these rounds, not a wait for something.
                    Thread.sleep(forTimeInterval: delay)
                }
                running.stop(with: SIGKILL)
                if running.process.terminationReason == .uncaughtSignal {
                    if atPoint { pausedKills += 1 } else { randomKills += 1 }
                }
                let check = try cli.run(["check"], Self.env)
                #expect(check.status == 0, "round \(round) \(arguments[0]): \(check.stderr)")
            }
            // The removal happened or did not; either way the vault is whole.
            let show = try cli.run(["doc", "show", documents[round]], Self.env)
            #expect(show.status == 0 || show.status == 66)
            if show.status == 0 {
                #expect(try cli.run(["doc", "export", documents[round], "--out", "\(cli.directory)/e\(round).pdf"], Self.env).status == 0)
            }
            // A backup is whole or absent.
            let backup = "\(cli.directory)/round\(round).phrbak"
            if FileManager.default.fileExists(atPath: backup) {
                let restore = try cli.run(["restore", backup, "--vault", "\(cli.directory)/from\(round)"], Self.env)
                #expect(restore.status == 0, "round \(round): \(restore.stderr)")
            }
            // A restore is whole or absent.
            let restored = "\(cli.directory)/restored\(round)"
            if FileManager.default.fileExists(atPath: restored) {
                #expect(try cli.run(["check", "--vault", restored], Self.env).status == 0)
            }
            #expect(Self.entries(cli.directory).filter { $0.hasPrefix(".") && $0.contains("phrbak") }.isEmpty)
        }
        // Every paused command was killed in the middle of its work; the random kills say how
        // many landed before their command finished.
        #expect(pausedKills == 9, "\(pausedKills) of 9 paused commands were killed mid-work")
        print("killed rounds: 9 at named points, \(randomKills) of 9 random kills before the command finished")
        let repair = try cli.run(["check", "--repair"], Self.env)
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(Self.entries(cli.directory).filter { $0.hasPrefix(".phr-") }.isEmpty)
    }

    /// A large document's text staged in the database by a killed `doc add` is a leftover that
    /// `phr check --repair` removes (the check opens the database for writing only then).
    @Test func stagedTextOfAKilledAddIsRemovedByRepair() throws {
        let cli = try CLI(label: "staged")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let large = try TextHeavyPDF.write(pages: 900, to: "\(cli.directory)/long.pdf", variant: 3)
        let running = try Running(cli, ["doc", "add", large], Self.env.merging(["PHR_TEST_PAUSE": "text-staged"]) { $1 })
        #expect(running.waitForPause().contains("paused at text-staged"))
        running.stop(with: SIGKILL)
        let check = try cli.run(["check", "--json"], Self.env)
        #expect(check.status == 0, "\(check.stderr)")
        let leftovers = try #require((try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])?["leftovers"] as? [String: Any])
        #expect((leftovers["staged_pages"] as? Int ?? 0) > 100, "\(leftovers)")
        let repair = try cli.run(["check", "--repair"], Self.env)
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stderr.contains("page(s) of text staged") && repair.stderr.contains("removed"), "\(repair.stderr)")
        let after = try cli.run(["check"], Self.env)
        #expect(after.status == 0 && after.stderr.isEmpty, "\(after.stderr)")
        // The same file added again now is whole.
        let add = try cli.run(["doc", "add", large], Self.env)
        #expect(add.status == 0 && add.stdout.contains("900 pages"), "\(add.stdout)\(add.stderr)")
    }
}
