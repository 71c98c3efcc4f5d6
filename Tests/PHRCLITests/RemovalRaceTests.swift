import Foundation
import Testing

/// A document removed by one phr command while another reads it: the reader stores nothing for
/// it and says so, instead of failing the batch with a raw "FOREIGN KEY constraint failed"
/// (`doc reindex`) or saving results of a report that is gone (`lab extract --yes`) (issue 37,
/// items 11 and 12). The reader pauses at a named point (`PHR_TEST_PAUSE`) until the test has
/// removed the document (`PHR_TEST_PAUSE_UNTIL`).
@Suite struct RemovalRaceTests {
    static var env: [String: String] { InterruptionTests.env }

    /// Runs `arguments` paused at `point`, removes `document` meanwhile, lets it go on; returns
    /// its exit status and stderr.
    static func race(_ cli: CLI, _ arguments: [String], pausedAt point: String, removing document: String,
                     withResults: Bool = false) throws -> (status: Int32, stderr: String) {
        let go = "\(cli.directory)/go-\(point)"
        let running = try InterruptionTests.Running(cli, arguments, env.merging(["PHR_TEST_PAUSE": point, "PHR_TEST_PAUSE_UNTIL": go]) { $1 })
        let paused = running.waitForPause()
        #expect(paused.contains("phr-test: paused at \(point)"), "\(paused)")
        let remove = try cli.run(["doc", "rm", document, "--yes"] + (withResults ? ["--with-results"] : []), env)
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(FileManager.default.createFile(atPath: go, contents: Data()))
        let rest = running.stderr.fileHandleForReading.readDataToEndOfFile()
        running.process.waitUntilExit()
        return (running.process.terminationStatus, paused + String(decoding: rest, as: UTF8.self))
    }

    @Test func reindexSkipsADocumentRemovedWhileItWasRead() throws {
        let cli = try CLI(label: "race-reindex")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: InterruptionTests.passphrase)
        let id = try InterruptionTests.addSample(cli)
        let (status, stderr) = try Self.race(cli, ["doc", "reindex", id], pausedAt: "document-read", removing: id)
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("phr: document \(id) was removed while it was being read; nothing was stored for it\n"), "\(stderr)")
        #expect(!stderr.contains("FOREIGN KEY"))
        #expect(try cli.run(["check"], Self.env).status == 0)
        #expect(try cli.run(["search", "ferritin"], Self.env).stdout.isEmpty, "nothing of the removed document is searchable")
    }

    @Test func labExtractSavesNothingForAReportRemovedMeanwhile() throws {
        let cli = try CLI(label: "race-lab")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: InterruptionTests.passphrase)
        let id = try InterruptionTests.addSample(cli, "lab-report-cbc-ferritin.pdf")
        let (status, stderr) = try Self.race(cli, ["lab", "extract", id, "--yes"], pausedAt: "results-read", removing: id, withResults: true)
        #expect(status == 66, "\(stderr)")
        #expect(stderr.contains("phr: error: document \(id) was removed while it was being read; nothing was saved\n"), "\(stderr)")
        #expect(try cli.run(["lab", "list", "--json"], Self.env).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]"
                    || !(try cli.run(["lab", "list", "--json"], Self.env).stdout.contains("\"id\"")))
        #expect(try cli.run(["check"], Self.env).status == 0)
    }
}
