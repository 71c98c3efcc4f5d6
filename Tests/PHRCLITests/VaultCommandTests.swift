import Foundation
import Testing

/// init, passwd, unlock/lock, status, check, backup and restore through the real binary:
/// exit statuses, stdout and stderr as a user sees them.
@Suite struct VaultCommandTests {
    static let passphrase = "correct horse battery staple"

    /// The process that holds the keys never maps poppler, cairo, pango, qpdf, Tesseract,
    /// leptonica, libheif, libxml2 or the libcurl Tesseract brings (nor does it pay for loading
    /// them at every start): only phr-render, beside it, links them.
    @Test func theKeyHoldingProgramLinksNoPDFLibrary() throws {
        func libraries(_ program: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
            process.arguments = [program]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return text
        }
        let phr = try libraries(CLI.phr)
        #expect(phr.contains("libsqlite3") && phr.contains("libcrypto"))
        for library in ["libpoppler", "libcairo", "libpango", "libqpdf", "libglib", "libfreetype",
                        "libtesseract", "liblept", "libheif", "libxml2", "libcurl", "libjpeg", "libpng"] {
            #expect(!phr.contains(library), "phr links \(library)")
        }
        let render = try libraries("\(CLI.binDirectory)/phr-render")
        for library in ["libpoppler-glib", "libcairo", "libpangocairo", "libqpdf", "libtesseract", "liblept",
                        "libheif", "libxml2"] {
            #expect(render.contains(library), "phr-render links \(library)")
        }
    }

    /// The process that parses hostile files holds no SQLite and no OpenSSL of its own: its own
    /// ELF needed list (`readelf -d`, not the libraries poppler or Tesseract pull in) names none
    /// of them, so a reader taken over by a file finds no vault code and no cipher to call.
    @Test func theParsingProgramLinksNoDatabaseOrCryptoLibrary() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        process.arguments = ["-d", "\(CLI.binDirectory)/phr-render"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let needed = text.split(separator: "\n").filter { $0.contains("(NEEDED)") }
            .compactMap { line in line.split(separator: "[").last.map { String($0.dropLast()) } }
        // The list is read (it names the parsers phr-render exists for) before it is judged.
        #expect(needed.contains { $0.hasPrefix("libpoppler-glib") } && needed.contains { $0.hasPrefix("libxml2") })
        for library in ["libsqlite3", "libcrypto", "libssl"] {
            #expect(!needed.contains { $0.hasPrefix(library) }, "phr-render links \(library): \(needed)")
        }
    }

    /// A phr copied without its phr-render says so, with exit 69, and changes nothing.
    @Test func aMissingPHRRenderIsNamedWithAnInstallHint() throws {
        let cli = try CLI(label: "nohelper")
        defer { cli.cleanUp() }
        let file = try cli.passphraseFile(Self.passphrase)
        _ = try cli.initVault(passphrase: Self.passphrase)
        let alone = "\(cli.directory)/bin/phr"
        try FileManager.default.createDirectory(atPath: "\(cli.directory)/bin", withIntermediateDirectories: true)
        // Copied by cp(1): a copy written from this process could be inherited, open for
        // writing, by a child another test forks meanwhile, and exec would fail with ETXTBSY.
        let copy = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: [CLI.phr, alone])
        copy.waitUntilExit()
        #expect(copy.terminationStatus == 0)
        let before = cli.vaultFingerprint()
        let hint = "phr: hint: phr reads and draws PDFs with phr-render, which must be installed in the same directory as phr; reinstall both\n"
        let add = try cli.run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf"],
                              ["PHR_PASSPHRASE_FILE": file], executable: alone)
        #expect(add.status == 69)
        #expect(add.stderr.hasSuffix("phr-render: no such file or directory\n" + hint), "\(add.stderr)")
        let card = try cli.run(["emergency", "--pdf", "card.pdf"], ["PHR_PASSPHRASE_FILE": file], executable: alone)
        #expect(card.status == 69)
        #expect(card.stderr == "phr: error: cannot start \(cli.directory)/bin/phr-render: no such file or directory\n" + hint)
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/card.pdf"))
        #expect(cli.vaultFingerprint() == before)
    }

    @Test func initPrintsTheRecoveryKeyOnceAndCreatesAPrivateVault() throws {
        let cli = try CLI(label: "init")
        defer { cli.cleanUp() }
        let file = try cli.passphraseFile(Self.passphrase)
        let result = try cli.run(["init"], ["PHR_PASSPHRASE_FILE": file])
        #expect(result.status == 0)
        let key = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.range(of: #"^[0-9A-Z]{4}(-[0-9A-Z]{4}){7}$"#, options: .regularExpression) != nil, "\(key)")
        #expect(result.stderr.contains("phr: created a vault at \(cli.vault)"))
        #expect(result.stderr.contains("recovery key"))
        let again = try cli.run(["init"], ["PHR_PASSPHRASE_FILE": file])
        #expect(again.status == 1)
        #expect(again.stderr.hasPrefix("phr: error: \(cli.vault) already exists and is not empty\n"))
        let attributes = try FileManager.default.attributesOfItem(atPath: cli.vault)
        #expect(attributes[.posixPermissions] as? Int == 0o700)
    }

    @Test func withoutATerminalOrPassphraseSourceTheVaultIsLocked() throws {
        let cli = try CLI(label: "locked")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let result = try cli.run(["check"])
        #expect(result.status == 77)
        #expect(result.stderr == """
            phr: error: the vault at \(cli.vault) is locked
            phr: hint: run 'phr unlock', or set PHR_PASSPHRASE_FILE or PHR_PASSPHRASE_COMMAND for scripts

            """)
        #expect(result.stdout.isEmpty)
        // `phr unlock` itself is not told to run `phr unlock`.
        let unlock = try cli.run(["unlock"])
        #expect(unlock.status == 77)
        #expect(unlock.stderr == """
            phr: error: cannot unlock the vault at \(cli.vault): there is no terminal to ask on and no passphrase source is set
            phr: hint: run phr unlock on a terminal, or set PHR_PASSPHRASE_FILE or PHR_PASSPHRASE_COMMAND

            """)
    }

    @Test func aWrongPassphraseExits77AndChangesNothing() throws {
        let cli = try CLI(label: "wrong")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let before = cli.vaultFingerprint()
        for command in [["check"], ["status"], ["unlock"], ["backup", "--out", "\(cli.directory)/b"], ["passwd"]] {
            let result = try cli.run(command, ["PHR_PASSPHRASE": "not the right one"])
            #expect(result.status == 77, "\(command)")
            #expect(result.stderr.hasPrefix("phr: error: wrong passphrase or recovery key\n"), "\(command): \(result.stderr)")
            #expect(!result.output.contains("not the right one"))
        }
        #expect(cli.vaultFingerprint() == before)
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/b"))
    }

    @Test func passphraseSourcesAreTriedInResticsOrder() throws {
        let cli = try CLI(label: "sources")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let good = try cli.passphraseFile(Self.passphrase, name: "good")
        // A file wins over a command, which wins over the variable.
        #expect(try cli.run(["check"], ["PHR_PASSPHRASE_FILE": good, "PHR_PASSPHRASE": "wrong wrong"]).status == 0)
        #expect(try cli.run(["check"], ["PHR_PASSPHRASE_COMMAND": "cat \(good)", "PHR_PASSPHRASE": "wrong wrong"]).status == 0)
        #expect(try cli.run(["check"], ["PHR_PASSPHRASE": Self.passphrase]).status == 0)
        let missing = try cli.run(["check"], ["PHR_PASSPHRASE_FILE": "\(cli.directory)/nope"])
        #expect(missing.status == 77)
        #expect(missing.stderr.hasPrefix("phr: error: cannot read PHR_PASSPHRASE_FILE (\(cli.directory)/nope): no such file or directory\n"))
        let failing = try cli.run(["check"], ["PHR_PASSPHRASE_COMMAND": "exit 3"])
        #expect(failing.status == 77)
        #expect(failing.stderr.hasPrefix("phr: error: PHR_PASSPHRASE_COMMAND failed with exit status 3\n"))
    }

    @Test func theCommandLineHasNoPassphraseOption() throws {
        let cli = try CLI(label: "argv")
        defer { cli.cleanUp() }
        for command in ["init", "unlock", "passwd", "restore", "backup", "check", "status"] {
            let help = try cli.run([command, "--help"])
            #expect(help.status == 0)
            #expect(!help.stdout.lowercased().contains("--passphrase"), "\(command)")
            #expect(!help.stdout.lowercased().contains("--password "), "\(command)")
        }
        let attempt = try cli.run(["init", "--passphrase", "x"])
        #expect(attempt.status == 64)
    }

    @Test func unlockWorksWithoutAPassphraseUntilItExpiresAndLockEndsIt() throws {
        let cli = try CLI(label: "unlock")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let unlock = try cli.run(["unlock", "--for", "2s"], ["PHR_PASSPHRASE": Self.passphrase])
        defer { _ = try? cli.run(["lock"]) }
        #expect(unlock.status == 0, "\(unlock.stderr)")
        #expect(unlock.stderr.hasPrefix("phr: unlocked until "))
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stderr)")
        let status = try cli.run(["status"])
        #expect(status.stdout.contains("state     unlocked until"))
        #expect(status.stdout.contains("records   allergies 0, appointments 0, conditions 0, contacts 0, documents 0, doses 0, family history 0, goals 0, immunizations 0, log entries 0, medications 0, observations 0, procedures 0, profiles 1, reminders 0"))
        Thread.sleep(forTimeInterval: 3)
        #expect(try cli.run(["check"]).status == 77, "expired")
        #expect(try cli.run(["status"]).stdout.contains("state     locked"))

        #expect(try cli.run(["unlock", "--for", "10m"], ["PHR_PASSPHRASE": Self.passphrase]).status == 0)
        #expect(try cli.run(["check"]).status == 0)
        let lock = try cli.run(["lock"])
        #expect(lock.status == 0)
        #expect(lock.stderr == "phr: locked\n")
        #expect(try cli.run(["check"]).status == 77)
        #expect(try cli.run(["lock"]).stderr == "phr: the vault was not unlocked\n")
    }

    @Test func unlockSaysSoWhenTheKeyringIsUnavailable() throws {
        let cli = try CLI(label: "nokeyring")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let result = try cli.run(["unlock"], ["PHR_PASSPHRASE": Self.passphrase, "PHR_TEST_DISABLE_KEYRING": "1"])
        #expect(result.status == 69)
        #expect(result.stderr.hasPrefix("phr: error: the kernel keyring is not available here: "))
        #expect(result.stderr.contains("phr: hint: phr will ask for the passphrase each time"))
        // Everything still works with a passphrase.
        #expect(try cli.run(["check"], ["PHR_PASSPHRASE": Self.passphrase, "PHR_TEST_DISABLE_KEYRING": "1"]).status == 0)
    }

    @Test func unlockRejectsBadDurations() throws {
        let cli = try CLI(label: "duration")
        defer { cli.cleanUp() }
        let bad = try cli.run(["unlock", "--for", "forever"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--for: 'forever' is not a duration"))
        #expect(try cli.run(["unlock", "--for", "25h"]).status == 64)
    }

    @Test func passwdChangesThePassphraseAndKeepsTheRecoveryKey() throws {
        let cli = try CLI(label: "passwd")
        defer { cli.cleanUp() }
        let recovery = try cli.initVault()
        let databaseBefore = CLI.sha256("\(cli.vault)/vault.db")
        let newFile = try cli.passphraseFile("a brand new passphrase", name: "new")
        let result = try cli.run(["passwd"], ["PHR_PASSPHRASE": Self.passphrase, "PHR_NEW_PASSPHRASE_FILE": newFile])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "phr: passphrase changed; the recovery key still works\n")
        #expect(try cli.run(["check"], ["PHR_PASSPHRASE": Self.passphrase]).status == 77)
        #expect(try cli.run(["check"], ["PHR_PASSPHRASE": "a brand new passphrase"]).status == 0)
        #expect(try cli.run(["check"], ["PHR_PASSPHRASE": recovery]).status == 0)
        #expect(CLI.sha256("\(cli.vault)/vault.db") == databaseBefore, "no page was rewritten")
        let short = try cli.passphraseFile("short", name: "short")
        let refused = try cli.run(["passwd"], ["PHR_PASSPHRASE": recovery, "PHR_NEW_PASSPHRASE_FILE": short])
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("phr: error: the passphrase is too short: use at least 8 characters\n"))
    }

    @Test func statusDescribesALockedVaultWithoutAsking() throws {
        let cli = try CLI(label: "status")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let text = try cli.run(["status"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("vault     \(cli.vault)\nstate     locked\n"))
        #expect(text.stdout.contains("keys      passphrase: scrypt N=2^10 r=8 p=1 (1 MiB)"))
        #expect(text.stdout.contains("          recovery key: scrypt N=2^10 r=8 p=1 (1 MiB)"))
        #expect(text.stdout.contains("records   (unlock the vault to count them)"))
        let json = try cli.run(["status", "--json"], ["PHR_PASSPHRASE": Self.passphrase])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["path"] as? String == cli.vault)
        #expect(object["locked"] as? Bool == true)
        #expect((object["counts"] as? [String: Int])?["profiles"] == 1)
        #expect((object["slots"] as? [[String: Any]])?.count == 2)
        #expect((object["database_bytes"] as? Int ?? 0) > 0)
        let missing = try cli.run(["status", "--vault", "\(cli.directory)/none"])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("phr: error: no vault at \(cli.directory)/none\nphr: hint: create one with 'phr init'"))
    }

    @Test func checkNamesATamperedPageAndExits80() throws {
        let cli = try CLI(label: "tamper")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let env = ["PHR_PASSPHRASE": Self.passphrase]
        let ok = try cli.run(["check"], env)
        #expect(ok.status == 0)
        #expect(ok.stdout.range(of: #"^ok: \d+ pages and 0 blobs \(0 B\) authenticated, SQLite integrity_check ok, 2 full-text indexes consistent\n$"#, options: .regularExpression) != nil, "\(ok.stdout)")
        let handle = try #require(FileHandle(forUpdatingAtPath: "\(cli.vault)/vault.db"))
        try handle.seek(toOffset: 2 * 4096 + 77)
        try handle.write(contentsOf: Data([0x5a]))
        try handle.close()
        let bad = try cli.run(["check"], env)
        #expect(bad.status == 80)
        #expect(bad.stderr.contains("phr: error: vault integrity check failed: page 3 of vault.db failed authentication (tampered or damaged)\n"))
        #expect(bad.stderr.contains("phr: hint: restore from a backup"))
        let json = try cli.run(["check", "--json"], env)
        #expect(json.status == 80)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((report["problems"] as? [String])?.first == "page 3 of vault.db failed authentication (tampered or damaged)")
    }

    @Test func backupThenRestoreReproducesTheVault() throws {
        let cli = try CLI(label: "backup")
        defer { cli.cleanUp() }
        let recovery = try cli.initVault()
        let env = ["PHR_PASSPHRASE": Self.passphrase]
        let backup = try cli.run(["backup", "--out", "\(cli.directory)/vault.phrbak"], env)
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stdout.isEmpty && backup.stderr.hasPrefix("phr: wrote \(cli.directory)/vault.phrbak ("))
        #expect(try cli.run(["backup", "--out", "\(cli.directory)/vault.phrbak"], env).status == 1, "no silent overwrite")
        #expect(try cli.run(["backup", "--out", "\(cli.directory)/vault.phrbak", "--force"], env).status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: "\(cli.directory)/vault.phrbak")
        #expect(attributes[.posixPermissions] as? Int == 0o600)

        let restore = try cli.run(["restore", "\(cli.directory)/vault.phrbak", "--vault", "\(cli.directory)/restored"], ["PHR_PASSPHRASE": recovery])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.isEmpty && restore.stderr == "phr: restored \(cli.directory)/restored (0 blobs); every page and blob verified\n")
        #expect(try cli.run(["check", "--vault", "\(cli.directory)/restored"], env).status == 0)
        let original = try cli.run(["status", "--json"], env).stdout
        let copy = try cli.run(["status", "--json", "--vault", "\(cli.directory)/restored"], env).stdout
        let a = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
        let b = try #require(try JSONSerialization.jsonObject(with: Data(copy.utf8)) as? [String: Any])
        #expect(a["vault_id"] as? String == b["vault_id"] as? String)
        #expect(a["counts"] as? [String: Int] == b["counts"] as? [String: Int])

        let again = try cli.run(["restore", "\(cli.directory)/vault.phrbak", "--vault", "\(cli.directory)/restored"], env)
        #expect(again.status == 1)
        let garbage = "\(cli.directory)/garbage"
        #expect(FileManager.default.createFile(atPath: garbage, contents: Data("not a backup".utf8)))
        let refused = try cli.run(["restore", garbage, "--vault", "\(cli.directory)/r2"], env)
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("phr: error: \(garbage) is not a usable phr backup: it does not start like a phr backup\n"))
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/r2"))
    }

    /// No passphrase, recovery key or record content in anything phr prints when it fails.
    @Test func errorsNeverContainSecretsOrRecordContents() throws {
        let cli = try CLI(label: "secrets")
        defer { cli.cleanUp() }
        let secret = "SECRET-zebra-passphrase-42"
        let recovery = try cli.initVault(passphrase: secret)
        let env = ["PHR_PASSPHRASE": secret]
        // Put records into the vault with the crash-test writer, then damage a page holding them.
        let writer = try cli.run([cli.vault, "0", "5", "3"], env, executable: "\(CLI.binDirectory)/phr-crash-writer")
        #expect(writer.status == 0, "\(writer.stderr)")
        let size = try #require(FileManager.default.attributesOfItem(atPath: "\(cli.vault)/vault.db")[.size] as? Int)
        let handle = try #require(FileHandle(forUpdatingAtPath: "\(cli.vault)/vault.db"))
        try handle.seek(toOffset: UInt64(size - 4096 + 100))
        try handle.write(contentsOf: Data([0x00, 0x11]))
        try handle.close()
        let outputs = [
            try cli.run(["check"], env),
            try cli.run(["check"], ["PHR_PASSPHRASE": secret + "x"]),
            try cli.run(["unlock", "--for", "soon"], env),
            try cli.run(["restore", "\(cli.directory)/missing.phrbak", "--vault", "\(cli.directory)/r"], env),
            try cli.run(["backup", "--out", "/proc/forbidden/backup"], env),
            try cli.run(["passwd"], env),
            try cli.run(["status", "--vault", "\(cli.directory)/nothing"], env),
        ]
        for result in outputs {
            #expect(result.status != 0)
            #expect(!result.output.contains(secret))
            #expect(!result.output.contains(recovery))
            #expect(!result.output.contains("crash-marker"))
            #expect(!result.output.contains("lorem ipsum"))
            #expect(!result.output.isEmpty)
        }
    }
}
