import Foundation
import Testing

/// The rollback journal under SIGKILL: a writer is killed at random moments, again and again;
/// after each kill `phr check` passes and every commit the writer reported is in the vault.
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
            let reported = try Self.runAndKill(cli, start: next, rowsPerTransaction: rows,
                                               milliseconds: Int.random(in: 60...400, using: &generator))
            committed += reported
            next += 10_000
            if FileManager.default.fileExists(atPath: "\(cli.vault)/vault.db-journal") { killedWithJournal += 1 }
            let check = try cli.run(["check"], ["PHR_PASSPHRASE": Self.passphrase])
            #expect(check.status == 0, "round \(round): \(check.stderr)")
            let present = try Self.presentSequences(cli)
            let missing = Set(committed).subtracting(present)
            #expect(missing.isEmpty, "round \(round): commits lost: \(missing.sorted().prefix(5))")
        }
        #expect(committed.count > 24, "the writer committed often enough to be interrupted mid-way")
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
