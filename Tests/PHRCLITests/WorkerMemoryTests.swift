import CCDASamples
import Foundation
import Testing

/// A reader that runs out of memory is named as such (issue 37, item 19): a phr-render worker
/// that fills its address space (a debug build's `PHR_TEST_WORKER_EXHAUST=SUBCOMMAND`, the way a
/// parser given a huge or hostile file does) ends the command with one line saying which limit
/// it hit, a hint naming `PHR_READER_MEMORY`, exit 69 and the vault as it was; never "crashed
/// (signal 6)" and a hint to export again. `PHR_READER_MEMORY` sets the limit every reader gets.
@Suite struct WorkerMemoryTests {
    static let env = AppleHealthImportCommandTests.env

    static func exhausting(_ cli: CLI, _ worker: String, _ arguments: [String], memory: String? = nil) throws -> CLI.Result {
        var environment = env.merging(["PHR_TEST_WORKER_EXHAUST": worker]) { $1 }
        if let memory { environment["PHR_READER_MEMORY"] = memory }
        return try cli.run(arguments, environment)
    }

    /// What every memory death says: no signal number, the hint with a larger limit.
    static func expectNamedMemoryDeath(_ result: CLI.Result, limit: String, next: String) {
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("needed more than the \(limit) a reader may use"), "\(result.stderr)")
        #expect(result.stderr.contains("phr: hint: give the readers more memory with PHR_READER_MEMORY=\(next)"), "\(result.stderr)")
        #expect(!result.stderr.contains("signal") && !result.stderr.contains("SIG") && !result.stderr.contains("export again"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("allocate"), "the worker's own stderr stays off the terminal: \(result.stderr)")
    }

    @Test func aCCDAReaderOutOfMemoryIsNamedAndImportsNothing() throws {
        let cli = try CLI(label: "memory-ccda")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let path = "\(cli.directory)/ccd.xml"
        try CCDASampleDocument().xml.write(toFile: path, atomically: true, encoding: .utf8)
        let before = cli.vaultFingerprint()
        let result = try Self.exhausting(cli, "ccda", ["import", path])
        #expect(result.stderr.hasPrefix("phr: error: \(path): reading the XML needed more than the 1 GB a reader may use"), "\(result.stderr)")
        Self.expectNamedMemoryDeath(result, limit: "1 GB", next: "2G")
        #expect(cli.vaultFingerprint() == before)
    }

    @Test func aPhoneExportReaderGetsTheLimitPHRReaderMemorySets() throws {
        let cli = try CLI(label: "memory-apple")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        _ = try AppleHealthImportCommandTests.generate(cli, into: "apple", days: 3, start: "2026-03-01")
        let before = cli.vaultFingerprint()
        let path = "\(cli.directory)/apple/export.zip"
        let result = try Self.exhausting(cli, "health-export", ["import", path], memory: "768M")
        #expect(result.stderr.hasPrefix("phr: error: \(path): reading the Apple Health export needed more than the 768 MB"), "\(result.stderr)")
        Self.expectNamedMemoryDeath(result, limit: "768 MB", next: "2G")
        #expect(cli.vaultFingerprint() == before)
        // The same export imports once the reader behaves, with the limit still set.
        #expect(try cli.run(["import", path], Self.env.merging(["PHR_READER_MEMORY": "768M"]) { $1 }).status == 0)
    }

    @Test func aDrawingWorkerOutOfMemoryIsNamed() throws {
        let cli = try CLI(label: "memory-draw")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let output = "\(cli.directory)/card.pdf"
        let result = try Self.exhausting(cli, "draw", ["emergency", "--pdf", output], memory: "1G")
        #expect(result.stderr.hasPrefix("phr: error: cannot draw the emergency card: it needed more than the 1 GB a reader may use\n"),
                "\(result.stderr)")
        Self.expectNamedMemoryDeath(result, limit: "1 GB", next: "2G")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing is left where the card would go")
    }

    @Test(arguments: ["lots", "100M", "65G", "2X", "-1G"])
    func aLimitOutsideItsRangeIsRefusedByName(_ value: String) throws {
        let cli = try CLI(label: "memory-bad")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let path = "\(cli.directory)/ccd.xml"
        try CCDASampleDocument().xml.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try cli.run(["import", path], Self.env.merging(["PHR_READER_MEMORY": value]) { $1 })
        #expect(result.status == 64)
        #expect(result.stderr == "phr: error: PHR_READER_MEMORY: '\(value)' is not a memory size from 256M to 64G\n"
                    + "phr: hint: unset it for each reader's default, or set a size such as 2G\n")
    }
}
