import Foundation
import Testing

/// Output that cannot be written (a full disk, /dev/full) is an I/O error: exit 74 with a message
/// on stderr, never a trap, and whatever the command saved in the vault stays saved.
@Suite struct OutputErrorTests {
    static let passphrase = "correct horse battery staple"

    @Test func commandsWritingToAFullDiskExit74WithAMessage() throws {
        let cli = try CLI(label: "full")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = ["PHR_PASSPHRASE": Self.passphrase]
        #expect(try cli.run(["condition", "add", "Asthma"], env).status == 0)
        #expect(try cli.run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf"], env).status == 0)
        let commands: [[String]] = [
            ["doc", "list"], ["condition", "list"], ["condition", "list", "--json"], ["search", "asthma"],
            ["export", "--out", "-"], ["appt", "export", "--ics", "-"], ["status"], ["emergency"],
            ["--help"], ["condition", "add", "Hay fever"],
        ]
        for command in commands {
            let result = try cli.run(command, env, stdoutFile: "/dev/full")
            #expect(result.status == 74, "phr \(command.joined(separator: " ")): \(result.stderr)")
            #expect(result.stderr.contains("phr: error: cannot write to standard output: no space left on device"),
                    "phr \(command.joined(separator: " ")): \(result.stderr)")
        }
        // The add whose confirmation could not be printed was still saved.
        let list = try cli.run(["condition", "list"], env)
        #expect(list.stdout.contains("Hay fever"))
    }

    @Test func aFullStderrStillFailsTheRun() throws {
        let cli = try CLI(label: "fullerr")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = ["PHR_PASSPHRASE": Self.passphrase]
        let result = try cli.run(["export", "--out", "\(cli.directory)/out.json"], env, stderrFile: "/dev/full")
        #expect(result.status == 74)
        #expect(FileManager.default.fileExists(atPath: "\(cli.directory)/out.json"))
    }
}
