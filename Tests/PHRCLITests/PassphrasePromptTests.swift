import Foundation
import Testing

/// Issue 35, item 8: passphrases typed at a terminal (a pseudo-terminal here, answered as a
/// person answers: after each prompt shows). A short or mismatched new passphrase and a wrong
/// one are asked again, three tries in all; the prompt says the recovery key works there;
/// `phr passwd` leaves a `phr unlock` running.
@Suite struct PassphrasePromptTests {
    static let passphrase = "correct horse battery staple"

    @Test func initAsksAgainAfterAShortOrMismatchedPassphrase() throws {
        let cli = try CLI(label: "prompt-init")
        defer { cli.cleanUp() }
        let (status, screen) = try cli.runOnTerminal(["init"], answers: [
            ("New passphrase for the vault: ", "short\n"),
            ("try again", ""),
            ("New passphrase for the vault: ", Self.passphrase + "\n"),
            ("Repeat the passphrase: ", "correct horse battery stapler\n"),
            ("try again", ""),
            ("New passphrase for the vault: ", Self.passphrase + "\n"),
            ("Repeat the passphrase: ", Self.passphrase + "\n"),
        ])
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("the passphrase is too short: use at least 8 characters; try again (2 more tries)"), "\(screen)")
        #expect(screen.contains("the two passphrases do not match; try again (1 more try)"), "\(screen)")
        #expect(!screen.contains(Self.passphrase), "the passphrase was echoed")
        // The vault opens with it.
        #expect(try cli.run(["status"], ["PHR_PASSPHRASE": Self.passphrase]).status == 0)
    }

    @Test func threeMismatchesCreateNothing() throws {
        let cli = try CLI(label: "prompt-init-3")
        defer { cli.cleanUp() }
        var answers: [(prompt: String, typed: String)] = []
        for _ in 0..<3 {
            answers += [("New passphrase for the vault: ", Self.passphrase + "\n"), ("Repeat the passphrase: ", "something else entirely\n")]
        }
        let (status, screen) = try cli.runOnTerminal(["init"], answers: answers)
        #expect(status == 65 && screen.contains("phr: error:") && screen.contains("the two passphrases do not match\n"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: cli.vault + "/keys.json"))
    }

    @Test func aWrongPassphraseIsAskedAgainAndThePromptNamesTheRecoveryKey() throws {
        let cli = try CLI(label: "prompt-wrong")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["allergy", "add", "Penicillin"], ["PHR_PASSPHRASE": Self.passphrase]).status == 0)
        let (status, screen) = try cli.runOnTerminal(["allergy", "list"], ["PHR_NO_AGENT": "1"], answers: [
            ("Passphrase (or recovery key) for the phr vault: ", "wrong one\n"),
            ("That did not open the vault. Passphrase (or recovery key), again: ", "wrong two\n"),
            ("again: ", Self.passphrase + "\n"),
        ])
        #expect(status == 0 && screen.contains("Penicillin"), "\(screen)")
        // Three wrong: the command fails as before, exit 77.
        let (failed, said) = try cli.runOnTerminal(["allergy", "list"], ["PHR_NO_AGENT": "1"], answers: [
            ("for the phr vault: ", "wrong one\n"), ("again: ", "wrong two\n"), ("again: ", "wrong three\n"),
        ])
        #expect(failed == 77 && said.contains("wrong passphrase or recovery key"), "\(said)")
        #expect(!said.contains("Penicillin"))
        // A passphrase variable is tried once: a script is not asked again.
        let scripted = try cli.run(["allergy", "list"], ["PHR_PASSPHRASE": "wrong"])
        #expect(scripted.status == 77 && !scripted.stderr.contains("again"), "\(scripted.output)")
    }

    @Test func passwdAsksAgainForTheCurrentPassphraseAndLeavesTheUnlockRunning() throws {
        let cli = try CLI(label: "prompt-passwd")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let runtime = ["XDG_RUNTIME_DIR": cli.runtimeDirectory]
        #expect(try cli.run(["unlock", "--for", "1h"], runtime.merging(["PHR_PASSPHRASE": Self.passphrase]) { $1 }).status == 0)
        let (status, screen) = try cli.runOnTerminal(["passwd"], runtime, answers: [
            ("Current passphrase or recovery key: ", "not it\n"),
            ("again: ", Self.passphrase + "\n"),
            ("New passphrase: ", "a brand new passphrase\n"),
            ("Repeat the passphrase: ", "a brand new passphrase\n"),
        ])
        #expect(status == 0 && screen.contains("passphrase changed"), "\(screen)")
        #expect(screen.contains("'phr unlock' goes on until"), "\(screen)")
        // Still unlocked: a command needs no passphrase.
        let listed = try cli.run(["allergy", "list"], runtime.merging(["PHR_NO_AGENT": "1"]) { $1 })
        #expect(listed.status == 0, "\(listed.output)")
        #expect(try cli.run(["lock"], runtime).status == 0)
        #expect(try cli.run(["status"], ["PHR_PASSPHRASE": "a brand new passphrase"]).status == 0)
        #expect(try cli.run(["allergy", "list"], ["PHR_PASSPHRASE": Self.passphrase]).status == 77)
    }
}
