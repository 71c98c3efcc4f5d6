import Foundation
import Testing

/// No command writes a file inside the vault directory: not by its path, not through a symbolic
/// link to a vault file (existing or not yet), not through a linked parent directory. Each
/// refusal is exit 64 with the option named, and leaves every vault file as it was.
@Suite struct OutputPathTests {
    static let passphrase = "correct horse battery staple"
    static let env = ["PHR_PASSPHRASE": passphrase]

    /// Every command that writes a file, with `path` as the file.
    static func commands(_ path: String, document: String) -> [[String]] {
        [
            ["export", "--out", path, "--force"],
            ["doc", "export", document, "--out", path],
            ["share", "--for", "Dr Example", "--out", path, "--force"],
            ["share", "--for", "Dr Example", "--out", "share.pdf", "--fhir", path, "--force"],
            ["report", "--out", path, "--force"],
            ["emergency", "--pdf", path, "--force"],
            ["backup", "--out", path, "--force"],
            ["appt", "export", "--ics", path, "--force"],
        ]
    }

    @Test func everyOutputOptionRefusesPathsInsideTheVault() throws {
        let cli = try CLI(label: "outpath")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["condition", "add", "Asthma"], Self.env).status == 0)
        let add = try cli.run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf", "--json"], Self.env)
        let document = try #require(add.stdout.firstMatch(of: /"id" : "([a-z0-9]+)"/)?.1).description

        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: "\(cli.directory)/to-db", withDestinationPath: "\(cli.vault)/vault.db")
        try fm.createSymbolicLink(atPath: "\(cli.directory)/to-new", withDestinationPath: "vault/blobs/new-file")
        try fm.createSymbolicLink(atPath: "\(cli.directory)/vault-link", withDestinationPath: cli.vault)
        let paths = ["\(cli.vault)/vault.db", "vault/keys.json", "vault/new.out", "./vault/../vault/blobs/x", "to-db", "to-new",
                     "vault-link/fresh.out", cli.vault]
        let before = cli.vaultFingerprint()
        for path in paths {
            for command in Self.commands(path, document: document) {
                let result = try cli.run(command, Self.env)
                let shown = "phr \(command.joined(separator: " "))"
                #expect(result.status == 64, "\(shown): \(result.stderr)")
                #expect(result.stderr.contains("is inside the vault"), "\(shown): \(result.stderr)")
                #expect(result.stderr.contains("phr: hint: choose a path outside the vault directory"), "\(shown)")
            }
        }
        #expect(cli.vaultFingerprint() == before, "a refused command changed the vault")
        #expect(!fm.fileExists(atPath: "\(cli.vault)/blobs/new-file"))
        #expect(!fm.fileExists(atPath: "\(cli.directory)/share.pdf"), "share stopped before writing anything")

        // The same commands write outside the vault as before.
        for (index, command) in Self.commands("\(cli.directory)/out-\(0)", document: document).enumerated() {
            let adjusted = command.map { $0 == "\(cli.directory)/out-0" ? "\(cli.directory)/out-\(index)" : $0 }
            let result = try cli.run(adjusted, Self.env)
            #expect(result.status == 0, "phr \(adjusted.joined(separator: " ")): \(result.stderr)")
        }
    }
}
