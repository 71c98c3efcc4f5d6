import Foundation
import Testing

/// A vault phr may only read (read-only media, a snapshot, no write permission) can be checked
/// and read. As root, permissions do not stop writes, so the vault is bind-mounted read-only in
/// a private mount namespace (unshare -m); as another user, its files lose their write bits.
@Suite struct ReadOnlyVaultTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple"]

    /// Runs `phr arguments` with the vault read-only.
    static func runReadOnly(_ cli: CLI, _ arguments: [String]) throws -> CLI.Result {
        if geteuid() == 0 {
            let command = "mount --bind -o ro '\(cli.vault)' '\(cli.vault)' && exec '\(CLI.phr)' \(arguments.map { "'\($0)'" }.joined(separator: " "))"
            return try cli.run(["-m", "/bin/sh", "-c", command], env, executable: "/usr/bin/unshare")
        }
        return try cli.run(arguments, env)
    }

    @Test func checkAndReadsWorkOnAReadOnlyVault() throws {
        let cli = try CLI(label: "rovault")
        defer {
            _ = try? cli.run(["-R", "u+w", cli.vault], executable: "/bin/chmod")
            cli.cleanUp()
        }
        _ = try cli.initVault()
        #expect(try cli.run(["condition", "add", "Asthma"], Self.env).status == 0)
        #expect(try cli.run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf"], Self.env).status == 0)
        if geteuid() != 0 { _ = try cli.run(["-R", "a-w", cli.vault], executable: "/bin/chmod") }
        let before = cli.vaultFingerprint()

        let check = try Self.runReadOnly(cli, ["check"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("ok: "), "\(check.stdout)")
        #expect(check.stdout.contains("2 full-text indexes consistent"), "\(check.stdout)")
        let list = try Self.runReadOnly(cli, ["condition", "list"])
        #expect(list.status == 0 && list.stdout.contains("Asthma"), "\(list.stderr)")
        // A write is refused as an I/O error, not a crash.
        let add = try Self.runReadOnly(cli, ["condition", "add", "Hay fever"])
        #expect(add.status == 74, "\(add.stderr)")
        #expect(cli.vaultFingerprint() == before)
    }
}
