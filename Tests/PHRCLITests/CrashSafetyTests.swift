import Foundation
import Testing

/// The rollback journal under SIGKILL: a writer is killed at random moments, again and again,
/// and in six rounds inside an open transaction whose pages are journaled; after each kill
/// `phr check` passes, every commit the writer reported is in the vault, and the transaction it
/// was killed in is not.
@Suite struct CrashSafetyTests {
    static let passphrase = "correct horse battery staple"

    /// Starts the writer, lets it run for `milliseconds`, SIGKILLs it, returns the commits it
    /// reported on stdout.
    static func runAndKill(_ cli: CLI, start: Int, rowsPerTransaction: Int, milliseconds: Int) throws -> [Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(CLI.binDirectory)/phr-crash-writer")
        process.arguments = [cli.vault, String(start), String(rowsPerTransaction)]
        var env = cli.environment
        env["PHR_PASSPHRASE"] = passphrase
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the writer was killed, not finished")
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
        }
    }

    /// Starts the writer with the order to stop inside transaction `hold`, waits until it says
    /// it is there, and reports whether the rollback journal was on disk at that moment; then
    /// SIGKILLs it. Returns the commits it reported before, and whether the journal was seen.
    static func killInsideTransaction(_ cli: CLI, start: Int, hold: Int) throws -> (commits: [Int], journal: Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(CLI.binDirectory)/phr-crash-writer")
        process.arguments = [cli.vault, String(start), "40"]
        var env = cli.environment
        env["PHR_PASSPHRASE"] = passphrase
        env["PHR_CRASH_WRITER_HOLD"] = String(hold)
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("holding \(hold)\n"), Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        #expect(text.contains("holding \(hold)\n"), "the writer reached transaction \(hold): \(text)")
        let journal = FileManager.default.fileExists(atPath: "\(cli.vault)/vault.db-journal")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let commits = text.split(separator: "\n").compactMap { line in
            line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
        }
        return (commits, journal)
    }

    @Test func killedWritersNeverLoseACommittedTransaction() throws {
        let cli = try CLI(label: "crash")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        var committed: [Int] = []
        var generator = SystemRandomNumberGenerator()
        var next = 0
        var killedWithJournal = 0
        for round in 0..<24 {
            // Alternate small and large transactions so kills land inside journal writes,
            // database page writes and the journal deletion.
            let rows = round % 3 == 0 ? 40 : 1
            var held: Int?
            if round % 4 == 1 {
                // A kill that certainly lands inside a transaction whose pages are journaled.
                let (reported, journal) = try Self.killInsideTransaction(cli, start: next, hold: next + 3)
                #expect(journal, "round \(round): the hot journal was on disk while the transaction was open")
                if journal { killedWithJournal += 1 }
                committed += reported
                held = next + 3
            } else {
                let reported = try Self.runAndKill(cli, start: next, rowsPerTransaction: rows,
                                                   milliseconds: Int.random(in: 60...400, using: &generator))
                committed += reported
                if FileManager.default.fileExists(atPath: "\(cli.vault)/vault.db-journal") { killedWithJournal += 1 }
            }
            next += 10_000
            let check = try cli.run(["check"], ["PHR_PASSPHRASE": Self.passphrase])
            #expect(check.status == 0, "round \(round): \(check.stderr)")
            let present = try Self.presentSequences(cli)
            let missing = Set(committed).subtracting(present)
            #expect(missing.isEmpty, "round \(round): commits lost: \(missing.sorted().prefix(5))")
            if let held {
                #expect(!present.contains(held), "round \(round): the uncommitted transaction \(held) was rolled back")
            }
        }
        #expect(committed.count > 24, "the writer committed often enough to be interrupted mid-way")
        #expect(killedWithJournal >= 6, "at least the six held rounds were killed with a hot journal: \(killedWithJournal)")
        print("crash test: \(committed.count) commits reported, \(killedWithJournal) kills left a hot journal")
    }

    /// The sequence numbers present in the vault (the writer's `--list` mode).
    static func presentSequences(_ cli: CLI) throws -> Set<Int> {
        let result = try cli.run([cli.vault, "--list"], ["PHR_PASSPHRASE": passphrase],
                                 executable: "\(CLI.binDirectory)/phr-crash-writer")
        #expect(result.status == 0, "\(result.stderr)")
        return Set(result.stdout.split(separator: "\n").compactMap { Int($0) })
    }
}
