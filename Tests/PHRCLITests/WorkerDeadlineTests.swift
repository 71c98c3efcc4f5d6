import CCDASamples
import Foundation
import Testing

/// Every one-shot worker runs under one wall-clock deadline (`WorkerClient`, issue 25 item 2):
/// a phr-render that confines itself and then neither reads nor writes (a debug build's
/// `PHR_TEST_WORKER_HANG=SUBCOMMAND`) is killed when the deadline passes (shortened here with
/// `PHR_TEST_WORKER_TIMEOUT`), and the command fails with one line naming the file and the
/// deadline, nothing written. Before, the phone-export reader had no deadline at all: such a
/// worker held `phr import` (and the vault's write lock) for as long as it liked.
@Suite struct WorkerDeadlineTests {
    static let env = AppleHealthImportCommandTests.env

    /// Runs `arguments` with `worker` made to hang and a 2-second deadline; returns the result
    /// and how long it took.
    static func hanging(_ cli: CLI, _ worker: String, _ arguments: [String]) throws -> (CLI.Result, Double) {
        let started = Date()
        let result = try cli.run(arguments, env.merging(["PHR_TEST_WORKER_HANG": worker, "PHR_TEST_WORKER_TIMEOUT": "2"]) { $1 })
        return (result, Date().timeIntervalSince(started))
    }

    @Test func aPhoneExportReaderThatHangsIsStoppedAtItsDeadline() throws {
        let cli = try CLI(label: "deadline-apple")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        _ = try AppleHealthImportCommandTests.generate(cli, into: "apple", days: 3, start: "2026-03-01")
        let before = cli.vaultFingerprint()
        let path = "\(cli.directory)/apple/export.zip"
        let (result, seconds) = try Self.hanging(cli, "health-export", ["import", path])
        #expect(result.status != 0)
        #expect(seconds < 30, "the worker was not stopped: \(seconds) s")
        #expect(result.stderr.hasPrefix("phr: error: \(path): "), "\(result.stderr)")
        #expect(result.stderr.contains("reading it took longer than 2 seconds"), "\(result.stderr)")
        #expect(cli.vaultFingerprint() == before)
        // The same export imports once the worker behaves.
        #expect(try cli.run(["import", path], Self.env).status == 0)
    }

    @Test func aTakeoutReaderThatHangsIsStoppedAtItsDeadline() throws {
        let cli = try CLI(label: "deadline-fit")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        _ = try GoogleFitImportCommandTests.generate(cli, into: "fit", days: 3)
        let before = cli.vaultFingerprint()
        let path = "\(cli.directory)/fit/takeout.zip"
        let (result, seconds) = try Self.hanging(cli, "fit-takeout", ["import", path])
        #expect(result.status != 0)
        #expect(seconds < 30, "the worker was not stopped: \(seconds) s")
        #expect(result.stderr.contains("reading it took longer than 2 seconds"), "\(result.stderr)")
        #expect(cli.vaultFingerprint() == before)
    }

    @Test func aCCDAReaderThatHangsIsStoppedAtItsDeadline() throws {
        let cli = try CLI(label: "deadline-ccda")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let path = "\(cli.directory)/ccd.xml"
        try CCDASampleDocument().xml.write(toFile: path, atomically: true, encoding: .utf8)
        let before = cli.vaultFingerprint()
        let (result, seconds) = try Self.hanging(cli, "ccda", ["import", path])
        #expect(result.status != 0)
        #expect(seconds < 30, "the worker was not stopped: \(seconds) s")
        #expect(result.stderr.hasPrefix("phr: error: \(path): "), "\(result.stderr)")
        #expect(result.stderr.contains("reading it took longer than 2 seconds"), "\(result.stderr)")
        #expect(cli.vaultFingerprint() == before)
    }

    @Test func aDrawingWorkerThatHangsIsStoppedAtItsDeadline() throws {
        let cli = try CLI(label: "deadline-draw")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let output = "\(cli.directory)/card.pdf"
        let (result, seconds) = try Self.hanging(cli, "draw", ["emergency", "--pdf", output])
        #expect(result.status != 0)
        #expect(seconds < 30, "the worker was not stopped: \(seconds) s")
        #expect(result.stderr.contains("the process drawing the emergency card took longer than 2 seconds"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing is left where the card would go")
    }
}
