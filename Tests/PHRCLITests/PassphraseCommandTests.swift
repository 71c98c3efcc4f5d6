import Foundation
import Testing

/// PHR_PASSPHRASE_COMMAND is bounded: a time limit, a 64 KiB output limit, and its whole process
/// group killed afterwards, so no command can hang phr, grow it without end, or outlive it.
@Suite struct PassphraseCommandTests {
    static let passphrase = "correct horse battery staple"

    /// Live (not zombie) processes whose command line contains `marker`.
    static func processes(containing marker: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return line.contains(marker) ? "\(pid): \(line)" : nil
        }
    }

    /// The command gets phr's environment without any passphrase variable (LocalProgram), and
    /// phr still reads its passphrase from it; its stderr reaches the user.
    @Test func theCommandSeesNoPassphraseVariable() throws {
        let cli = try CLI(label: "pwcmd-env")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let seen = "\(cli.directory)/seen"
        let command = "env | grep '^PHR_' > '\(seen)'; echo 'asked for the passphrase' >&2; echo '\(Self.passphrase)'"
        let result = try cli.run(["condition", "list"], ["PHR_PASSPHRASE_COMMAND": command, "PHR_PASSPHRASE": "not the passphrase",
                                                         "PHR_NEW_PASSPHRASE_FILE": "/nonexistent", "PHR_MARKER": "kept"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("asked for the passphrase\n"))
        let variables = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(variables.contains("PHR_MARKER=kept\n"), "\(variables)")
        #expect(!variables.contains("PASSPHRASE"), "\(variables)")
    }

    static func check(_ command: String, marker: String, expect message: String) throws {
        let cli = try CLI(label: "pwcmd")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: passphrase)
        let started = Date()
        let result = try cli.run(["condition", "list"], ["PHR_PASSPHRASE_COMMAND": command,
                                                         "PHR_TEST_PASSPHRASE_COMMAND_TIMEOUT": "2"], timeout: 30)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("phr: error: \(message)\n"), "\(result.stderr)")
        #expect(elapsed < 10, "took \(elapsed) s")
        #expect(processes(containing: marker).isEmpty, "left behind: \(processes(containing: marker))")
    }

    @Test func aHangingCommandTimesOut() throws {
        try Self.check("sleep 1001.5", marker: "sleep 1001.5", expect: "PHR_PASSPHRASE_COMMAND did not finish within 2 seconds")
    }

    @Test func aCommandThatNeverStopsPrintingIsCutOff() throws {
        try Self.check("yes phr-test-yes", marker: "phr-test-yes", expect: "PHR_PASSPHRASE_COMMAND printed more than 64 KiB")
    }

    @Test func aBackgroundChildHoldingThePipeNeitherHangsPhrNorOutlivesIt() throws {
        let cli = try CLI(label: "pwbg")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let started = Date()
        let result = try cli.run(["condition", "list"], ["PHR_PASSPHRASE_COMMAND": "sleep 1002.5 & echo '\(Self.passphrase)'"],
                                 timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(Self.processes(containing: "sleep 1002.5").isEmpty, "left behind: \(Self.processes(containing: "sleep 1002.5"))")
    }
}
